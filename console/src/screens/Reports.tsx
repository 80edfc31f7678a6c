// Reports: the week or month against the one before (a chart drawn by hand in SVG: no chart library),
// the figures by unit below it, and the same as a CSV download. Through the generated client only.
import { useEffect, useState } from 'preact/hooks';
import { useApp } from '../api.ts';
import type { Ok } from '../../../client/index.ts';

type Summary = Ok<'/api/v1/reports/summary', 'get'>;
type Period = 'week' | 'month';

const iso = (d: Date) => d.toISOString().slice(0, 10);
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000);

/** The period holding `day` and the one before it, as [from, to] dates (weeks start on Monday). */
export function periods(day: string, period: Period): { current: [string, string]; previous: [string, string] } {
  const d = new Date(`${day}T00:00:00Z`);
  if (period === 'week') {
    const start = addDays(d, -((d.getUTCDay() + 6) % 7));
    return {
      current: [iso(start), iso(addDays(start, 6))],
      previous: [iso(addDays(start, -7)), iso(addDays(start, -1))],
    };
  }
  const start = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  const prev = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 1, 1));
  return {
    current: [iso(start), iso(addDays(new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)), -1))],
    previous: [iso(prev), iso(addDays(start, -1))],
  };
}

export function Reports() {
  const { api, session } = useApp();
  const [period, setPeriod] = useState<Period>('week');
  const [day, setDay] = useState(iso(new Date()));
  const [data, setData] = useState<{ current: Summary; previous: Summary; units: Summary } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const range = periods(day, period);

  const get = (from: string, to: string, group_by: 'day' | 'unit') =>
    api.GET('/api/v1/reports/summary', { params: { query: { store_id: session.storeId, from, to, group_by } } });

  useEffect(() => {
    setError(null);
    void Promise.all([get(...range.current, 'day'), get(...range.previous, 'day'), get(...range.current, 'unit')]).then(
      ([c, p, u]) => {
        if (!c.data || !p.data || !u.data)
          return setError((c.error ?? p.error ?? (u.error as any))?.error?.message ?? 'Could not load the report');
        // JSON unless asked for CSV: the client's type also admits the text/csv answer.
        setData({ current: c.data as Summary, previous: p.data as Summary, units: u.data as Summary });
      },
    );
  }, [period, day]);

  async function download() {
    const { data, response } = await api.GET('/api/v1/reports/summary', {
      params: { query: { store_id: session.storeId, from: range.current[0], to: range.current[1], group_by: 'unit' } },
      headers: { accept: 'text/csv' },
      parseAs: 'blob',
    });
    if (!response.ok || !data) return setError('Could not download the CSV');
    const url = URL.createObjectURL(data as unknown as Blob);
    const a = Object.assign(document.createElement('a'), {
      href: url,
      download: `report-${range.current[0]}-${range.current[1]}.csv`,
    });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  return (
    <section aria-labelledby="reports-title">
      <div class="toolbar">
        <h1 id="reports-title">Reports</h1>
        <select
          name="period"
          value={period}
          onChange={(e) => setPeriod(e.currentTarget.value as Period)}
          aria-label="Period"
        >
          <option value="week">Week</option>
          <option value="month">Month</option>
        </select>
        <input
          type="date"
          name="day"
          value={day}
          onChange={(e) => e.currentTarget.value && setDay(e.currentTarget.value)}
          aria-label="A day in the period"
        />
        <button type="button" onClick={() => void download()}>
          Download CSV
        </button>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {data && (
        <>
          <Chart current={data.current} previous={data.previous} />
          <UnitTable summary={data.units} />
        </>
      )}
    </section>
  );
}

/** Booked minutes a day: this period as bars, the one before as a line, on one scale. */
function Chart({ current, previous }: { current: Summary; previous: Summary }) {
  const a = current.groups.map((g) => g.booked_minutes);
  const b = previous.groups.map((g) => g.booked_minutes);
  const n = Math.max(a.length, b.length, 1);
  const max = Math.max(1, ...a, ...b);
  const W = 600,
    H = 200,
    pad = 24,
    step = (W - 2 * pad) / n;
  const y = (v: number) => H - pad - (v / max) * (H - 2 * pad);
  const line = b.map((v, i) => `${pad + step * (i + 0.5)},${y(v)}`).join(' ');
  const total = (xs: number[]) => xs.reduce((s, v) => s + v, 0);
  return (
    <figure class="card" data-testid="report-chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`Booked minutes a day: ${total(a)} this period, ${total(b)} the period before`}
        width="100%"
      >
        <line x1={pad} x2={W - pad} y1={H - pad} y2={H - pad} stroke="currentColor" stroke-width="1" />
        {a.map((v, i) => (
          <rect
            key={i}
            x={pad + step * i + step * 0.15}
            y={y(v)}
            width={step * 0.7}
            height={H - pad - y(v)}
            fill="#4a7fb5"
          >
            <title>
              {current.groups[i].key}: {v} min
            </title>
          </rect>
        ))}
        {b.length > 1 && <polyline points={line} fill="none" stroke="#c2571a" stroke-width="2" />}
        <text x={pad} y={14} font-size="12">
          max {max} min
        </text>
      </svg>
      <figcaption>
        Booked minutes a day: bars this period ({current.from} to {current.to}), line the one before.
      </figcaption>
    </figure>
  );
}

const pct = (v: number | null) => (v === null ? '–' : `${(v * 100).toFixed(1)}%`);
const money = (pence: number, currency: string) =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(pence / 100);

function UnitTable({ summary }: { summary: Summary }) {
  return (
    <table class="card" data-testid="report-table">
      <caption>
        By staff member, {summary.from} to {summary.to}
      </caption>
      <thead>
        <tr>
          <th scope="col">Unit</th>
          <th scope="col">Appointments</th>
          <th scope="col">Completed</th>
          <th scope="col">Cancelled</th>
          <th scope="col">No-show</th>
          <th scope="col">No-show rate</th>
          <th scope="col">Utilisation</th>
          <th scope="col">Booked</th>
          <th scope="col">Taken</th>
          <th scope="col">New</th>
          <th scope="col">Returning</th>
        </tr>
      </thead>
      <tbody>
        {summary.groups.map((g) => (
          <tr key={g.key ?? 'none'}>
            <th scope="row">{g.label ?? g.key}</th>
            <td>{g.appointments}</td>
            <td>{g.completed}</td>
            <td>{g.cancelled}</td>
            <td>{g.no_show}</td>
            <td>{pct(g.no_show_rate)}</td>
            <td>{pct(g.utilisation)}</td>
            <td>{money(g.revenue_booked_pence, g.currency)}</td>
            <td>{money(g.revenue_settled_pence, g.currency)}</td>
            <td>{g.new_customers}</td>
            <td>{g.returning_customers}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
