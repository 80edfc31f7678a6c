// The catalogue: services with their variants and add-ons (archive and restore, never delete),
// service periods, and each unit's working hours.
import { useEffect, useState } from 'preact/hooks';
import { useApp, useAction, idem } from '../api.ts';
import type { Service, ServicePeriod, Unit } from '../types.ts';
import { money } from '../time.ts';
import { UnitHours } from './UnitHours.tsx';
import { ServiceOptions, type ServicePatch } from './ServiceOptions.tsx';

export function Catalogue() {
  const { api, session } = useApp();
  const [services, setServices] = useState<Service[]>([]);
  const [periods, setPeriods] = useState<ServicePeriod[]>([]);
  const [units, setUnits] = useState<Unit[]>([]);
  const [tick, setTick] = useState(0);
  const refresh = () => setTick((t) => t + 1);
  useEffect(() => {
    const query = { store_id: session.storeId, include_archived: true };
    void api
      .GET('/api/v1/bookings/services', { params: { query } })
      .then(({ data }) => data && setServices(data.services));
    void api
      .GET('/api/v1/bookings/service-periods', { params: { query } })
      .then(({ data }) => data && setPeriods(data.periods));
    void api
      .GET('/api/v1/bookings/units', { params: { query: { store_id: session.storeId } } })
      .then(({ data }) => data && setUnits(data.units));
  }, [tick]);

  return (
    <section aria-labelledby="cat-title">
      <div class="toolbar">
        <h1 id="cat-title">Catalogue</h1>
      </div>
      <div class="cards">
        <div class="card wide" role="region" aria-labelledby="svc-title">
          <h2 id="svc-title">Services</h2>
          <ul class="list">
            {services.map((s) => (
              <ServiceRow key={s.id} s={s} onChanged={refresh} />
            ))}
          </ul>
          <NewService onCreated={refresh} />
        </div>
        <div class="card" role="region" aria-labelledby="per-title">
          <h2 id="per-title">Service periods</h2>
          <ul class="list">
            {periods.map((p) => (
              <PeriodRow key={p.id} p={p} onChanged={refresh} />
            ))}
          </ul>
          <NewPeriod onCreated={refresh} />
        </div>
        <UnitHours units={units} />
      </div>
    </section>
  );
}

function ServiceRow(props: { s: Service; onChanged: () => void }) {
  const { api, session, notify } = useApp();
  const { s } = props;
  const act = useAction();
  async function patch(body: ServicePatch, done: string) {
    const r = await act.run((key) =>
      api.PATCH('/api/v1/bookings/services/{serviceId}', {
        params: { path: { serviceId: s.id } },
        body: { store_id: session.storeId, ...body },
        headers: idem(key),
      }),
    );
    if (r) {
      notify(done);
      props.onChanged();
      return true;
    }
    return false;
  }
  return (
    <li class={s.is_active ? '' : 'archived'}>
      <div class="row-head">
        <strong>{s.name}</strong> · {s.duration_min} min · {money(s.price_pence, s.currency)}
        {s.is_active ? '' : ' · archived'}
        <button
          type="button"
          disabled={act.busy}
          onClick={() =>
            void patch({ is_active: !s.is_active }, s.is_active ? `${s.name} archived` : `${s.name} restored`)
          }
        >
          {s.is_active ? 'Archive' : 'Restore'}
        </button>
      </div>
      <ServiceOptions
        kind="variants"
        label="Variants"
        newLabel="New variant"
        added="Variant added"
        items={s.variants.map((v) => ({ ...v, detail: v.duration_min ? ` ${v.duration_min} min` : '' }))}
        busy={act.busy}
        patch={patch}
      />
      <ServiceOptions
        kind="addons"
        label="Add-ons"
        newLabel="New add-on"
        added="Add-on added"
        items={s.addons.map((a) => ({ ...a, detail: ` +${a.extra_min} min` }))}
        busy={act.busy}
        patch={patch}
      />
      {act.error && (
        <p class="error" role="alert">
          {act.error}
        </p>
      )}
    </li>
  );
}

