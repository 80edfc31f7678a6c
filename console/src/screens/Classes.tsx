// Classes (issue 44): the week's timetable in the store's zone (each occurrence with its seats booked,
// offered and waiting), a new class and a new occurrence, cancelling an occurrence (everyone booked is
// told), and each occurrence's roster (ClassRoster.tsx). What a role may do follows src/staff/roles.ts:
// everyone reads; owner and manager create and cancel; the desk books, checks in and marks no-shows.
// Loaded as a chunk of its own (main.tsx) so the console's first script does not grow.
import { useEffect, useState } from 'preact/hooks';
import type { Ok } from '../../../client/index.ts';
import { idem, useAction, useApp } from '../api.ts';
import { addDays, hhmm, localDate, weekday } from '../time.ts';
import { ClassRoster } from './ClassRoster.tsx';
import { NewClass, NewOccurrence } from './ClassForms.tsx';

export type Occurrence = Ok<'/api/v1/classes/occurrences', 'get'>['occurrences'][number];
export type ClassRecord = Ok<'/api/v1/classes', 'get'>['classes'][number];

/** Owner and manager shape the timetable; the desk (and a merchant token) works the roster. */
export function classRights(role: string | null) {
  return { manage: role === null || role === 'owner' || role === 'manager', desk: role !== 'staff' };
}

const monday = (date: string) => addDays(date, -((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7));

export function Classes() {
  const { api, session, notify } = useApp();
  const rights = classRights(session.role);
  const [tz, setTz] = useState<string | null>(null);
  const [week, setWeek] = useState<string | null>(null);
  const [occurrences, setOccurrences] = useState<Occurrence[] | null>(null);
  const [classes, setClasses] = useState<ClassRecord[]>([]);
  const [open, setOpen] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [tick, setTick] = useState(0);
  const reload = () => setTick((n) => n + 1);
  const store_id = session.storeId;

  useEffect(() => {
    void api.GET('/api/v1/bookings/settings', { params: { query: { store_id } } }).then(({ data }) => {
      const zone = data?.settings.timezone ?? 'UTC';
      setTz(zone);
      // #/classes?week=YYYY-MM-DD opens that week (a link to it); else this week.
      const asked = /[?&]week=(\d{4}-\d{2}-\d{2})/.exec(location.hash)?.[1];
      setWeek(monday(asked ?? localDate(Date.now(), zone)));
    });
  }, []);
  useEffect(() => {
    if (!week) return;
    setError(null);
    void Promise.all([
      api.GET('/api/v1/classes/occurrences', {
        params: { query: { store_id, from: week, to: addDays(week, 6), include_cancelled: true } },
      }),
      api.GET('/api/v1/classes', { params: { query: { store_id } } }),
    ]).then(([o, c]) => {
      if (!o.data || !c.data)
        return setError((o.error ?? (c.error as any))?.error?.message ?? 'Could not load the timetable');
      setOccurrences(o.data.occurrences);
      setClasses(c.data.classes);
    });
  }, [week, tick]);

  if (!tz || !week)
    return (
      <section aria-busy="true">
        <h1>Classes</h1>
        <p>Loading…</p>
      </section>
    );
  const days = Array.from({ length: 7 }, (_, i) => addDays(week, i));
  return (
    <section aria-labelledby="classes-title">
      <div class="toolbar">
        <h1 id="classes-title">Classes</h1>
        <button type="button" onClick={() => setWeek(addDays(week, -7))}>
          Previous week
        </button>
        <label>
          Week of
          <input
            type="date"
            name="week"
            value={week}
            onChange={(e) => e.currentTarget.value && setWeek(monday(e.currentTarget.value))}
          />
        </label>
        <button type="button" onClick={() => setWeek(addDays(week, 7))}>
          Next week
        </button>
        <span class="tz">Times in {tz}</span>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {occurrences && occurrences.length === 0 && <p class="empty">No classes this week.</p>}
      {occurrences &&
        days.map((day) => {
          const list = occurrences.filter((o) => localDate(Date.parse(o.starts_at), tz) === day);
          return list.length === 0 ? null : (
            <section key={day} aria-labelledby={`day-${day}`}>
              <h2 id={`day-${day}`}>{weekday(day)}</h2>
              <table class="table" data-testid="timetable">
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Class</th>
                    <th scope="col">Seats</th>
                    <th scope="col">Waitlist</th>
                    <th scope="col">
                      <span class="sr-only">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((o) => (
                    <OccurrenceRow
                      key={o.id}
                      o={o}
                      tz={tz}
                      manage={rights.manage}
                      open={open === o.id}
                      onRoster={() => setOpen(open === o.id ? null : o.id)}
                      onCancelled={() => {
                        notify(`${o.name} cancelled: everyone booked is told`);
                        reload();
                      }}
                    />
                  ))}
                </tbody>
              </table>
            </section>
          );
        })}
      {open && (
        <ClassRoster
          key={open}
          occurrenceId={open}
          tz={tz}
          desk={rights.desk}
          onChanged={reload}
          onClose={() => setOpen(null)}
        />
      )}
      {rights.manage && (
        <div class="cards">
          <NewClass
            onCreated={(c) => {
              notify(`Class “${c.name}” created`);
              reload();
            }}
          />
          <NewOccurrence
            classes={classes}
            tz={tz}
            onCreated={() => {
              notify('Class scheduled');
              reload();
            }}
          />
        </div>
      )}
    </section>
  );
}

function OccurrenceRow(props: {
  o: Occurrence;
  tz: string;
  manage: boolean;
  open: boolean;
  onRoster: () => void;
  onCancelled: () => void;
}) {
  const { api, session } = useApp();
  const { o } = props;
  const [asking, setAsking] = useState(false);
  const cancel = useAction();
  async function confirmCancel() {
    const done = await cancel.run((key) =>
      api.POST('/api/v1/classes/occurrences/{occurrenceId}/cancel', {
        params: { path: { occurrenceId: o.id } },
        body: { store_id: session.storeId },
        headers: idem(key),
      }),
    );
    if (done) props.onCancelled();
  }
  return (
    <tr data-occurrence={o.id}>
      <td>
        {hhmm(o.starts_at, props.tz)}–{hhmm(o.ends_at, props.tz)}
      </td>
      <td>
        {o.name}
        {o.cancelled && (
          <>
            {' '}
            <span class="badge danger">Cancelled</span>
          </>
        )}
      </td>
      <td data-testid="seats">
        {o.booked} of {o.capacity} booked{o.offered > 0 ? `, ${o.offered} offered` : ''} · {o.seats_left} left
      </td>
      <td>{o.waitlisted} waiting</td>
      <td>
        <div class="actions">
          <button
            type="button"
            aria-expanded={props.open}
            aria-label={`Roster of ${o.name} at ${hhmm(o.starts_at, props.tz)}`}
            onClick={props.onRoster}
          >
            Roster
          </button>
          {props.manage && !o.cancelled && !asking && (
            <button type="button" onClick={() => setAsking(true)}>
              Cancel class
            </button>
          )}
          {asking && (
            <span role="group" aria-label={`Cancel ${o.name}?`}>
              <span>Cancel it and tell everyone booked? </span>
              <button type="button" class="danger" disabled={cancel.busy} onClick={() => void confirmCancel()}>
                Yes, cancel it
              </button>
              <button
                type="button"
                onClick={() => {
                  setAsking(false);
                  cancel.clear();
                }}
              >
                Keep it
              </button>
            </span>
          )}
        </div>
        {cancel.error && (
          <p class="error" role="alert">
            {cancel.error}
          </p>
        )}
      </td>
    </tr>
  );
}
