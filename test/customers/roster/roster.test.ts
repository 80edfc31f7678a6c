// GET /api/v1/customers/list: the roster.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';
import { feed } from '../activity/feed.ts';

const { app, db, fx } = await startTestApp({ now: '2026-06-01T09:00:00Z' });

async function setup() {
  const store = await fx.store();
  const token = await fx.merchantToken(store.id, { entitlements: [] });
  const list = async (query: Record<string, string | number> = {}) => {
    const res = await call(app, 'GET', '/api/v1/customers/list', { token, query: { store_id: store.id, ...query } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };
  return { store, token, list };
}

const names = (body: any) => body.customers.map((r: any) => r.name);

describe('roster', () => {
  it('lists everyone with a relationship, enriched with the roster aggregates', async () => {
    const { store, list } = await setup();
    const ada = await fx.customer({ name: 'Ada', email: 'ada@example.com', phone: '+447700900001' });
    await feed(app, store.id, {
      kind: 'order',
      customer_id: ada.id,
      amount_pence: 2000,
      refunded_pence: 500,
      status: 'partially_refunded',
      created_at: '2026-05-20T10:00:00Z',
      marketing_opted_in: true,
    });
    await feed(app, store.id, { kind: 'stamp', customer_id: ada.id, count: 3, created_at: '2026-05-25T10:00:00Z' });
    await feed(app, store.id, {
      kind: 'class_booking',
      customer_id: ada.id,
      status: 'attended',
      attended_at: '2026-05-27T18:00:00Z',
    });
    const member = await fx.customer({ name: 'Mo' });
    await fx.membership(store.id, member.id);
    const body = await list();
    assert.deepEqual(body.customers, [
      {
        id: ada.id,
        name: 'Ada',
        phone: '+447700900001',
        email: 'ada@example.com',
        last_visit_at: '2026-05-27T18:00:00.000Z',
        lifecycle_stage: 'active',
        total_visits: 3,
        stamp_count: 3,
        order_count: 1,
        total_spent_pence: 1500,
        marketing_opted_in: true,
      },
      {
        id: member.id,
        name: 'Mo',
        phone: null,
        email: null,
        last_visit_at: null,
        lifecycle_stage: 'new',
        total_visits: 0,
        stamp_count: 0,
        order_count: 0,
        total_spent_pence: 0,
        marketing_opted_in: false,
      },
    ]);
    assert.deepEqual(body.pagination, { limit: 30, offset: 0, has_more: false, total_count: 2 });
  });

  it('sorts by recent (default), spend, visits and name', async () => {
    const { store, list } = await setup();
    const make = async (name: string | null, orders: Array<[number, string]>) => {
      const c =
        name === null
          ? (await db.query<{ id: string }>('INSERT INTO customers (name) VALUES (NULL) RETURNING id')).rows[0]
          : await fx.customer({ name });
      for (const [amount, at] of orders)
        await feed(app, store.id, { kind: 'order', customer_id: c.id, amount_pence: amount, created_at: at });
      if (!orders.length) await fx.membership(store.id, c.id);
    };
    await make('bea', [
      [100, '2026-05-01T10:00:00Z'],
      [100, '2026-05-02T10:00:00Z'],
      [100, '2026-05-03T10:00:00Z'],
    ]);
    await make('Cal', [[5000, '2026-04-01T10:00:00Z']]);
    await make('abe', [
      [700, '2026-05-20T10:00:00Z'],
      [700, '2026-05-21T10:00:00Z'],
    ]);
    await make(null, []);
    assert.deepEqual(names(await list()), ['abe', 'bea', 'Cal', null]);
    assert.deepEqual(names(await list({ sort: 'recent' })), ['abe', 'bea', 'Cal', null]);
    assert.deepEqual(names(await list({ sort: 'spend' })), ['Cal', 'abe', 'bea', null]);
    assert.deepEqual(names(await list({ sort: 'visits' })), ['bea', 'abe', 'Cal', null]);
    assert.deepEqual(names(await list({ sort: 'name' })), ['abe', 'bea', 'Cal', null]);
  });

  it('facets are AND-ed: has_orders, has_stamps, marketing_opted_in', async () => {
    const { store, list } = await setup();
    const both = await fx.customer({ name: 'both' });
    await feed(app, store.id, { kind: 'order', customer_id: both.id, amount_pence: 100, marketing_opted_in: true });
    await feed(app, store.id, { kind: 'stamp', customer_id: both.id });
    const orderOnly = await fx.customer({ name: 'order only' });
    await feed(app, store.id, { kind: 'order', customer_id: orderOnly.id, amount_pence: 100 });
    const stampOnly = await fx.customer({ name: 'stamp only' });
    await feed(app, store.id, { kind: 'stamp', customer_id: stampOnly.id, marketing_opted_in: true });
    const sorted = async (facets: string) => {
      const body = await list({ facets, sort: 'name' });
      assert.equal(body.pagination.total_count, body.customers.length);
      return names(body);
    };
    assert.deepEqual(await sorted('has_orders'), ['both', 'order only']);
    assert.deepEqual(await sorted('has_stamps'), ['both', 'stamp only']);
    assert.deepEqual(await sorted('marketing_opted_in'), ['both', 'stamp only']);
    assert.deepEqual(await sorted('has_orders,has_stamps'), ['both']);
    assert.deepEqual(await sorted('has_orders,marketing_opted_in'), ['both']);
    assert.deepEqual(await sorted('has_orders,has_stamps,marketing_opted_in'), ['both']);
    assert.deepEqual(await sorted(''), ['both', 'order only', 'stamp only']);
    // The customer's own marketing preference for this store wins over consent recorded with activity.
    await db.query(
      `INSERT INTO notification_preferences (customer_id, store_id, marketing_enabled) VALUES ($1, $2, false), ($3, $2, true)`,
      [both.id, store.id, orderOnly.id],
    );
    assert.deepEqual(await sorted('marketing_opted_in'), ['order only', 'stamp only']);
    const rows = (await list({ sort: 'name' })).customers;
    assert.deepEqual(
      rows.map((r: any) => r.marketing_opted_in),
      [false, true, true],
    );
  });

  it('the text filter matches name, email and phone in any spelling', async () => {
    const { store, list } = await setup();
    for (const [name, email, phone] of [
      ['Ada Lovelace', 'ada@analytical.org', '+447700900123'],
      ['Grace Hopper', 'grace@navy.mil', '+447700900456'],
      ['Alan 100% Turing', 'alan_t@bletchley.uk', null],
    ]) {
      const c = await fx.customer({ name, email, phone });
      await fx.membership(store.id, c.id);
    }
    const find = async (q: string) => names(await list({ q, sort: 'name' }));
    assert.deepEqual(await find('lovelace'), ['Ada Lovelace']);
    assert.deepEqual(await find('  GRACE '), ['Grace Hopper']);
    assert.deepEqual(await find('navy.MIL'), ['Grace Hopper']);
    assert.deepEqual(await find('a'), ['Ada Lovelace', 'Alan 100% Turing', 'Grace Hopper']);
    for (const spelling of [
      '07700 900123',
      '+44 7700 900123',
      '447700900123',
      '(07700) 900-123',
      '0044 7700 900123',
      '900123',
    ]) {
      assert.deepEqual(await find(spelling), ['Ada Lovelace'], spelling);
    }
    assert.deepEqual(await find('07700'), ['Ada Lovelace', 'Grace Hopper']);
    assert.deepEqual(await find('100%'), ['Alan 100% Turing'], 'a typed % matches itself');
    assert.deepEqual(await find('n_t'), ['Alan 100% Turing'], 'a typed _ matches itself');
    assert.deepEqual(await find('zzz'), []);
    const body = await list({ q: '07700' });
    assert.equal(body.pagination.total_count, 2);
  });

  it('pages: default 30, at most 100, offset, has_more and the true filtered total', async () => {
    const { store, list } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 105; i++) {
      const c = await fx.customer({ name: `Customer ${String(i).padStart(3, '0')}` });
      ids.push(c.id);
    }
    await db.query(
      `INSERT INTO store_customers (store_id, customer_id, first_seen_at, last_seen_at, total_visits, order_count, total_spent_pence)
       SELECT $1, id, '2026-05-01T00:00:00Z', '2026-05-01T00:00:00Z', 1, ord % 2, 0 FROM unnest($2::uuid[]) WITH ORDINALITY AS t(id, ord)`,
      [store.id, ids],
    );
    const first = await list({ sort: 'name' });
    assert.equal(first.customers.length, 30);
    assert.deepEqual(first.pagination, { limit: 30, offset: 0, has_more: true, total_count: 105 });
    const max = await list({ sort: 'name', limit: 100 });
    assert.equal(max.customers.length, 100);
    const last = await list({ sort: 'name', limit: 100, offset: 100 });
    assert.deepEqual(names(last), ['Customer 100', 'Customer 101', 'Customer 102', 'Customer 103', 'Customer 104']);
    assert.deepEqual(last.pagination, { limit: 100, offset: 100, has_more: false, total_count: 105 });
    const filtered = await list({ facets: 'has_orders', limit: 50 });
    assert.deepEqual(filtered.pagination, { limit: 50, offset: 0, has_more: true, total_count: 53 });
    const rest = await list({ facets: 'has_orders', limit: 50, offset: 50 });
    assert.equal(rest.customers.length, 3);
    assert.deepEqual(rest.pagination, { limit: 50, offset: 50, has_more: false, total_count: 53 });
    const walked: string[] = [];
    for (let offset = 0; offset < 105; offset += 30)
      walked.push(...(await list({ sort: 'visits', offset })).customers.map((r: any) => r.id));
    assert.equal(new Set(walked).size, 105, 'ties are broken by id, so pages neither overlap nor skip');
  });

  it('with a text filter: every sort pages without overlap, with the true total, also past the end', async () => {
    const { store, list } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 45; i++)
      ids.push((await fx.customer({ name: `${i % 3 === 0 ? 'Woodley' : 'Ashby'} ${String(i).padStart(2, '0')}` })).id);
    await db.query(
      `INSERT INTO store_customers (store_id, customer_id, first_seen_at, last_seen_at, last_visit_at, total_visits, order_count, total_spent_pence)
       SELECT $1, id, '2026-05-01T00:00:00Z', '2026-05-01T00:00:00Z', '2026-05-01T00:00:00Z'::timestamptz + ord * interval '1 hour',
              ord % 4, ord % 2, (ord % 5) * 100
         FROM unnest($2::uuid[]) WITH ORDINALITY AS t(id, ord)`,
      [store.id, ids],
    );
    const woodleys = ids.filter((_, i) => i % 3 === 0);
    for (const sort of ['recent', 'spend', 'visits', 'name']) {
      const walked: string[] = [];
      for (let offset = 0; offset < 15; offset += 4) {
        const body = await list({ q: 'woodley', sort, limit: 4, offset });
        assert.equal(body.pagination.total_count, 15, sort);
        assert.equal(body.pagination.has_more, offset + 4 < 15, `${sort} at ${offset}`);
        walked.push(...body.customers.map((r: any) => r.id));
      }
      assert.deepEqual([...walked].sort(), [...woodleys].sort(), `${sort}: every match once`);
    }
    const spend = (await list({ q: 'woodley', sort: 'spend', limit: 15 })).customers.map(
      (r: any) => r.total_spent_pence,
    );
    assert.deepEqual(
      spend,
      [...spend].sort((a, b) => b - a),
      'highest spend first',
    );
    const byName = names(await list({ q: 'WOODLEY', sort: 'name', limit: 3 }));
    assert.deepEqual(byName, ['Woodley 00', 'Woodley 03', 'Woodley 06']);
    const past = await list({ q: 'woodley', offset: 40 });
    assert.deepEqual(past.customers, []);
    assert.deepEqual(past.pagination, { limit: 30, offset: 40, has_more: false, total_count: 15 });
    const faceted = await list({ q: 'woodley', facets: 'has_orders' });
    assert.equal(faceted.pagination.total_count, woodleys.filter((id) => ids.indexOf(id) % 2 === 0).length);
    assert.ok(faceted.customers.every((r: any) => r.order_count > 0));
  });

  it('a text filter gives the unfiltered roster less the non-matches, for every sort, facet and offset', async () => {
    const { store, list } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 24; i++) {
      const name = `${['Woodley', 'Ashby', 'Ashwood'][i % 3]} ${String(i).padStart(2, '0')}`;
      ids.push((await fx.customer({ name, email: i % 4 === 0 ? `wood${i}@example.com` : null })).id);
    }
    // Ties in spend and visits, so the customer id decides between matches as it does in the full roster.
    await db.query(
      `INSERT INTO store_customers (store_id, customer_id, first_seen_at, last_seen_at, last_visit_at, total_visits,
                                   order_count, total_spent_pence, marketing_opted_in)
       SELECT $1, id, '2026-05-01T00:00:00Z', '2026-05-01T00:00:00Z',
              CASE WHEN ord % 5 > 0 THEN '2026-05-01T00:00:00Z'::timestamptz + (ord % 7) * interval '1 hour' END,
              ord % 3, ord % 2, (ord % 4) * 100, ord % 3 = 0
         FROM unnest($2::uuid[]) WITH ORDINALITY AS t(id, ord)`,
      [store.id, ids],
    );
    const matches = (q: string) => (r: any) => r.name.toLowerCase().includes(q) || !!r.email?.includes(q);
    for (const sort of ['recent', 'spend', 'visits', 'name'])
      for (const facets of [undefined, 'has_orders', 'marketing_opted_in'])
        for (const q of ['wood', 'ashby', 'ash']) {
          const base = { sort, ...(facets ? { facets } : {}) };
          const all = (await list({ ...base, limit: 100 })).customers.filter(matches(q));
          for (const offset of [0, 3, 7]) {
            const body = await list({ ...base, q, limit: 4, offset });
            const label = JSON.stringify({ ...base, q, offset });
            assert.deepEqual(body.customers, all.slice(offset, offset + 4), label);
            assert.equal(body.pagination.total_count, all.length, label);
            assert.equal(body.pagination.has_more, offset + 4 < all.length, label);
          }
        }
  });

  it('archived and erased customers are hidden from rows and counts', async () => {
    const { store, list } = await setup();
    const keep = await fx.customer({ name: 'Kept' });
    const archived = await fx.customer({ name: 'Archived' });
    const erased = await fx.customer({ name: 'Erased' });
    for (const c of [keep, archived, erased])
      await feed(app, store.id, { kind: 'order', customer_id: c.id, amount_pence: 100, marketing_opted_in: true });
    await db.query(
      'UPDATE store_customers SET archived = true, archived_at = now() WHERE store_id = $1 AND customer_id = $2',
      [store.id, archived.id],
    );
    await db.query('UPDATE customers SET erased_at = now() WHERE id = $1', [erased.id]);
    const queries: Array<Record<string, string>> = [
      {},
      { facets: 'has_orders' },
      { stage: 'new' },
      { q: 'e' },
      { sort: 'spend' },
      { facets: 'marketing_opted_in' },
    ];
    for (const query of queries) {
      const body = await list(query);
      assert.deepEqual(names(body), ['Kept'], JSON.stringify(query));
      assert.equal(body.pagination.total_count, 1, JSON.stringify(query));
    }
  });

  it("never lists another store's customers, whatever store_id the query names", async () => {
    const { store, list } = await setup();
    const other = await fx.store();
    const mine = await fx.customer({ name: 'Mine' });
    const theirs = await fx.customer({ name: 'Theirs' });
    const shared = await fx.customer({ name: 'Shared' });
    await feed(app, store.id, { kind: 'order', customer_id: mine.id, amount_pence: 100 });
    await feed(app, other.id, { kind: 'order', customer_id: theirs.id, amount_pence: 100 });
    await feed(app, store.id, { kind: 'stamp', customer_id: shared.id });
    await feed(app, other.id, { kind: 'order', customer_id: shared.id, amount_pence: 9999 });
    const body = await list({ store_id: other.id, sort: 'name' });
    assert.deepEqual(names(body), ['Mine', 'Shared']);
    assert.equal(body.pagination.total_count, 2);
    const sharedRow = body.customers.find((r: any) => r.name === 'Shared');
    assert.equal(sharedRow.total_spent_pence, 0, "the other store's spend is not this store's");
    assert.equal(sharedRow.order_count, 0);
  });

  it('refuses unknown sorts, stages, facets, page sizes and parameters', async () => {
    const { store, token } = await setup();
    for (const query of [
      { sort: 'oldest' },
      { stage: 'asleep' },
      { facets: 'has_orders,vip' },
      { facets: 'has_orders,' },
      { limit: 101 },
      { limit: 0 },
      { offset: -1 },
      { page: 2 },
      {},
    ]) {
      const res = await call(app, 'GET', '/api/v1/customers/list', {
        token,
        query: { ...(Object.keys(query).length ? { store_id: store.id } : {}), ...query },
      });
      assert.equal(res.status, 400, JSON.stringify(query));
      assert.equal(errorCode(res), 'VALIDATION_FAILED');
    }
    const customerToken = await fx.customerToken((await fx.customer()).id);
    assert.equal(
      (await call(app, 'GET', '/api/v1/customers/list', { token: customerToken, query: { store_id: store.id } }))
        .status,
      403,
    );
    assert.equal((await call(app, 'GET', '/api/v1/customers/list', { query: { store_id: store.id } })).status, 401);
  });
});
