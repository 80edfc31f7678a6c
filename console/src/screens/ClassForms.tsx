// The timetable's two forms (Classes.tsx): a new class (name, category, length, seats, instructor, how
// the waitlist moves) and one occurrence of a class at a store-local day and time. The server decides
// (an occurrence in the past, an instructor already busy: its sentence is shown, nothing changes).
import { useEffect, useState } from 'preact/hooks';
import type { Ok } from '../../../client/index.ts';
import { idem, useAction, useApp } from '../api.ts';
import { iso, localDate, zonedInstant } from '../time.ts';
import type { ClassRecord } from './Classes.tsx';

type Unit = Ok<'/api/v1/bookings/units', 'get'>['units'][number];

export function NewClass(props: { onCreated: (c: ClassRecord) => void }) {
  const { api, session } = useApp();
  const [units, setUnits] = useState<Unit[]>([]);
  const [mode, setMode] = useState<'auto' | 'offer'>('auto');
  const action = useAction();
  useEffect(() => {
    void api
      .GET('/api/v1/bookings/units', { params: { query: { store_id: session.storeId } } })
      .then(({ data }) => data && setUnits(data.units));
  }, []);
  async function submit(e: Event) {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    const text = (k: string) => String(f.get(k) ?? '').trim();
    const created = await action.run((key) =>
      api.POST('/api/v1/classes', {
        body: {
          store_id: session.storeId,
          name: text('name'),
          category: text('category') || null,
          duration_min: Number(text('duration_min')),
          capacity: Number(text('capacity')),
          instructor_unit_id: text('instructor_unit_id') || null,
          waitlist_mode: mode,
          ...(mode === 'offer' ? { offer_minutes: Number(text('offer_minutes')) } : {}),
        },
        headers: idem(key),
      }),
    );
    if (created) {
      form.reset();
      props.onCreated(created.class);
    }
  }
  return (
    <form class="card form" onSubmit={submit} aria-labelledby="new-class-title">
      <h2 id="new-class-title">New class</h2>
      <label>
        Name
        <input name="name" required maxLength={200} />
      </label>
      <label>
        Category (optional)
        <input name="category" maxLength={200} />
      </label>
      <div class="inline-form">
        <label>
          Minutes
          <input name="duration_min" type="number" min={1} max={1440} required defaultValue="60" />
        </label>
        <label>
          Seats
          <input name="capacity" type="number" min={1} max={1000} required defaultValue="10" />
        </label>
      </div>
      <label>
        Instructor
        <select name="instructor_unit_id">
          <option value="">None</option>
          {units.map((u) => (
            <option key={u.id} value={u.id}>
              {u.display_name}
            </option>
          ))}
        </select>
      </label>
      <fieldset>
        <legend>A freed seat goes to the first in line</legend>
        <label class="inline">
          <input type="radio" name="waitlist_mode" checked={mode === 'auto'} onChange={() => setMode('auto')} /> Booked
          at once
        </label>
        <label class="inline">
          <input type="radio" name="waitlist_mode" checked={mode === 'offer'} onChange={() => setMode('offer')} />{' '}
          Offered for
        </label>
        {mode === 'offer' && (
          <label class="inline">
            <input
              name="offer_minutes"
              type="number"
              min={1}
              max={1440}
              required
              defaultValue="60"
              aria-label="Offer minutes"
            />{' '}
            minutes
          </label>
        )}
      </fieldset>
      <button type="submit" disabled={action.busy}>
        Create class
      </button>
      {action.error && (
        <p class="error" role="alert">
          {action.error}
        </p>
      )}
    </form>
  );
}

export function NewOccurrence(props: { classes: ClassRecord[]; tz: string; onCreated: () => void }) {
  const { api, session } = useApp();
  const action = useAction();
  async function submit(e: Event) {
    e.preventDefault();
    const f = new FormData(e.currentTarget as HTMLFormElement);
    const [h, m] = String(f.get('time')).split(':').map(Number);
    const startsAt = iso(zonedInstant(String(f.get('date')), h, m, props.tz));
    const done = await action.run((key) =>
      api.POST('/api/v1/classes/{classId}/occurrences', {
        params: { path: { classId: String(f.get('class_id')) } },
        body: { store_id: session.storeId, starts_at: startsAt },
        headers: idem(key),
      }),
    );
    if (done) props.onCreated();
  }
  return (
    <form class="card form" onSubmit={submit} aria-labelledby="new-occurrence-title">
      <h2 id="new-occurrence-title">Schedule a class</h2>
      {props.classes.length === 0 ? (
        <p class="empty">Create a class first.</p>
      ) : (
        <>
          <label>
            Class
            <select name="class_id" required>
              {props.classes.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name} ({c.capacity} seats)
                </option>
              ))}
            </select>
          </label>
          <div class="inline-form">
            <label>
              Day
              <input type="date" name="date" required defaultValue={localDate(Date.now(), props.tz)} />
            </label>
            <label>
              Time ({props.tz})<input type="time" name="time" required defaultValue="18:00" />
            </label>
          </div>
          <button type="submit" disabled={action.busy}>
            Schedule
          </button>
        </>
      )}
      {action.error && (
        <p class="error" role="alert">
          {action.error}
        </p>
      )}
    </form>
  );
}
