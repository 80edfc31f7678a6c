// One customer as this store sees them: edit (UK mobile rules come back as the server's message),
// block, mute channels, private note, archive, class attendance and the journey timeline.
import { useEffect, useState } from 'preact/hooks';
import { useApp, useAction, idem } from '../api.ts';
import type { Ok } from '../../../client/index.ts';

type Page = Ok<'/api/v1/customers/{customerId}', 'get'>;
type Attendance = Ok<'/api/v1/customers/{customerId}/attendance', 'get'>;
type Journey = Ok<'/api/v1/customers/{customerId}/journey', 'get'>;
type Channel = Page['block']['blocked_channels'][number];
const CHANNELS: Array<[Channel, string]> = [
  ['email', 'Email'],
  ['sms', 'SMS'],
  ['drops_chat', 'Chat'],
  ['app_message', 'App message'],
];

export function CustomerPage(props: { id: string }) {
  const { api, session } = useApp();
  const [page, setPage] = useState<Page | null>(null);
  const [error, setError] = useState<string | null>(null);
  const path = { customerId: props.id };

  useEffect(() => {
    void api
      .GET('/api/v1/customers/{customerId}', { params: { path, query: { store_id: session.storeId } } })
      .then(({ data, error }) => {
        if (error || !data) return setError((error as any)?.error?.message ?? 'Could not load the customer');
        setPage(data);
      });
  }, [props.id]);

  if (error)
    return (
      <section>
        <h1>Customer</h1>
        <p class="error" role="alert">
          {error}
        </p>
        <a href="#/customers">Back to customers</a>
      </section>
    );
  if (!page)
    return (
      <section>
        <h1>Customer</h1>
        <p>Loading…</p>
      </section>
    );
  return (
    <section class="customer" aria-labelledby="customer-title">
      <div class="toolbar">
        <a href="#/customers">← Customers</a>
        <h1 id="customer-title">{page.customer.name ?? page.customer.email ?? 'Customer'}</h1>
        {page.block.blocked && <span class="badge danger">Blocked</span>}
        {page.block.archived && <span class="badge">Archived</span>}
      </div>
      <div class="cards">
        <EditCard page={page} onSaved={(customer) => setPage({ ...page, customer })} />
        <BlockCard page={page} onSaved={(block) => setPage({ ...page, block })} />
        <AttendanceCard id={props.id} />
        <JourneyCard id={props.id} />
      </div>
    </section>
  );
}

function EditCard(props: { page: Page; onSaved: (c: Page['customer']) => void }) {
  const { api, session, notify } = useApp();
  const c = props.page.customer;
  const [name, setName] = useState(c.name ?? '');
  const [phone, setPhone] = useState(c.phone ?? '');
  const [email, setEmail] = useState(c.email ?? '');
  const [note, setNote] = useState(c.merchant_note ?? '');
  const save = useAction();

  async function submit(e: Event) {
    e.preventDefault();
    const r = await save.run((key) =>
      api.PATCH('/api/v1/customers/{customerId}', {
        params: { path: { customerId: c.id } },
        body: { store_id: session.storeId, name, phone, email, merchant_note: note },
        headers: idem(key),
      }),
    );
    if (r) {
      notify(r.changed_fields.length ? `Saved: ${r.changed_fields.join(', ')}` : 'Nothing changed');
      props.onSaved(r.customer);
      setPhone(r.customer.phone ?? '');
      setEmail(r.customer.email ?? '');
    }
  }

  return (
    <form class="card form" onSubmit={submit} aria-labelledby="edit-title">
      <h2 id="edit-title">Details</h2>
      <label>
        Name
        <input value={name} maxLength={80} onInput={(e) => setName(e.currentTarget.value)} name="name" />
      </label>
      <label>
        Mobile (UK)
        <input
          type="tel"
          value={phone}
          onInput={(e) => setPhone(e.currentTarget.value)}
          name="phone"
          aria-describedby="phone-hint"
        />
      </label>
      <small id="phone-hint">Any UK mobile spelling, e.g. 07812 345678; saved as +44…</small>
      <label>
        Email
        <input type="email" value={email} onInput={(e) => setEmail(e.currentTarget.value)} name="email" />
      </label>
      <label>
        Private note
        <textarea
          rows={3}
          maxLength={2000}
          value={note}
          onInput={(e) => setNote(e.currentTarget.value)}
          name="merchant_note"
        />
      </label>
      {save.error && (
        <p class="error" role="alert" data-testid="edit-error">
          {save.error}
        </p>
      )}
      <button type="submit" disabled={save.busy}>
        Save
      </button>
    </form>
  );
}

