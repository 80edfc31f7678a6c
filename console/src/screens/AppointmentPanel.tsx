// One appointment: its details and the front-desk actions. Each button is one action with its own
// Idempotency-Key; settle shows the recorded outcome and needs the can_process_payments permission.
import { useEffect, useState } from 'preact/hooks';
import { useApp, useAction, idem } from '../api.ts';
import type { DiaryAppointment, Unit } from '../types.ts';
import type { Ok } from '../../../client/index.ts';
import { hhmm, iso, localDate, money, zonedInstant } from '../time.ts';
import { Dialog } from './Dialog.tsx';
import { customerName } from '../customer-names.ts';

type Settled = Ok<'/api/v1/bookings/appointments/settle', 'post'>;
type StatusPath =
  | '/api/v1/bookings/appointments/check-in'
  | '/api/v1/bookings/appointments/complete'
  | '/api/v1/bookings/appointments/no-show';

export function AppointmentPanel(props: {
  a: DiaryAppointment;
  unitId: string;
  units: Unit[];
  tz: string;
  service?: string;
  onClose: () => void;
  onChanged: () => void;
  onMove: (target: { unitId: string; starts_at: string; ends_at: string }) => void;
}) {
  const { api, session, notify } = useApp();
  const { a, tz } = props;
  const action = useAction();
  const [reason, setReason] = useState('');
  const [method, setMethod] = useState<'cash' | 'card_machine'>('cash');
  const [settled, setSettled] = useState<Settled | null>(null);
  const [moveUnit, setMoveUnit] = useState(props.unitId);
  const [moveStart, setMoveStart] = useState(hhmm(a.starts_at, tz));
  const canSettle = session.permissions.includes('can_process_payments');
  // The guest's note is on the one-appointment read, not in the diary's list (the spec closes its fields).
  // So is who booked it (booked_by, beside the appointment: issue 43).
  const [note, setNote] = useState<string | null>(null);
  const [bookedBy, setBookedBy] = useState<string | null>(null);
  useEffect(() => {
    void api
      .GET('/api/v1/bookings/appointments/{appointmentId}', {
        params: { path: { appointmentId: a.id }, query: { store_id: session.storeId } },
      })
      .then(({ data }) => {
        setNote(data?.appointment.guest_note ?? null);
        setBookedBy(bookedByText(data?.booked_by ?? null));
      });
  }, [a.id]);
  const body = { store_id: session.storeId, appointment_id: a.id };

  async function status(path: StatusPath, done: string) {
    const r = await action.run((key) => api.POST(path, { body, headers: idem(key) }));
    if (r) {
      notify(r.noop ? `Already ${r.status.replace('_', ' ')}` : done);
      props.onChanged();
    }
  }

  async function cancel(e: Event) {
    e.preventDefault();
    const r = await action.run((key) =>
      api.POST('/api/v1/bookings/appointments/cancel', {
        body: { ...body, ...(reason.trim() ? { reason: reason.trim() } : {}) },
        headers: idem(key),
      }),
    );
    if (r) {
      notify(r.noop ? 'It was already cancelled' : 'Cancelled');
      props.onChanged();
      props.onClose();
    }
  }

  async function settle(e: Event) {
    e.preventDefault();
    const r = await action.run((key) =>
      api.POST('/api/v1/bookings/appointments/settle', { body: { ...body, method }, headers: idem(key) }),
    );
    if (r) {
      setSettled(r);
      props.onChanged();
    }
  }

  function move(e: Event) {
    e.preventDefault();
    const [h, m] = moveStart.split(':').map(Number);
    const starts = zonedInstant(localDate(Date.parse(a.starts_at), tz), h, m, tz);
    const length = Date.parse(a.ends_at) - Date.parse(a.starts_at);
    props.onMove({ unitId: moveUnit, starts_at: iso(starts), ends_at: iso(starts + length) });
  }

  const who = a.guest_name ?? customerName(a.customer_id) ?? (a.customer_id ? 'Account customer' : 'Guest');
  return (
    <Dialog title={`${hhmm(a.starts_at, tz)}–${hhmm(a.ends_at, tz)} ${who}`} onClose={props.onClose}>
      <dl class="facts">
        <dt>Status</dt>
        <dd data-testid="appt-status">{a.status.replace('_', ' ')}</dd>
        <dt>Service</dt>
        <dd>{props.service ?? '—'}</dd>
        <dt>Price</dt>
        <dd>
          {money(a.price_pence, a.currency)} (balance {money(a.balance_pence, a.currency)})
        </dd>
        <dt>Payment</dt>
        <dd>{a.payment_status.replace('_', ' ')}</dd>
        {a.guest_email && (
          <>
            <dt>Email</dt>
            <dd>{a.guest_email}</dd>
          </>
        )}
        {a.guest_phone && (
          <>
            <dt>Phone</dt>
            <dd>{a.guest_phone}</dd>
          </>
        )}
        {bookedBy && (
          <>
            <dt>Booked by</dt>
            <dd data-testid="appt-booked-by">{bookedBy}</dd>
          </>
        )}
        {note && (
          <>
            <dt>Guest's note</dt>
            <dd data-testid="appt-guest-note">{note}</dd>
          </>
        )}
      </dl>
      {action.error && (
        <p class="error" role="alert">
          {action.error}
        </p>
      )}
      <div class="actions">
        <button
          type="button"
          disabled={action.busy}
          onClick={() => void status('/api/v1/bookings/appointments/check-in', 'Checked in')}
        >
          Check in
        </button>
        <button
          type="button"
          disabled={action.busy}
          onClick={() => void status('/api/v1/bookings/appointments/complete', 'Completed')}
        >
          Complete
        </button>
        <button
          type="button"
          disabled={action.busy}
          onClick={() => void status('/api/v1/bookings/appointments/no-show', 'Marked no-show')}
        >
          No-show
        </button>
      </div>
      {canSettle && (
        <form class="form inline-form" onSubmit={settle}>
          <label>
            Settle by
            <select value={method} onChange={(e) => setMethod(e.currentTarget.value as 'cash' | 'card_machine')}>
              <option value="cash">Cash</option>
              <option value="card_machine">Card machine</option>
            </select>
          </label>
          <button type="submit" disabled={action.busy}>
            Settle
          </button>
        </form>
      )}
      {settled && (
        <p class="outcome" role="status" data-testid="settle-outcome">
          {settled.outcome === 'settled' &&
            `Settled: ${money(settled.collected_pence, settled.currency)} recorded by ${settled.method === 'cash' ? 'cash' : 'card machine'}. Status ${settled.status}.`}
          {settled.outcome === 'already_settled' &&
            `Already settled${settled.settled_by_name ? ` by ${settled.settled_by_name}` : ''}: ${money(settled.settled_total_pence, settled.currency)}.`}
          {settled.outcome === 'nothing_owed' && 'Nothing is owed on this appointment.'}
          {settled.outstanding_pence > 0 && ` Still owed ${money(settled.outstanding_pence, settled.currency)}.`}
        </p>
      )}
      <form class="form inline-form" onSubmit={move}>
        <label>
          Move to unit
          <select value={moveUnit} onChange={(e) => setMoveUnit(e.currentTarget.value)}>
            {props.units.map((u) => (
              <option key={u.id} value={u.id}>
                {u.display_name}
              </option>
            ))}
          </select>
        </label>
        <label>
          at
          <input
            type="time"
            step={300}
            value={moveStart}
            onInput={(e) => setMoveStart(e.currentTarget.value)}
            required
          />
        </label>
        <button type="submit">Move</button>
      </form>
      <form class="form inline-form" onSubmit={cancel}>
        <label>
          Cancel reason
          <input value={reason} onInput={(e) => setReason(e.currentTarget.value)} maxLength={500} name="reason" />
        </label>
        <button type="submit" class="danger" disabled={action.busy}>
          Cancel appointment
        </button>
      </form>
    </Dialog>
  );
}

/** "Sam", "API key Website", "the customer online": who booked, as the panel's "Booked by" row says it. */
function bookedByText(by: { type: string; name: string | null } | null): string | null {
  if (!by) return null;
  if (by.name) return by.name;
  if (by.type === 'customer') return 'the customer online';
  if (by.type === 'admin') return 'the operator';
  return 'a merchant token';
}
