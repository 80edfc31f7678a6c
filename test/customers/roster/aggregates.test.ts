// The roster's aggregates of a relationship (store_customers: visits, first/last/previous visit, order
// count, net spend, stamps) are a copy of what the activity tables say. A copy can drift; these tests
// recompute every aggregate of every relationship from orders, stamps and class bookings with a query
// of their own and require no difference: after each kind of write in turn (the operator's activity,
// re-sent as refunded or cancelled, a class check-in, an import, an erasure), and after two real server
// processes write one customer's activity at once (db/functions/store-customer-aggregates.sql locks
// the row before it reads the totals). On both engines.
import { readFileSync } from 'node:fs';
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestApp } from '../../support/app.ts';
import { call, type CallResult } from '../../support/http.ts';
import { secondServer } from '../../support/second-server.ts';

// Both processes stand at the same instant (the second keeps the system clock).
const t = await startTestApp({ now: new Date().toISOString() });

/**
 * Every relationship whose stored aggregates differ from the activity tables', with both versions.
 * Written apart from the function it checks: one pass over all relationships, a visit day's last
 * instant from an array, net spend as greatest(amount - refunded, 0).
 */
async function drift(): Promise<Array<Record<string, unknown>>> {
  const res = await t.db.query(
    `WITH events AS (
       SELECT b.store_id, b.customer_id,
              CASE WHEN b.attended_at IS NOT NULL THEN b.attended_at
                   WHEN b.scheduled_date IS NOT NULL THEN timezone(s.timezone, b.scheduled_date + coalesce(b.start_time, '00:00'::time))
                   ELSE b.created_at END AS at
         FROM class_bookings b JOIN stores s ON s.id = b.store_id WHERE b.status = 'attended' AND b.customer_id IS NOT NULL
       UNION ALL SELECT store_id, customer_id, created_at FROM orders WHERE status IN ('paid', 'refunded', 'partially_refunded')
       UNION ALL SELECT store_id, customer_id, created_at FROM stamps
     ), by_day AS (
       SELECT e.store_id, e.customer_id, timezone(s.timezone, e.at)::date AS day, min(e.at) AS first_at, max(e.at) AS last_at
         FROM events e JOIN stores s ON s.id = e.store_id GROUP BY 1, 2, 3
     ), visits AS (
       SELECT store_id, customer_id, count(*)::int AS total, min(first_at) AS first_at,
              (array_agg(last_at ORDER BY day DESC))[1] AS last_at, (array_agg(last_at ORDER BY day DESC))[2] AS previous_at
         FROM by_day GROUP BY 1, 2
     ), spend AS (
       SELECT store_id, customer_id, count(*)::int AS n,
              sum(CASE WHEN status = 'refunded' THEN 0 ELSE greatest(amount_pence - refunded_pence, 0) END)::bigint AS net
         FROM orders WHERE status <> 'cancelled' GROUP BY 1, 2
     ), stamped AS (
       SELECT store_id, customer_id, sum(count)::int AS n FROM stamps GROUP BY 1, 2
     ), expected AS (
       SELECT sc.store_id, sc.customer_id,
              ROW(coalesce(v.total, 0), v.first_at, v.last_at, v.previous_at, coalesce(o.n, 0), coalesce(o.net, 0), coalesce(st.n, 0)) AS want,
              ROW(sc.total_visits, sc.first_visit_at, sc.last_visit_at, sc.previous_visit_at, sc.order_count,
                  sc.total_spent_pence, sc.stamp_count) AS got
         FROM store_customers sc
         LEFT JOIN visits v USING (store_id, customer_id)
         LEFT JOIN spend o USING (store_id, customer_id)
         LEFT JOIN stamped st USING (store_id, customer_id)
     )
     SELECT store_id, customer_id, want::text, got::text FROM expected WHERE want IS DISTINCT FROM got`,
  );
  return res.rows;
}

async function feed(storeId: string, body: Record<string, unknown>, base?: string): Promise<CallResult> {
  if (!base) return call(t.app, 'POST', `/admin/v1/stores/${storeId}/activity`, { token: ADMIN_TOKEN, body });
  const res = await fetch(`${base}/admin/v1/stores/${storeId}/activity`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json(), headers: Object.fromEntries(res.headers) };
}

