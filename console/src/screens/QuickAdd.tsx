// Quick-add: book the clicked time. Service, an existing customer (searched) or a guest, and the
// times. What was typed stays when the server refuses; the refusal's message is shown as sent.
import { useEffect, useRef, useState } from 'preact/hooks';
import { useApp, useAction, idem } from '../api.ts';
import type { SearchRow, Service, Unit } from '../types.ts';
import type { Ok } from '../../../client/index.ts';

type Offered = Ok<'/api/v1/bookings/availability', 'get'>['days'][number]['slots'];
import { hhmm, iso, zonedInstant } from '../time.ts';
import { Dialog } from './Dialog.tsx';

export interface Slot {
  unitId: string;
  startsAt: number;
  date: string;
  timezone: string;
}

export function QuickAdd(props: {
  slot: Slot;
  services: Service[];
  units: Unit[];
  onClose: () => void;
  onBooked: () => void;
}) {
  const { api, session, notify } = useApp();
  const { slot } = props;
  const [unitId, setUnitId] = useState(slot.unitId);
  const [serviceId, setServiceId] = useState('');
  const [start, setStart] = useState(hhmm(slot.startsAt, slot.timezone));
  const [duration, setDuration] = useState(30);
  const [who, setWho] = useState<'customer' | 'guest'>('guest');
  const [term, setTerm] = useState('');
  const [results, setResults] = useState<SearchRow[]>([]);
  const [customerId, setCustomerId] = useState('');
  const [guestName, setGuestName] = useState('');
  const [guestEmail, setGuestEmail] = useState('');
  const [guestPhone, setGuestPhone] = useState('');
  const book = useAction();
  const searchSeq = useRef(0);
  const [offered, setOffered] = useState<Offered | null>(null);

  // The times availability offers for this service at this unit on the day (the merchant may still
  // type another time: a phone booking need not follow the online rules).
  useEffect(() => {
    if (!serviceId) return setOffered(null);
    let live = true;
    void api
      .GET('/api/v1/bookings/availability', {
        params: {
          query: {
            store_id: session.storeId,
            service_id: serviceId,
            unit_id: unitId,
            from_date: slot.date,
            to_date: slot.date,
          },
        },
      })
      .then(
        ({ data }) =>
          live &&
          setOffered(
            data?.days.find((d) => d.date === slot.date)?.slots.filter((x) => x.unit_ids.includes(unitId)) ?? [],
          ),
      );
    return () => {
      live = false;
    };
  }, [serviceId, unitId]);

  useEffect(() => {
    const s = props.services.find((x) => x.id === serviceId);
    if (s) setDuration(s.duration_min);
  }, [serviceId]);

  useEffect(() => {
    if (who !== 'customer') return;
    const seq = ++searchSeq.current;
    const t = setTimeout(async () => {
      const { data } = await api.GET('/api/v1/customers/search', {
        params: { query: { store_id: session.storeId, ...(term.trim().length >= 2 ? { q: term.trim() } : {}) } },
      });
      if (data && seq === searchSeq.current) setResults(data.customers);
    }, 200);
    return () => clearTimeout(t);
  }, [term, who]);

  async function submit(e: Event) {
    e.preventDefault();
    const [h, m] = start.split(':').map(Number);
    const startsAt = zonedInstant(slot.date, h, m, slot.timezone);
    const endsAt = startsAt + duration * 60_000;
    const made = await book.run((key) =>
      api.POST('/api/v1/bookings/appointments', {
        body: {
          store_id: session.storeId,
          unit_id: unitId,
          service_id: serviceId || null,
          starts_at: iso(startsAt),
          ends_at: iso(endsAt),
          ...(who === 'customer'
            ? { customer_id: customerId || null }
            : {
                guest_name: guestName.trim() || null,
                guest_email: guestEmail.trim() || null,
                guest_phone: guestPhone.trim() || null,
              }),
        },
        headers: idem(key),
      }),
    );
    if (made) {
      notify(made.reused ? 'Already booked (the same request was replayed)' : `Booked ${start}`);
      props.onBooked();
    }
  }

  return (
    <Dialog title={`Book ${slot.date} at ${hhmm(slot.startsAt, slot.timezone)}`} onClose={props.onClose}>
      <form class="form" onSubmit={submit}>
        <label>
          Unit
          <select value={unitId} onChange={(e) => setUnitId(e.currentTarget.value)}>
            {props.units.map((u) => (
              <option key={u.id} value={u.id}>
                {u.display_name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Service
          <select value={serviceId} onChange={(e) => setServiceId(e.currentTarget.value)} name="service">
            <option value="">(no service)</option>
            {props.services.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name} ({s.duration_min} min)
              </option>
            ))}
          </select>
        </label>
        {offered &&
          (offered.length ? (
            <label>
              Offered times
              <select
                value={offered.some((o) => o.local_time === start) ? start : ''}
                onChange={(e) => e.currentTarget.value && setStart(e.currentTarget.value)}
                name="offered"
              >
                <option value="">(choose, or type a time below)</option>
                {offered.map((o) => (
                  <option key={o.starts_at} value={o.local_time}>
                    {o.local_time}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            <p class="notice" data-testid="no-offered">
              No free times for this service at this unit on this day.
            </p>
          ))}
        <div class="row">
          <label>
            Starts (store time)
            <input
              type="time"
              step={300}
              value={start}
              onInput={(e) => setStart(e.currentTarget.value)}
              required
              name="start"
            />
          </label>
          <label>
            Minutes
            <input
              type="number"
              min={5}
              max={720}
              step={5}
              value={duration}
              onInput={(e) => setDuration(Number(e.currentTarget.value))}
              required
              name="duration"
            />
          </label>
        </div>
        <fieldset>
          <legend>Who</legend>
          <label class="inline">
            <input type="radio" name="who" checked={who === 'guest'} onChange={() => setWho('guest')} /> Guest
          </label>
          <label class="inline">
            <input type="radio" name="who" checked={who === 'customer'} onChange={() => setWho('customer')} /> Existing
            customer
          </label>
        </fieldset>
        {who === 'customer' ? (
          <>
            <label>
              Search customers
              <input
                type="search"
                value={term}
                onInput={(e) => setTerm(e.currentTarget.value)}
                placeholder="Name, phone or email"
                name="customer-search"
              />
            </label>
            <label>
              Customer
              <select
                value={customerId}
                onChange={(e) => setCustomerId(e.currentTarget.value)}
                required
                name="customer"
              >
                <option value="">(choose)</option>
                {results.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name ?? c.email ?? c.phone ?? c.id}
                  </option>
                ))}
              </select>
            </label>
          </>
        ) : (
          <>
            <label>
              Guest name
              <input value={guestName} onInput={(e) => setGuestName(e.currentTarget.value)} name="guest-name" />
            </label>
            <label>
              Guest email
              <input
                type="email"
                value={guestEmail}
                onInput={(e) => setGuestEmail(e.currentTarget.value)}
                name="guest-email"
              />
            </label>
            <label>
              Guest phone
              <input
                type="tel"
                value={guestPhone}
                onInput={(e) => setGuestPhone(e.currentTarget.value)}
                name="guest-phone"
              />
            </label>
          </>
        )}
        {book.error && (
          <p class="error" role="alert">
            {book.error}
          </p>
        )}
        <div class="actions">
          <button type="submit" disabled={book.busy}>
            {book.busy ? 'Booking…' : 'Book'}
          </button>
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
