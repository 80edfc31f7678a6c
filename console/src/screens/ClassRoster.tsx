// One occurrence's roster (Classes.tsx): who holds a seat (booked, offered with until when, attended,
// no-show), the waitlist by position, then the rest; check-in, no-show, cancel and accepting an offer
// for the customer, and adding a guest at the desk. The server decides each (a no-show before the
// start is refused with its sentence).
import { useEffect, useState } from 'preact/hooks';
import type { Ok } from '../../../client/index.ts';
import { idem, useAction, useApp } from '../api.ts';
import { customerName, useCustomerNames } from '../customer-names.ts';
import { hhmm, localDate, weekday } from '../time.ts';

type Roster = Ok<'/api/v1/classes/occurrences/{occurrenceId}', 'get'>;
type Booking = Roster['bookings'][number];
type Act = 'check-in' | 'no-show' | 'cancel' | 'accept';

const STATUS: Record<string, string> = {
  confirmed: 'Booked',
  attended: 'Checked in',
  no_show: 'No-show',
  promotion_pending: 'Offered',
  waitlisted: 'Waiting',
  promotion_expired: 'Offer lapsed',
  cancelled: 'Cancelled',
};
const ACTS: Record<string, Array<[Act, string]>> = {
  confirmed: [
    ['check-in', 'Check in'],
    ['no-show', 'No-show'],
    ['cancel', 'Cancel'],
  ],
  promotion_pending: [
    ['accept', 'Accept offer'],
    ['cancel', 'Cancel'],
  ],
  waitlisted: [['cancel', 'Cancel']],
};

export function ClassRoster(props: {
  occurrenceId: string;
  tz: string;
  desk: boolean;
  onChanged: () => void;
  onClose: () => void;
}) {
  const { api, session, notify } = useApp();
  const [roster, setRoster] = useState<Roster | null>(null);
  const [error, setError] = useState<string | null>(null);
  const action = useAction();
  const add = useAction();
  const load = () =>
    void api
      .GET('/api/v1/classes/occurrences/{occurrenceId}', {
        params: { path: { occurrenceId: props.occurrenceId }, query: { store_id: session.storeId } },
      })
      .then(({ data, error: e }) =>
        data ? setRoster(data) : setError((e as any)?.error?.message ?? 'Could not load the roster'),
      );
  useEffect(load, [props.occurrenceId]);
  useCustomerNames(roster?.bookings.map((b) => b.customer_id) ?? []);
  useEffect(() => {
    if (roster) document.getElementById('roster-title')?.focus();
  }, [!!roster]);

  const who = (b: Booking) => customerName(b.customer_id) ?? b.guest_name ?? b.guest_email ?? 'Customer';
  async function act(b: Booking, what: Act, label: string) {
    const done = await action.run((key) =>
      api.POST(`/api/v1/classes/bookings/{bookingId}/${what}`, {
        params: { path: { bookingId: b.id } },
        body: { store_id: session.storeId },
        headers: idem(key),
      }),
    );
    if (done) {
      notify(`${who(b)}: ${label.toLowerCase()} done`);
      load();
      props.onChanged();
    }
  }
  async function addGuest(e: Event) {
    e.preventDefault();
    const form = e.currentTarget as HTMLFormElement;
    const f = new FormData(form);
    const done = await add.run((key) =>
      api.POST('/api/v1/classes/occurrences/{occurrenceId}/bookings', {
        params: { path: { occurrenceId: props.occurrenceId } },
        body: {
          store_id: session.storeId,
          guest_name: String(f.get('guest_name')).trim(),
          guest_email: String(f.get('guest_email')).trim(),
          source: 'staff',
        },
        headers: idem(key),
      }),
    );
    if (done) {
      form.reset();
      notify(
        done.booking.status === 'confirmed' ? 'Booked' : `On the waitlist, place ${done.booking.waitlist_position}`,
      );
      load();
      props.onChanged();
    }
  }

  if (error)
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  if (!roster) return <p aria-busy="true">Loading the roster…</p>;
  const o = roster.occurrence;
  return (
    <section class="card wide" aria-labelledby="roster-title" data-testid="roster">
      <div class="toolbar">
        <h2 id="roster-title" tabIndex={-1}>
          Roster: {o.name}, {weekday(localDate(Date.parse(o.starts_at), props.tz))} {hhmm(o.starts_at, props.tz)}
        </h2>
        <button type="button" onClick={props.onClose}>
          Close roster
        </button>
      </div>
      <p>
        {o.booked} of {o.capacity} booked{o.offered ? `, ${o.offered} offered` : ''}, {o.seats_left} left,{' '}
        {o.waitlisted} waiting.
      </p>
      {roster.bookings.length === 0 ? (
        <p class="empty">Nobody is booked yet.</p>
      ) : (
        <table class="table">
          <thead>
            <tr>
              <th scope="col">Who</th>
              <th scope="col">Status</th>
              <th scope="col">Place</th>
              <th scope="col">
                <span class="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {roster.bookings.map((b) => (
              <tr key={b.id} data-booking={b.id}>
                <td>{who(b)}</td>
                <td data-testid="roster-status">
                  {STATUS[b.status] ?? b.status}
                  {b.status === 'promotion_pending' && b.offer_expires_at
                    ? ` until ${hhmm(b.offer_expires_at, props.tz)}`
                    : ''}
                </td>
                <td>{b.status === 'waitlisted' ? `#${b.waitlist_position}` : ''}</td>
                <td>
                  <div class="actions">
                    {props.desk &&
                      !o.cancelled &&
                      (ACTS[b.status] ?? []).map(([what, label]) => (
                        <button
                          key={what}
                          type="button"
                          disabled={action.busy}
                          aria-label={`${label}: ${who(b)}`}
                          onClick={() => void act(b, what, label)}
                        >
                          {label}
                        </button>
                      ))}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {action.error && (
        <p class="error" role="alert">
          {action.error}
        </p>
      )}
      {props.desk && !o.cancelled && (
        <form class="inline-form" onSubmit={addGuest} aria-label="Add a guest">
          <label>
            Guest name
            <input name="guest_name" required maxLength={200} />
          </label>
          <label>
            Guest email
            <input name="guest_email" type="email" required />
          </label>
          <button type="submit" disabled={add.busy}>
            {o.seats_left > 0 ? 'Book' : 'Add to waitlist'}
          </button>
        </form>
      )}
      {add.error && (
        <p class="error" role="alert">
          {add.error}
        </p>
      )}
    </section>
  );
}
