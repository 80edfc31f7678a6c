// Unit working hours (GET/PUT /api/v1/bookings/units/{unitId}/hours): a week of store-local intervals,
// typed as "09:00-13:00, 14:00-18:00" per day (empty = closed). Dated exceptions are kept as they are.
import { useEffect, useState } from 'preact/hooks';
import { useApp, useAction, idem } from '../api.ts';
import type { Body, Ok } from '../../../client/index.ts';
import type { Unit } from '../types.ts';

type Hours = Ok<'/api/v1/bookings/units/{unitId}/hours', 'get'>;
type Week = Body<'/api/v1/bookings/units/{unitId}/hours', 'put'>['week'];
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

const show = (intervals: Array<{ open: string; close: string }>) =>
  intervals.map((i) => `${i.open}-${i.close}`).join(', ');
function parse(text: string): Array<{ open: string; close: string }> {
  return text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => {
      const [open, close] = p.split(/\s*[-–]\s*/);
      return { open: open ?? '', close: close ?? '' };
    });
}

export function UnitHours(props: { units: Unit[] }) {
  const { api, session, notify } = useApp();
  const [unitId, setUnitId] = useState('');
  const [hours, setHours] = useState<Hours | null>(null);
  const [text, setText] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const save = useAction();
  const unit = unitId || props.units[0]?.id || '';

  useEffect(() => {
    if (!unit) return;
    setHours(null);
    void api
      .GET('/api/v1/bookings/units/{unitId}/hours', {
        params: { path: { unitId: unit }, query: { store_id: session.storeId } },
      })
      .then(({ data, error }) => {
        if (!data) return setError((error as any)?.error?.message ?? 'Could not load the hours');
        setError(null);
        setHours(data);
        setText(Object.fromEntries(DAYS.map((d) => [d, show(data.week[d])])));
      });
  }, [unit]);

  async function submit(e: Event) {
    e.preventDefault();
    const week = Object.fromEntries(DAYS.map((d) => [d, parse(text[d] ?? '')])) as Week;
    const r = await save.run((key) =>
      api.PUT('/api/v1/bookings/units/{unitId}/hours', {
        params: { path: { unitId: unit } },
        body: { store_id: session.storeId, week, exceptions: hours?.exceptions ?? [] },
        headers: idem(key),
      }),
    );
    if (r) {
      setHours(r);
      notify('Working hours saved');
    }
  }

  return (
    <div class="card" role="region" aria-labelledby="hours-title">
      <h2 id="hours-title">Unit working hours</h2>
      <label class="inline">
        Unit
        <select value={unit} onChange={(e) => setUnitId(e.currentTarget.value)}>
          {props.units.map((u) => (
            <option key={u.id} value={u.id}>
              {u.display_name}
            </option>
          ))}
        </select>
      </label>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {hours && (
        <form class="form" onSubmit={submit} aria-label="Working hours">
          {!hours.hours_set && <p class="notice">No hours set yet: this unit is not offered online.</p>}
          {DAYS.map((d) => (
            <label key={d}>
              {d[0].toUpperCase() + d.slice(1)}
              <input
                value={text[d] ?? ''}
                onInput={(e) => setText({ ...text, [d]: e.currentTarget.value })}
                placeholder="closed"
                name={`hours-${d}`}
              />
            </label>
          ))}
          <small>Store time, e.g. 09:00-13:00, 14:00-18:00. {hours.exceptions.length} dated exception(s) kept.</small>
          {save.error && (
            <p class="error" role="alert">
              {save.error}
            </p>
          )}
          <button type="submit" disabled={save.busy}>
            Save hours
          </button>
        </form>
      )}
    </div>
  );
}
