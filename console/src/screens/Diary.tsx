// The diary: a day view (columns are units, in their colours) and a week view for one unit, drawn in
// the store's time zone. Click empty time to quick-add; drag an appointment to move it (a refusal snaps
// it back with the envelope's message); open one for its actions.
import { useCallback, useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { useApp, useAction, idem } from '../api.ts';
import type { LiveHub } from '../live.ts';
import type { DiaryAppointment, DiaryResponse, Service } from '../types.ts';
import { addDays, hhmm, hourMarks, iso, localDate, weekday, zonedInstant } from '../time.ts';
import { QuickAdd, type Slot } from './QuickAdd.tsx';
import { firstFreeStart } from '../free-time.ts';
import { AppointmentPanel } from './AppointmentPanel.tsx';
import { useCustomerNames } from '../customer-names.ts';
import { AppointmentBlock, place, PX_PER_MIN } from './AppointmentBlock.tsx';
import { LiveBadge } from './LiveBadge.tsx';

const SNAP_MIN = 5;

interface Column {
  key: string;
  unitId: string;
  title: string;
  colour: string | null;
  from: number;
  to: number;
  appointments: DiaryAppointment[];
  blocks: Array<{ id: string; starts_at: string; ends_at: string; label: string; kind: 'hold' | 'time_off' }>;
}

interface Drag {
  id: string;
  unitId: string;
  startY: number;
  pointerId: number;
  dy: number;
  overUnit: string | null;
  moved: boolean;
}

function initialDate(): string {
  const q = new URLSearchParams(location.hash.split('?')[1] ?? '');
  return q.get('date') ?? '';
}

export function Diary(props: { hub: LiveHub }) {
  const { api, session, notify } = useApp();
  const [date, setDate] = useState(initialDate);
  const [view, setView] = useState<'day' | 'week'>('day');
  const [weekUnit, setWeekUnit] = useState<string>('');
  const [diary, setDiary] = useState<DiaryResponse | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [services, setServices] = useState<Service[]>([]);
  const [slot, setSlot] = useState<Slot | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  const [moveError, setMoveError] = useState<string | null>(null);
  const [pending, setPending] = useState<Record<string, { unitId: string; starts_at: string; ends_at: string }>>({});
  const drag = useRef<Drag | null>(null);
  const [, setDragTick] = useState(0);
  const move = useAction();
  const scroller = useRef<HTMLDivElement>(null);

  const load = useCallback(async () => {
    let day = date;
    if (!day) {
      // "Today" is the store's today: ask for the diary once to learn the zone, then use its date.
      day = localDate(Date.now(), diary?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
    }
    const to = view === 'week' ? addDays(day, 6) : day;
    const unit = view === 'week' ? weekUnit || undefined : undefined;
    const { data, error } = await api.GET('/api/v1/bookings/diary', {
      params: { query: { store_id: session.storeId, from_date: day, to_date: to, ...(unit ? { unit_id: unit } : {}) } },
    });
    if (error || !data) return setLoadError((error as any)?.error?.message ?? 'Could not load the diary');
    setLoadError(null);
    if (!date) {
      const storeToday = localDate(Date.now(), data.timezone);
      if (storeToday !== day) return setDate(storeToday);
      setDate(day);
    }
    (window as any).__diaryData = performance.now();
    setDiary(data);
  }, [api, session.storeId, date, view, weekUnit]);

  useEffect(() => void load(), [load]);
  useEffect(() => props.hub.on(['appointment.', 'hold.', 'time_off.', 'queue.'], () => void load()), [props.hub, load]);
  useEffect(() => {
    void api
      .GET('/api/v1/bookings/services', { params: { query: { store_id: session.storeId } } })
      .then(({ data }) => data && setServices(data.services));
  }, [api, session.storeId]);
  useEffect(() => {
    // Open on the working day rather than midnight.
    if (diary && scroller.current && scroller.current.scrollTop === 0) scroller.current.scrollTop = 7 * 60 * PX_PER_MIN;
  }, [diary]);

  const tz = diary?.timezone ?? 'UTC';
  const serviceName = useMemo(() => new Map(services.map((s) => [s.id, s.name])), [services]);

  const columns: Column[] = useMemo(() => {
    if (!diary) return [];
    const blocksOf = (u: DiaryResponse['units'][number]) => [
      ...u.holds.map((h) => ({
        id: h.id,
        starts_at: h.starts_at,
        ends_at: h.ends_at,
        label: 'Hold',
        kind: 'hold' as const,
      })),
      ...u.time_off.map((t) => ({
        id: t.id,
        starts_at: t.starts_at,
        ends_at: t.ends_at,
        label: t.reason ?? (t.kind === 'block' ? 'Blocked' : 'Time off'),
        kind: 'time_off' as const,
      })),
    ];
    if (view === 'day') {
      const from = Date.parse(diary.from);
      const to = Date.parse(diary.to);
      return diary.units.map((u) => ({
        key: u.unit.id,
        unitId: u.unit.id,
        title: u.unit.display_name,
        colour: u.unit.colour,
        from,
        to,
        appointments: u.appointments,
        blocks: blocksOf(u),
      }));
    }
    const u = diary.units[0];
    if (!u) return [];
    const first = localDate(Date.parse(diary.from), tz);
    return Array.from({ length: 7 }, (_, i) => {
      const d = addDays(first, i);
      const from = zonedInstant(d, 0, 0, tz);
      const to = zonedInstant(addDays(d, 1), 0, 0, tz);
      const inDay = (s: { starts_at: string }) => Date.parse(s.starts_at) >= from && Date.parse(s.starts_at) < to;
      return {
        key: d,
        unitId: u.unit.id,
        title: weekday(d),
        colour: u.unit.colour,
        from,
        to,
        appointments: u.appointments.filter(inDay),
        blocks: blocksOf(u).filter(inDay),
      };
    });
  }, [diary, view, tz]);

  useEffect(() => {
    if (diary) requestAnimationFrame(() => ((window as any).__diaryPainted = performance.now()));
  }, [columns]);

  const all = useMemo(
    () =>
      new Map(diary?.units.flatMap((u) => u.appointments.map((a) => [a.id, { a, unitId: u.unit.id }] as const)) ?? []),
    [diary],
  );
  useCustomerNames(diary?.units.flatMap((u) => u.appointments.map((a) => a.customer_id)) ?? []);
  const opened = openId ? all.get(openId) : undefined;

  function onColumnClick(col: Column, e: MouseEvent) {
    if (e.target !== e.currentTarget) return;
    const y = e.offsetY;
    const minutes = Math.floor(y / PX_PER_MIN / 15) * 15;
    setSlot({ unitId: col.unitId, startsAt: col.from + minutes * 60_000, date: localDate(col.from, tz), timezone: tz });
  }

  function onPointerDown(a: DiaryAppointment, unitId: string, e: PointerEvent) {
    if (e.button !== 0 || view !== 'day') return;
    drag.current = {
      id: a.id,
      unitId,
      startY: e.clientY,
      pointerId: e.pointerId,
      dy: 0,
      overUnit: unitId,
      moved: false,
    };
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
  }

  function onPointerMove(e: PointerEvent) {
    const d = drag.current;
    if (!d || d.pointerId !== e.pointerId) return;
    d.dy = e.clientY - d.startY;
    if (Math.abs(d.dy) > 4) d.moved = true;
    const over = document.elementsFromPoint(e.clientX, e.clientY).find((el) => (el as HTMLElement).dataset?.unitColumn);
    d.overUnit = (over as HTMLElement | undefined)?.dataset.unitColumn ?? d.overUnit;
    if (d.overUnit !== d.unitId) d.moved = true;
    setDragTick((t) => t + 1);
  }

  async function onPointerUp(a: DiaryAppointment, e: PointerEvent) {
    const d = drag.current;
    drag.current = null;
    if (!d || d.pointerId !== e.pointerId) return;
    if (!d.moved) {
      setDragTick((t) => t + 1);
      return setOpenId(a.id);
    }
    const shift = Math.round(d.dy / PX_PER_MIN / SNAP_MIN) * SNAP_MIN * 60_000;
    const starts = Date.parse(a.starts_at) + shift;
    const ends = Date.parse(a.ends_at) + shift;
    const target = { unitId: d.overUnit ?? d.unitId, starts_at: iso(starts), ends_at: iso(ends) };
    if (target.unitId === d.unitId && shift === 0) return setDragTick((t) => t + 1);
    await reschedule(a.id, target);
  }

  async function reschedule(id: string, target: { unitId: string; starts_at: string; ends_at: string }) {
    setMoveError(null);
    (window as any).__moveStart = performance.now();
    setPending((p) => ({ ...p, [id]: target }));
    // Measured by the e2e suite: when the moved block is first drawn at its new place.
    requestAnimationFrame(() => ((window as any).__movePainted = performance.now()));
    const done = await move.run((key) =>
      api.POST('/api/v1/bookings/appointments/reschedule', {
        body: {
          store_id: session.storeId,
          appointment_id: id,
          unit_id: target.unitId,
          starts_at: target.starts_at,
          ends_at: target.ends_at,
        },
        headers: idem(key),
      }),
    );
    if (done) {
      await load();
      setPending((p) => {
        const { [id]: _, ...rest } = p;
        return rest;
      });
      notify(`Moved to ${hhmm(target.starts_at, tz)}`);
    } else {
      setPending((p) => {
        const { [id]: _, ...rest } = p;
        return rest;
      });
    }
    (window as any).__moveEnd = performance.now();
  }
  useEffect(() => setMoveError(move.error), [move.error]);

  const hours = columns[0] ? hourMarks(columns[0].from, columns[0].to, tz) : [];
  const height = columns.length ? Math.max(...columns.map((c) => (c.to - c.from) / 60_000)) * PX_PER_MIN : 0;
  const units = diary?.units.map((u) => u.unit) ?? [];

  function openNew() {
    // The first free time of the shown day (the day view's units; the week view's one unit).
    const free = diary && view === 'day' ? firstFreeStart(diary.units, date, tz, Date.now()) : null;
    setSlot({
      unitId: free?.unitId ?? units[0].id,
      startsAt: free?.startsAt ?? zonedInstant(date, 9, 0, tz),
      date,
      timezone: tz,
    });
  }

  return (
    <section class="diary" aria-labelledby="diary-title">
      <div class="toolbar">
        <h1 id="diary-title">Diary</h1>
        <button type="button" onClick={() => setDate(addDays(date, view === 'week' ? -7 : -1))} aria-label="Previous">
          ‹
        </button>
        <label>
          <span class="sr-only">Date</span>
          <input type="date" value={date} onChange={(e) => setDate(e.currentTarget.value)} aria-label="Date" />
        </label>
        <button type="button" onClick={() => setDate(addDays(date, view === 'week' ? 7 : 1))} aria-label="Next">
          ›
        </button>
        <button type="button" onClick={() => setDate(localDate(Date.now(), tz))}>
          Today
        </button>
        <label>
          View{' '}
          <select value={view} onChange={(e) => setView(e.currentTarget.value as 'day' | 'week')}>
            <option value="day">Day, every unit</option>
            <option value="week">Week, one unit</option>
          </select>
        </label>
        {view === 'week' && (
          <label>
            Unit{' '}
            <select value={weekUnit} onChange={(e) => setWeekUnit(e.currentTarget.value)}>
              <option value="">(first unit)</option>
              {units.map((u) => (
                <option key={u.id} value={u.id}>
                  {u.display_name}
                </option>
              ))}
            </select>
          </label>
        )}
        <button type="button" disabled={!units.length || !date} onClick={openNew}>
          New booking
        </button>
        <span class="tz" data-testid="diary-meta">
          {diary ? `${tz} · ${hours.length} hours` : ''}
        </span>
        <LiveBadge hub={props.hub} />
      </div>
      {loadError && (
        <p class="error" role="alert">
          {loadError}
        </p>
      )}
      {moveError && (
        <p class="error" role="alert" data-testid="move-error">
          Not moved: {moveError}
        </p>
      )}
      <div
        class="grid-scroll"
        ref={scroller}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus so the keyboard can scroll it (axe's scrollable-region-focusable)
        tabIndex={0}
        role="region"
        aria-label="Diary grid: click an empty time to book, drag an appointment to move it"
      >
        <div class="grid" style={{ gridTemplateColumns: `4rem repeat(${columns.length}, minmax(7rem, 1fr))` }}>
          <div class="corner" />
          {columns.map((c) => (
            <div class="col-head" key={c.key} style={{ borderTopColor: c.colour ?? '#888' }}>
              <span class="swatch" style={{ background: c.colour ?? '#888' }} aria-hidden="true" />
              {c.title}
            </div>
          ))}
          <div class="gutter" style={{ height: `${height}px` }} aria-hidden="true">
            {hours.map((h) => (
              <div
                class="hour"
                key={h.at}
                style={{ top: `${((h.at - columns[0].from) / 60_000) * PX_PER_MIN}px` }}
                data-hour={h.label}
              >
                {h.label}
              </div>
            ))}
          </div>
          {columns.map((c) => (
            // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/noStaticElementInteractions: clicking an empty time is the mouse's shortcut; the keyboard books through the "New appointment" button
            <div
              class="col"
              key={c.key}
              data-unit-column={view === 'day' ? c.unitId : undefined}
              data-testid={`col-${c.title}`}
              style={{ height: `${((c.to - c.from) / 60_000) * PX_PER_MIN}px` }}
              onClick={(e) => onColumnClick(c, e as unknown as MouseEvent)}
              title="Click an empty time to book"
            >
              {c.blocks.map((b) => (
                <div key={b.id} class={`block ${b.kind}`} style={place(b.starts_at, b.ends_at, c.from)}>
                  {b.label}
                </div>
              ))}
              {c.appointments.map((a) => {
                const p = pending[a.id];
                if (p && p.unitId !== c.unitId) return null;
                const d = drag.current?.id === a.id ? drag.current : null;
                const style = place(p?.starts_at ?? a.starts_at, p?.ends_at ?? a.ends_at, c.from);
                if (d) style.transform = `translateY(${d.dy}px)`;
                return (
                  <AppointmentBlock
                    key={a.id}
                    a={a}
                    style={style}
                    colour={c.colour}
                    tz={tz}
                    service={a.service_id ? serviceName.get(a.service_id) : undefined}
                    saving={!!p}
                    dragging={!!d}
                    onPointerDown={(e) => onPointerDown(a, c.unitId, e)}
                    onPointerMove={onPointerMove}
                    onPointerUp={(e) => void onPointerUp(a, e)}
                    onOpen={() => setOpenId(a.id)}
                  />
                );
              })}
              {Object.entries(pending)
                .filter(([id, p]) => p.unitId === c.unitId && all.get(id)?.unitId !== c.unitId)
                .map(([id, p]) => {
                  const a = all.get(id)!.a;
                  return (
                    <AppointmentBlock
                      key={id}
                      a={a}
                      style={place(p.starts_at, p.ends_at, c.from)}
                      colour={c.colour}
                      tz={tz}
                      service={a.service_id ? serviceName.get(a.service_id) : undefined}
                      saving
                      dragging={false}
                    />
                  );
                })}
            </div>
          ))}
        </div>
      </div>
      {slot && (
        <QuickAdd
          slot={slot}
          services={services}
          units={units}
          onClose={() => setSlot(null)}
          onBooked={() => {
            setSlot(null);
            void load();
          }}
        />
      )}
      {opened && (
        <AppointmentPanel
          a={opened.a}
          unitId={opened.unitId}
          units={units}
          tz={tz}
          service={opened.a.service_id ? serviceName.get(opened.a.service_id) : undefined}
          onClose={() => setOpenId(null)}
          onChanged={() => void load()}
          onMove={(target) => {
            setOpenId(null);
            void reschedule(opened.a.id, target);
          }}
        />
      )}
    </section>
  );
}