async function ok(res: Promise<CallResult>): Promise<any> {
  const r = await res;
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body;
}

async function aggregates(storeId: string, customerId: string) {
  const res = await t.db.query(
    `SELECT total_visits, order_count, total_spent_pence::int AS spent, stamp_count FROM store_customers
      WHERE store_id = $1 AND customer_id = $2`,
    [storeId, customerId],
  );
  return res.rows[0];
}

/** A class in the store, one occurrence of it, and a booking of it for the customer (confirmed). */
async function classBooking(storeId: string, token: string, customerId: string, startsAt: string): Promise<string> {
  const unit = await t.fx.unit(storeId, { display_name: `Coach ${startsAt}` });
  const api = (path: string, body: unknown) => call(t.app, 'POST', `/api/v1/classes${path}`, { token, body });
  const c = (await ok(api('', { name: 'Spin', duration_min: 45, capacity: 5, instructor_unit_id: unit.id }))).class;
  const o = (await ok(api(`/${c.id}/occurrences`, { starts_at: startsAt }))).occurrence;
  return (await ok(api(`/occurrences/${o.id}/bookings`, { customer_id: customerId, source: 'app' }))).booking.id;
}

test('after every kind of write in turn, each relationship holds what the activity tables say', async () => {
  const store = await t.fx.store({ name: 'Aggregates' });
  const token = await t.fx.merchantToken(store.id);
  const ada = await t.fx.customer({ name: 'Ada Aggregate', email: 'ada@aggregates.test' });
  const bo = await t.fx.customer({ name: 'Bo Aggregate', email: 'bo@aggregates.test' });
  const step = async (what: string) => assert.deepEqual(await drift(), [], `after ${what}`);
  const id = { customer_id: ada.id };

  const order = await ok(
    feed(store.id, { kind: 'order', ...id, amount_pence: 2500, created_at: '2026-03-02T10:00:00Z' }),
  );
  await step('an order');
  await ok(feed(store.id, { kind: 'order', ...id, amount_pence: 900, created_at: '2026-03-02T16:00:00Z' }));
  await step('a second order the same day');
  await ok(feed(store.id, { kind: 'stamp', ...id, count: 3, created_at: '2026-02-20T09:00:00Z' }));
  await step('a back-filled stamp');
  await ok(
    feed(store.id, {
      kind: 'order',
      ...id,
      id: order.activity.id,
      amount_pence: 2500,
      status: 'partially_refunded',
      refunded_pence: 1000,
    }),
  );
  await step('a partial refund');
  await ok(feed(store.id, { kind: 'order', ...id, id: order.activity.id, amount_pence: 2500, status: 'refunded' }));
  await step('a full refund');
  await ok(feed(store.id, { kind: 'order', ...id, id: order.activity.id, amount_pence: 2500, status: 'cancelled' }));
  await step('a cancellation');
  const attended = await ok(
    feed(store.id, {
      kind: 'class_booking',
      ...id,
      status: 'attended',
      scheduled_date: '2026-03-10',
      start_time: '18:00',
    }),
  );
  await step('an attended class reported');
  await ok(feed(store.id, { kind: 'class_booking', ...id, id: attended.activity.id, status: 'cancelled' }));
  await step('that class re-sent as cancelled');
  await ok(feed(store.id, { kind: 'journey_event', ...id, type: 'message', title: 'Hello' }));
  await step('a journey event');

  // A check-in through the timetable is a visit too (it was not counted before this test).
  const before = await aggregates(store.id, ada.id);
  const booking = await classBooking(store.id, token, ada.id, '2027-01-05T18:00:00.000Z');
  await step('a class booked');
  await ok(call(t.app, 'POST', `/api/v1/classes/bookings/${booking}/check-in`, { token, body: {} }));
  await step('a check-in');
  assert.equal((await aggregates(store.id, ada.id)).total_visits, before.total_visits + 1);

  const csv = 'Name,Email,Notes\nAda Aggregate,ada@aggregates.test,Imported\nBo Aggregate,bo@aggregates.test,\n';
  const imported = await call(t.app, 'POST', '/api/v1/imports/customers', {
    token,
    body: csv,
    query: { store_id: store.id },
    headers: { 'content-type': 'text/csv' },
  });
  assert.equal(imported.status, 200, JSON.stringify(imported.body));
  await step('an import of the same people');
  await ok(feed(store.id, { kind: 'stamp', customer_id: bo.id, created_at: '2026-04-01T09:00:00Z' }));
  await ok(call(t.app, 'POST', `/admin/v1/customers/${bo.id}/erase`, { token: ADMIN_TOKEN, body: {} }));
  await step('an erasure');
  assert.deepEqual(await aggregates(store.id, ada.id), {
    total_visits: before.total_visits + 1,
    order_count: 1,
    spent: 900,
    stamp_count: 3,
  });
});

