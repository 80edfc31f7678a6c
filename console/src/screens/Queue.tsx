// The walk-in queue board: waiting and called entries with position, expected wait and suggested
// unit; join a walk-in, call, seat at a unit, remove as left or no-show. Live from the events stream.
import { useCallback, useEffect, useState } from 'preact/hooks';
import { useApp, useAction, idem } from '../api.ts';
import type { LiveHub } from '../live.ts';
import type { QueueEntry, QueueResponse, Service, Unit } from '../types.ts';
import { hhmm } from '../time.ts';
import { LiveBadge } from './LiveBadge.tsx';
import { customerName, useCustomerNames } from '../customer-names.ts';

export function Queue(props: { hub: LiveHub }) {
  const { api, session } = useApp();
  const [queue, setQueue] = useState<QueueResponse | null>(null);
  const [units, setUnits] = useState<Unit[]>([]);
  const [services, setServices] = useState<Service[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [tz, setTz] = useState(Intl.DateTimeFormat().resolvedOptions().timeZone);

  const load = useCallback(async () => {
    const { data, error } = await api.GET('/api/v1/bookings/queue', {
      params: { query: { store_id: session.storeId } },
    });
    if (error || !data) return setError((error as any)?.error?.message ?? 'Could not load the queue');
    setError(null);
    setQueue(data);
  }, [api, session.storeId]);

  useEffect(() => {
    void load();
    void api
      .GET('/api/v1/bookings/units', { params: { query: { store_id: session.storeId } } })
      .then(({ data }) => data && setUnits(data.units));
    void api
      .GET('/api/v1/bookings/services', { params: { query: { store_id: session.storeId } } })
      .then(({ data }) => data && setServices(data.services));
    // Times are shown on the store's clock, not the browser's.
    void api
      .GET('/api/v1/bookings/settings', { params: { query: { store_id: session.storeId } } })
      .then(({ data }) => data && setTz(data.settings.timezone));
  }, [load]);
  useEffect(() => props.hub.on(['queue.', 'appointment.'], () => void load()), [props.hub, load]);

  const unitName = (id: string | null) => units.find((u) => u.id === id)?.display_name ?? '—';
  const waiting = queue?.entries.filter((e) => e.status === 'waiting') ?? [];
  const called = queue?.entries.filter((e) => e.status === 'called') ?? [];
  useCustomerNames(queue?.entries.map((e) => e.customer_id) ?? []);

  return (
    <section class="queue" aria-labelledby="queue-title">
      <div class="toolbar">
        <h1 id="queue-title">Walk-in queue</h1>
        <span>{queue ? `${waiting.length} waiting · ${called.length} called` : ''}</span>
        <LiveBadge hub={props.hub} />
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <JoinForm units={units} services={services} onJoined={() => void load()} />
      <div class="lanes">
        <Lane
          title="Waiting"
          entries={waiting}
          units={units}
          unitName={unitName}
          tz={tz}
          onChanged={() => void load()}
        />
        <Lane title="Called" entries={called} units={units} unitName={unitName} tz={tz} onChanged={() => void load()} />
      </div>
    </section>
  );
}

function Lane(props: {
  title: string;
  entries: QueueEntry[];
  units: Unit[];
  unitName: (id: string | null) => string;
  tz: string;
  onChanged: () => void;
}) {
  const id = `lane-${props.title.toLowerCase()}`;
  return (
    <section class="lane" aria-labelledby={id} data-testid={id}>
      <h2 id={id}>
        {props.title} ({props.entries.length})
      </h2>
      {props.entries.length === 0 && <p class="empty">Nobody.</p>}
      <ol>
        {props.entries.map((e) => (
          <EntryCard
            key={e.entry_id}
            e={e}
            units={props.units}
            unitName={props.unitName}
            tz={props.tz}
            onChanged={props.onChanged}
          />
        ))}
      </ol>
    </section>
  );
}

function EntryCard(props: {
  e: QueueEntry;
  units: Unit[];
  unitName: (id: string | null) => string;
  tz: string;
  onChanged: () => void;
}) {
  const { api, session, notify } = useApp();
  const { e } = props;
  const [unitId, setUnitId] = useState(e.suggested_unit_id ?? e.preferred_unit_id ?? props.units[0]?.id ?? '');
  const act = useAction();
  const body = { store_id: session.storeId, entry_id: e.entry_id };
  const name = e.guest_name ?? customerName(e.customer_id) ?? (e.customer_id ? 'Customer' : 'Walk-in');
  useEffect(() => {
    if (!unitId && props.units[0]) setUnitId(e.suggested_unit_id ?? props.units[0].id);
  }, [props.units]);

  async function call() {
    const r = await act.run((key) => api.POST('/api/v1/bookings/queue/call', { body, headers: idem(key) }));
    if (r) {
      notify(`Called ${name}`);
      props.onChanged();
    }
  }
  async function seat(ev: Event) {
    ev.preventDefault();
    const r = await act.run((key) =>
      api.POST('/api/v1/bookings/queue/assign', { body: { ...body, unit_id: unitId }, headers: idem(key) }),
    );
    if (r) {
      notify(`Seated ${name} at ${props.unitName(unitId)}`);
      props.onChanged();
    }
  }
  async function remove(status: 'left' | 'no_show') {
    const r = await act.run((key) =>
      api.POST('/api/v1/bookings/queue/remove', { body: { ...body, status }, headers: idem(key) }),
    );
    if (r) {
      notify(`${name}: ${status === 'left' ? 'left' : 'no-show'}`);
      props.onChanged();
    }
  }

  return (
    <li class="entry" data-testid="queue-entry" data-entry-id={e.entry_id}>
      <div class="entry-head">
        {e.queue_position != null && (
          <span class="pos">
            <span class="sr-only">Position </span>
            {e.queue_position}
          </span>
        )}
        <strong>{name}</strong>
        {e.party_size > 1 && <span> · party of {e.party_size}</span>}
      </div>
      <div class="entry-meta">
        {e.status === 'waiting' ? (
          <>
            Expected wait {e.expected_wait_min ?? '—'} min
            {e.expected_start ? ` (about ${hhmm(e.expected_start, props.tz)})` : ''} · suggested{' '}
            {props.unitName(e.suggested_unit_id)}
          </>
        ) : (
          <>Called {e.called_at ? hhmm(e.called_at, props.tz) : ''}</>
        )}
        {e.preferred_unit_id && <> · asked for {props.unitName(e.preferred_unit_id)}</>}
      </div>
      {act.error && (
        <p class="error" role="alert">
          {act.error}
        </p>
      )}
      <div class="actions">
        {e.status === 'waiting' && (
          <button type="button" disabled={act.busy} onClick={() => void call()}>
            Call
          </button>
        )}
        <form class="inline-form" onSubmit={seat}>
          <label>
            Seat at
            <select value={unitId} onChange={(ev) => setUnitId(ev.currentTarget.value)}>
              {props.units.map((u) => (
                <option key={u.id} value={u.id}>
                  {u.display_name}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={act.busy}>
            Seat
          </button>
        </form>
        <button type="button" disabled={act.busy} onClick={() => void remove('left')}>
          Left
        </button>
        <button type="button" disabled={act.busy} onClick={() => void remove('no_show')}>
          No-show
        </button>
      </div>
    </li>
  );
}

function JoinForm(props: { units: Unit[]; services: Service[]; onJoined: () => void }) {
  const { api, session, notify } = useApp();
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [serviceId, setServiceId] = useState('');
  const [unitId, setUnitId] = useState('');
  const [party, setParty] = useState(1);
  const join = useAction();

  async function submit(e: Event) {
    e.preventDefault();
    const r = await join.run((key) =>
      api.POST('/api/v1/bookings/queue/join', {
        body: {
          store_id: session.storeId,
          guest_name: name.trim() || null,
          guest_phone: phone.trim() || null,
          service_id: serviceId || null,
          preferred_unit_id: unitId || null,
          party_size: party,
        },
        headers: idem(key),
      }),
    );
    if (r) {
      notify(`${name || 'Walk-in'} joined the queue`);
      setName('');
      setPhone('');
      setServiceId('');
      setUnitId('');
      setParty(1);
      props.onJoined();
    }
  }

  return (
    <form class="form join" onSubmit={submit} aria-label="Join a walk-in">
      <h2>Join a walk-in</h2>
      <div class="row">
        <label>
          Name
          <input value={name} onInput={(e) => setName(e.currentTarget.value)} required name="walkin-name" />
        </label>
        <label>
          Phone
          <input type="tel" value={phone} onInput={(e) => setPhone(e.currentTarget.value)} name="walkin-phone" />
        </label>
        <label>
          Service
          <select value={serviceId} onChange={(e) => setServiceId(e.currentTarget.value)}>
            <option value="">(any)</option>
            {props.services.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Preferred unit
          <select value={unitId} onChange={(e) => setUnitId(e.currentTarget.value)}>
            <option value="">(no preference)</option>
            {props.units.map((u) => (
              <option key={u.id} value={u.id}>
                {u.display_name}
              </option>
            ))}
          </select>
        </label>
        <label>
          Party
          <input
            type="number"
            min={1}
            max={50}
            value={party}
            onInput={(e) => setParty(Number(e.currentTarget.value))}
          />
        </label>
        <button type="submit" disabled={join.busy}>
          Join
        </button>
      </div>
      {join.error && (
        <p class="error" role="alert">
          {join.error}
        </p>
      )}
    </form>
  );
}