function BlockCard(props: { page: Page; onSaved: (b: Page['block']) => void }) {
  const { api, session, notify } = useApp();
  const b = props.page.block;
  const [reason, setReason] = useState(b.block_reason ?? '');
  const act = useAction();

  async function change(
    body: { blocked?: boolean; blocked_channels?: Channel[]; block_reason?: string; archived?: boolean },
    done: string,
  ) {
    const r = await act.run((key) =>
      api.PATCH('/api/v1/customers/{customerId}/block', {
        params: { path: { customerId: b.customer_id } },
        body: { store_id: session.storeId, ...body },
        headers: idem(key),
      }),
    );
    if (r) {
      notify(done);
      props.onSaved(r.customer);
    }
  }

  return (
    <div class="card" role="region" aria-labelledby="block-title">
      <h2 id="block-title">Block, mute and archive</h2>
      <form
        class="form"
        onSubmit={(e) => {
          e.preventDefault();
          void change(
            { blocked: !b.blocked, ...(b.blocked || !reason.trim() ? {} : { block_reason: reason.trim() }) },
            b.blocked ? 'Block lifted' : 'Blocked',
          );
        }}
      >
        <label>
          Block note (never sent to the customer)
          <input value={reason} maxLength={500} onInput={(e) => setReason(e.currentTarget.value)} name="block_reason" />
        </label>
        <button type="submit" class={b.blocked ? '' : 'danger'} disabled={act.busy}>
          {b.blocked ? 'Lift block' : 'Block at this shop'}
        </button>
      </form>
      <fieldset disabled={b.blocked}>
        <legend>Muted channels</legend>
        {CHANNELS.map(([ch, label]) => (
          <label class="inline" key={ch}>
            <input
              type="checkbox"
              checked={b.blocked_channels.includes(ch)}
              onChange={(e) =>
                void change(
                  {
                    blocked_channels: e.currentTarget.checked
                      ? [...b.blocked_channels, ch]
                      : b.blocked_channels.filter((x) => x !== ch),
                  },
                  `${label} ${e.currentTarget.checked ? 'muted' : 'unmuted'}`,
                )
              }
            />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      <button
        type="button"
        disabled={act.busy}
        onClick={() => void change({ archived: !b.archived }, b.archived ? 'Restored' : 'Archived')}
      >
        {b.archived ? 'Restore from archive' : 'Archive'}
      </button>
      {act.error && (
        <p class="error" role="alert">
          {act.error}
        </p>
      )}
    </div>
  );
}

function AttendanceCard(props: { id: string }) {
  const { api, session } = useApp();
  const [data, setData] = useState<Attendance | null>(null);
  const [offset, setOffset] = useState(0);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    void api
      .GET('/api/v1/customers/{customerId}/attendance', {
        params: { path: { customerId: props.id }, query: { store_id: session.storeId, limit: 10, offset } },
      })
      .then(({ data, error }) =>
        data ? setData(data) : setError((error as any)?.error?.message ?? 'Could not load attendance'),
      );
  }, [props.id, offset]);
  return (
    <div class="card" role="region" aria-labelledby="att-title">
      <h2 id="att-title">Class attendance</h2>
      {error && <p class="notice">{error}</p>}
      {data && data.bookings.length === 0 && <p class="empty">No class bookings.</p>}
      <ul class="list">
        {data?.bookings.map((b) => (
          <li key={b.id}>
            {b.scheduled_date ?? b.booking_date} {b.start_time?.slice(0, 5)} · {b.class_name ?? 'Class'} ·{' '}
            <strong>{b.status}</strong>
          </li>
        ))}
      </ul>
      {data && (offset > 0 || data.pagination.has_more) && (
        <div class="pager">
          <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - 10))}>
            Newer
          </button>
          <button
            type="button"
            disabled={!data.pagination.has_more}
            onClick={() => setOffset(data.pagination.next_offset)}
          >
            Older
          </button>
        </div>
      )}
    </div>
  );
}

function JourneyCard(props: { id: string }) {
  const { api, session } = useApp();
  const [events, setEvents] = useState<Journey['events']>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [more, setMore] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function load(before?: string) {
    const { data, error } = await api.GET('/api/v1/customers/{customerId}/journey', {
      params: {
        path: { customerId: props.id },
        query: { store_id: session.storeId, limit: 15, ...(before ? { before } : {}) },
      },
    });
    if (!data) return setError((error as any)?.error?.message ?? 'Could not load the journey');
    setEvents((prev) => (before ? [...prev, ...data.events] : data.events));
    setCursor(data.pagination.nextCursor ?? null);
    setMore(data.pagination.hasMore);
  }
  useEffect(() => void load(), [props.id]);
  return (
    <div class="card" role="region" aria-labelledby="journey-title">
      <h2 id="journey-title">Journey</h2>
      {error && <p class="notice">{error}</p>}
      {events.length === 0 && !error && <p class="empty">Nothing yet.</p>}
      <ol class="list journey">
        {events.map((e) => (
          <li key={e.id}>
            <time>{e.timestamp ? new Date(e.timestamp).toLocaleString('en-GB') : ''}</time>{' '}
            <strong>{e.title ?? e.type}</strong>
            {e.subtitle ? ` · ${e.subtitle}` : ''}
          </li>
        ))}
      </ol>
      {more && cursor && (
        <button type="button" onClick={() => void load(cursor)}>
          Older
        </button>
      )}
    </div>
  );
}