test('two processes writing one customer’s activity at once leave no drift', async () => {
  const second = await secondServer(t.url);
  after(() => second.kill());
  await second.spawn();
  const store = await t.fx.store({ name: 'Race' });
  const token = await t.fx.merchantToken(store.id);
  const people = [await t.fx.customer({ name: 'Racer One' }), await t.fx.customer({ name: 'Racer Two' })];
  for (const p of people) await t.fx.membership(store.id, p.id);
  const bookings = await Promise.all(
    people.map((p, i) => classBooking(store.id, token, p.id, `2027-02-0${i + 1}T18:00:00.000Z`)),
  );
  const N = 24;
  const writes: Promise<CallResult>[] = [];
  for (const [k, p] of people.entries()) {
    for (let i = 0; i < N; i++) {
      // Alternately through this process and the other, one visit day each, orders and stamps.
      const day = `2026-05-${String(1 + (i % 28)).padStart(2, '0')}T1${i % 10}:00:00Z`;
      const body =
        i % 3 === 2
          ? { kind: 'stamp', customer_id: p.id, count: 2, created_at: day }
          : { kind: 'order', customer_id: p.id, amount_pence: 100 + i, created_at: day };
      writes.push(feed(store.id, body, i % 2 ? second.baseUrl : undefined));
    }
    // A check-in in the middle of the stream, through the other process.
    const checkIn = fetch(`${second.baseUrl}/api/v1/classes/bookings/${bookings[k]}/check-in`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    }).then(async (r) => ({ status: r.status, body: await r.json(), headers: {} }));
    writes.splice(writes.length - N / 2, 0, checkIn);
  }
  const results = await Promise.all(writes);
  assert.deepEqual(
    results.filter((r) => r.status !== 200).map((r) => JSON.stringify(r.body)),
    [],
  );
  assert.deepEqual(await drift(), []);
  for (const p of people) {
    const orders = Array.from({ length: N }, (_, i) => i).filter((i) => i % 3 !== 2);
    assert.deepEqual(await aggregates(store.id, p.id), {
      total_visits: N + 1,
      order_count: orders.length,
      spent: orders.reduce((s, i) => s + 100 + i, 0),
      stamp_count: 2 * (N - orders.length),
    });
  }
});

test('migration 300 recounts the relationships whose check-in was not counted before, and only those', async () => {
  const store = await t.fx.store({ name: 'Before round 18' });
  const token = await t.fx.merchantToken(store.id);
  const cy = await t.fx.customer({ name: 'Cy Checked' });
  await ok(feed(store.id, { kind: 'stamp', customer_id: cy.id, created_at: '2026-01-10T09:00:00Z' }));
  const booking = await classBooking(store.id, token, cy.id, '2027-03-01T18:00:00.000Z');
  await ok(call(t.app, 'POST', `/api/v1/classes/bookings/${booking}/check-in`, { token, body: {} }));
  // As the check-in left it before the fix: the stamp's day only.
  await t.db.query(
    `UPDATE store_customers SET total_visits = 1, last_visit_at = first_visit_at, previous_visit_at = NULL
      WHERE store_id = $1 AND customer_id = $2`,
    [store.id, cy.id],
  );
  assert.equal((await drift()).length, 1);
  const sql = readFileSync(new URL('../../../migrations/300_check_in_visits.sql', import.meta.url), 'utf8');
  await t.db.query(sql);
  assert.deepEqual(await drift(), []);
  assert.equal((await aggregates(store.id, cy.id)).total_visits, 2);
});