function NewService(props: { onCreated: () => void }) {
  const { api, session, notify } = useApp();
  const [name, setName] = useState('');
  const [duration, setDuration] = useState(30);
  const [price, setPrice] = useState('0.00');
  const act = useAction();
  async function submit(e: Event) {
    e.preventDefault();
    const r = await act.run((key) =>
      api.POST('/api/v1/bookings/services', {
        body: {
          store_id: session.storeId,
          name: name.trim(),
          duration_min: duration,
          price_pence: Math.round(Number(price) * 100),
        },
        headers: idem(key),
      }),
    );
    if (r) {
      notify(`${r.service.name} added`);
      setName('');
      props.onCreated();
    }
  }
  return (
    <form class="form" onSubmit={submit} aria-label="New service">
      <h3>New service</h3>
      <div class="row">
        <label>
          Name
          <input value={name} onInput={(e) => setName(e.currentTarget.value)} required />
        </label>
        <label>
          Minutes
          <input
            type="number"
            min={1}
            value={duration}
            onInput={(e) => setDuration(Number(e.currentTarget.value))}
            required
          />
        </label>
        <label>
          Price (£)
          <input
            inputMode="decimal"
            value={price}
            onInput={(e) => setPrice(e.currentTarget.value)}
            pattern="\d+(\.\d{1,2})?"
          />
        </label>
        <button type="submit" disabled={act.busy}>
          Add service
        </button>
      </div>
      {act.error && (
        <p class="error" role="alert">
          {act.error}
        </p>
      )}
    </form>
  );
}

const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'] as const;

function PeriodRow(props: { p: ServicePeriod; onChanged: () => void }) {
  const { api, session, notify } = useApp();
  const { p } = props;
  const act = useAction();
  const week = p.week as Record<string, { open: string; close: string } | undefined>;
  async function toggle() {
    const r = await act.run((key) =>
      api.PATCH('/api/v1/bookings/service-periods/{periodId}', {
        params: { path: { periodId: p.id } },
        body: { store_id: session.storeId, is_active: !p.is_active },
        headers: idem(key),
      }),
    );
    if (r) {
      notify(`${p.name} ${p.is_active ? 'disabled' : 'enabled'}`);
      props.onChanged();
    }
  }
  return (
    <li class={p.is_active ? '' : 'archived'}>
      <strong>{p.name}</strong>
      {p.is_active ? '' : ' (disabled)'}
      <div class="sub">
        {DAYS.filter((d) => week[d])
          .map((d) => `${d.slice(0, 3)} ${week[d]!.open}–${week[d]!.close}`)
          .join(', ') || 'closed every day'}
      </div>
      <button type="button" disabled={act.busy} onClick={() => void toggle()}>
        {p.is_active ? 'Disable' : 'Enable'}
      </button>
      {act.error && (
        <p class="error" role="alert">
          {act.error}
        </p>
      )}
    </li>
  );
}

function NewPeriod(props: { onCreated: () => void }) {
  const { api, session, notify } = useApp();
  const [name, setName] = useState('');
  const [open, setOpen] = useState('12:00');
  const [close, setClose] = useState('15:00');
  const [days, setDays] = useState<string[]>(['monday', 'tuesday', 'wednesday', 'thursday', 'friday']);
  const act = useAction();
  async function submit(e: Event) {
    e.preventDefault();
    const week = Object.fromEntries(days.map((d) => [d, { open, close }]));
    const r = await act.run((key) =>
      api.POST('/api/v1/bookings/service-periods', {
        body: { store_id: session.storeId, name: name.trim(), week },
        headers: idem(key),
      }),
    );
    if (r) {
      notify(`${r.period.name} added`);
      setName('');
      props.onCreated();
    }
  }
  return (
    <form class="form" onSubmit={submit} aria-label="New service period">
      <h3>New period</h3>
      <label>
        Name
        <input value={name} onInput={(e) => setName(e.currentTarget.value)} required />
      </label>
      <div class="row">
        <label>
          Opens
          <input type="time" value={open} onInput={(e) => setOpen(e.currentTarget.value)} required />
        </label>
        <label>
          Closes
          <input type="time" value={close} onInput={(e) => setClose(e.currentTarget.value)} required />
        </label>
      </div>
      <fieldset>
        <legend>Days</legend>
        {DAYS.map((d) => (
          <label class="inline" key={d}>
            <input
              type="checkbox"
              checked={days.includes(d)}
              onChange={(e) => setDays(e.currentTarget.checked ? [...days, d] : days.filter((x) => x !== d))}
            />{' '}
            {d.slice(0, 3)}
          </label>
        ))}
      </fieldset>
      {act.error && (
        <p class="error" role="alert">
          {act.error}
        </p>
      )}
      <button type="submit" disabled={act.busy}>
        Add period
      </button>
    </form>
  );
}
