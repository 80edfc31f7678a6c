// POST /admin/v1/stores/{storeId}/activity: the operator route that feeds attendance, journey and roster.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_TOKEN, startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';

const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
const { app, db, fx } = t;

const post = (storeId: string, body: unknown, token = ADMIN_TOKEN) =>
  call(app, 'POST', `/admin/v1/stores/${storeId}/activity`, { token, body });

async function relationship(storeId: string, customerId: string) {
  const res = await db.query(
    `SELECT first_seen_at, last_seen_at, total_visits, first_visit_at, last_visit_at, previous_visit_at,
            stamp_count, order_count, total_spent_pence, marketing_opted_in, is_member
       FROM store_customers WHERE store_id = $1 AND customer_id = $2`,
    [storeId, customerId],
  );
  return res.rows[0];
}

describe('activity ingestion', () => {
  it('records an attended class booking, creates the relationship and counts the visit', async () => {
    const store = await fx.store();
    const c = await fx.customer({ name: 'Ada' });
    const res = await post(store.id, {
      kind: 'class_booking',
      customer_id: c.id,
      status: 'attended',
      class_name: 'Yoga',
      scheduled_date: '2026-05-20',
      start_time: '18:00',
      end_time: '19:00',
      attended_at: '2026-05-20T16:58:00Z',
      created_at: '2026-05-18T10:00:00Z',
    });
    assert.equal(res.status, 200);
    assert.equal(res.body.activity.kind, 'class_booking');
    assert.equal(res.body.activity.customer_id, c.id);
    assert.equal(res.body.activity.created, true);
    const row = (
      await db.query('SELECT status, class_name, start_time, created_at FROM class_bookings WHERE id = $1', [
        res.body.activity.id,
      ])
    ).rows[0];
    assert.deepEqual(row, {
      status: 'attended',
      class_name: 'Yoga',
      start_time: '18:00:00',
      created_at: '2026-05-18T10:00:00.000Z',
    });
    const rel = await relationship(store.id, c.id);
    assert.equal(rel.total_visits, 1);
    assert.equal(rel.first_visit_at, '2026-05-20T16:58:00.000Z');
    assert.equal(rel.last_visit_at, '2026-05-20T16:58:00.000Z');
    assert.equal(rel.first_seen_at, '2026-05-18T10:00:00.000Z');
    assert.equal(rel.last_seen_at, '2026-05-18T10:00:00.000Z');
    assert.equal(rel.is_member, false);
  });

  it('a booking that was not attended is no visit', async () => {
    const store = await fx.store();
    const c = await fx.customer();
    for (const status of ['confirmed', 'no_show', 'cancelled', 'waitlisted']) {
      assert.equal((await post(store.id, { kind: 'class_booking', customer_id: c.id, status })).status, 200);
    }
    const rel = await relationship(store.id, c.id);
    assert.equal(rel.total_visits, 0);
    assert.equal(rel.last_visit_at, null);
    assert.equal(rel.first_seen_at, '2026-06-01T09:00:00.000Z');
  });

  it('orders count net of refunds; cancelled orders count for nothing', async () => {
    const store = await fx.store();
    const c = await fx.customer();
    const orders = [
      { amount_pence: 1000, created_at: '2026-05-01T10:00:00Z' },
      { amount_pence: 2500, refunded_pence: 500, status: 'partially_refunded', created_at: '2026-05-02T10:00:00Z' },
      { amount_pence: 700, status: 'refunded', created_at: '2026-05-03T10:00:00Z' },
      { amount_pence: 9999, status: 'cancelled', created_at: '2026-05-04T10:00:00Z' },
    ];
    for (const o of orders)
      assert.equal((await post(store.id, { kind: 'order', customer_id: c.id, ...o })).status, 200);
    const rel = await relationship(store.id, c.id);
    assert.equal(rel.order_count, 3);
    assert.equal(rel.total_spent_pence, 1000 + 2000);
    assert.equal(rel.total_visits, 3);
    assert.equal(rel.last_visit_at, '2026-05-03T10:00:00.000Z');
    assert.equal(rel.previous_visit_at, '2026-05-02T10:00:00.000Z');
    const full = await db.query(
      `SELECT refunded_pence, currency FROM orders WHERE customer_id = $1 AND status = 'refunded'`,
      [c.id],
    );
    assert.deepEqual(full.rows[0], { refunded_pence: 700, currency: 'GBP' });
  });

  it('a refund larger than the order is refused and nothing is written', async () => {
    const store = await fx.store();
    const c = await fx.customer();
    const res = await post(store.id, { kind: 'order', customer_id: c.id, amount_pence: 100, refunded_pence: 101 });
    assert.equal(res.status, 400);
    assert.equal(errorCode(res), 'VALIDATION_FAILED');
    assert.equal((await db.query('SELECT 1 FROM orders WHERE customer_id = $1', [c.id])).rowCount, 0);
    assert.equal(await relationship(store.id, c.id), undefined);
  });

  it('stamps add up their counts, and a visit is a store-local day', async () => {
    const store = await fx.store({ timezone: 'Europe/London' });
    const c = await fx.customer();
    // 22:30Z and 23:30Z on 10 May are 23:30 on the 10th and 00:30 on the 11th in London (BST): two days.
    await post(store.id, { kind: 'stamp', customer_id: c.id, count: 2, created_at: '2026-05-10T22:30:00Z' });
    await post(store.id, { kind: 'order', customer_id: c.id, amount_pence: 350, created_at: '2026-05-10T22:00:00Z' });
    await post(store.id, { kind: 'stamp', customer_id: c.id, created_at: '2026-05-10T23:30:00Z' });
    const rel = await relationship(store.id, c.id);
    assert.equal(rel.stamp_count, 3);
    assert.equal(rel.total_visits, 2);
    assert.equal(rel.first_visit_at, '2026-05-10T22:00:00.000Z');
    assert.equal(rel.previous_visit_at, '2026-05-10T22:30:00.000Z');
    assert.equal(rel.last_visit_at, '2026-05-10T23:30:00.000Z');
  });

  it('journey events are recorded but are not visits; back-fills stretch first_seen_at only', async () => {
    const store = await fx.store();
    const c = await fx.customer();
    await post(store.id, { kind: 'stamp', customer_id: c.id, created_at: '2026-05-20T10:00:00Z' });
    const res = await post(store.id, {
      kind: 'journey_event',
      customer_id: c.id,
      type: 'email',
      channel: 'email',
      occurred_at: '2026-01-05T08:00:00Z',
      title: 'Welcome',
      campaign_name: 'Spring',
      opened: true,
      clicked: false,
    });
    assert.equal(res.status, 200);
    const ev = (
      await db.query(
        'SELECT type, channel, campaign_name, opened, clicked, occurred_at FROM journey_events WHERE id = $1',
        [res.body.activity.id],
      )
    ).rows[0];
    assert.deepEqual(ev, {
      type: 'email',
      channel: 'email',
      campaign_name: 'Spring',
      opened: true,
      clicked: false,
      occurred_at: '2026-01-05T08:00:00.000Z',
    });
    const rel = await relationship(store.id, c.id);
    assert.equal(rel.total_visits, 1);
    assert.equal(rel.first_seen_at, '2026-01-05T08:00:00.000Z');
    assert.equal(rel.last_seen_at, '2026-05-20T10:00:00.000Z');
  });

  it('re-sending a record by id updates it and the aggregates converge', async () => {
    const store = await fx.store();
    const c = await fx.customer();
    const first = await post(store.id, {
      kind: 'class_booking',
      customer_id: c.id,
      status: 'confirmed',
      created_at: '2026-05-01T10:00:00Z',
    });
    const id = first.body.activity.id;
    assert.equal((await relationship(store.id, c.id)).total_visits, 0);
    const again = await post(store.id, {
      kind: 'class_booking',
      id,
      customer_id: c.id,
      status: 'attended',
      attended_at: '2026-05-02T18:00:00Z',
    });
    assert.equal(again.status, 200);
    assert.equal(again.body.activity.id, id);
    assert.equal(again.body.activity.created, false);
    const row = (await db.query('SELECT status, created_at FROM class_bookings WHERE id = $1', [id])).rows[0];
    assert.deepEqual(row, { status: 'attended', created_at: '2026-05-01T10:00:00.000Z' });
    assert.equal((await relationship(store.id, c.id)).total_visits, 1);
    const order = await post(store.id, { kind: 'order', customer_id: c.id, amount_pence: 1200 });
    await post(store.id, {
      kind: 'order',
      id: order.body.activity.id,
      customer_id: c.id,
      amount_pence: 1200,
      status: 'refunded',
    });
    const rel = await relationship(store.id, c.id);
    assert.equal(rel.total_spent_pence, 0);
    assert.equal(rel.order_count, 1);
  });

  it("an id that belongs to another store's record is refused", async () => {
    const a = await fx.store();
    const b = await fx.store();
    const c = await fx.customer();
    const first = await post(a.id, { kind: 'stamp', customer_id: c.id });
    const res = await post(b.id, { kind: 'stamp', id: first.body.activity.id, customer_id: c.id, count: 5 });
    assert.equal(res.status, 409);
    assert.equal(errorCode(res), 'CONFLICT');
    assert.equal(
      (await db.query('SELECT count, store_id FROM stamps WHERE id = $1', [first.body.activity.id])).rows[0].count,
      1,
    );
    assert.equal(await relationship(b.id, c.id), undefined);
  });

  it('records marketing consent sent with an activity', async () => {
    const store = await fx.store();
    const c = await fx.customer();
    await post(store.id, { kind: 'order', customer_id: c.id, amount_pence: 500, marketing_opted_in: true });
    assert.equal((await relationship(store.id, c.id)).marketing_opted_in, true);
    await post(store.id, { kind: 'stamp', customer_id: c.id });
    assert.equal(
      (await relationship(store.id, c.id)).marketing_opted_in,
      true,
      'an activity without the field leaves consent alone',
    );
    await post(store.id, { kind: 'stamp', customer_id: c.id, marketing_opted_in: false });
    assert.equal((await relationship(store.id, c.id)).marketing_opted_in, false);
  });

  it('an unknown store or customer is 404; an erased customer is refused', async () => {
    const store = await fx.store();
    const c = await fx.customer();
    const noStore = await post('00000000-0000-4000-8000-000000000000', { kind: 'stamp', customer_id: c.id });
    assert.equal(noStore.status, 404);
    assert.equal(errorCode(noStore), 'NOT_FOUND');
    const noCustomer = await post(store.id, { kind: 'stamp', customer_id: '00000000-0000-4000-8000-000000000000' });
    assert.equal(noCustomer.status, 404);
    assert.equal(errorCode(noCustomer), 'NOT_FOUND');
    const erased = await fx.customer({ name: null });
    await db.query('UPDATE customers SET erased_at = $2 WHERE id = $1', [erased.id, '2026-05-01T00:00:00Z']);
    const res = await post(store.id, { kind: 'stamp', customer_id: erased.id });
    assert.equal(res.status, 409);
    assert.equal(errorCode(res), 'CUSTOMER_ERASED');
    assert.equal((await db.query('SELECT 1 FROM stamps WHERE store_id = $1', [store.id])).rowCount, 0);
  });

  it('the body is strict and discriminated on kind', async () => {
    const store = await fx.store();
    const c = await fx.customer();
    const cases: Array<[unknown, RegExp]> = [
      [{ kind: 'visit', customer_id: c.id }, /kind/],
      [{ customer_id: c.id }, /kind/],
      [{ kind: 'stamp', customer_id: c.id, amount_pence: 5 }, /amount_pence is not allowed/],
      [{ kind: 'order', customer_id: c.id }, /amount_pence is required/],
      [{ kind: 'order', customer_id: c.id, amount_pence: '5' }, /amount_pence/],
      [{ kind: 'class_booking', customer_id: c.id, status: 'went' }, /status/],
      [{ kind: 'class_booking', customer_id: c.id, status: 'attended', start_time: '25:00' }, /start_time/],
      [{ kind: 'journey_event', customer_id: c.id, type: 'email', occurred_at: 'yesterday' }, /occurred_at/],
      [{ kind: 'stamp', customer_id: 'not-a-uuid' }, /customer_id/],
    ];
    for (const [body, message] of cases) {
      const res = await post(store.id, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(errorCode(res), 'VALIDATION_FAILED');
      assert.match(res.body.error.message, message);
    }
    assert.equal((await db.query('SELECT 1 FROM store_customers WHERE store_id = $1', [store.id])).rowCount, 0);
  });

  it('needs the admin token', async () => {
    const store = await fx.store();
    const c = await fx.customer();
    const none = await call(app, 'POST', `/admin/v1/stores/${store.id}/activity`, {
      body: { kind: 'stamp', customer_id: c.id },
    });
    assert.equal(none.status, 401);
    const merchant = await post(store.id, { kind: 'stamp', customer_id: c.id }, await fx.merchantToken(store.id));
    assert.equal(merchant.status, 403);
    assert.equal(errorCode(merchant), 'WRONG_TOKEN_KIND');
  });

  it('a delivery retried with the same Idempotency-Key is recorded once', async () => {
    const store = await fx.store();
    const c = await fx.customer();
    const body = { kind: 'order', customer_id: c.id, amount_pence: 900 };
    const first = await call(app, 'POST', `/admin/v1/stores/${store.id}/activity`, {
      token: ADMIN_TOKEN,
      body,
      idempotencyKey: 'order-42',
    });
    const again = await call(app, 'POST', `/admin/v1/stores/${store.id}/activity`, {
      token: ADMIN_TOKEN,
      body,
      idempotencyKey: 'order-42',
    });
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, first.body);
    assert.equal(again.headers['idempotent-replayed'], 'true');
    assert.equal((await db.query('SELECT 1 FROM orders WHERE customer_id = $1', [c.id])).rowCount, 1);
    const rel = await relationship(store.id, c.id);
    assert.equal(rel.order_count, 1);
    assert.equal(rel.total_spent_pence, 900);
  });

  it('concurrent activity for one customer leaves exact aggregates', async () => {
    const store = await fx.store();
    const c = await fx.customer();
    const sibling = await t.sibling();
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        call(i % 2 ? app : sibling, 'POST', `/admin/v1/stores/${store.id}/activity`, {
          token: ADMIN_TOKEN,
          body: {
            kind: 'order',
            customer_id: c.id,
            amount_pence: 100,
            created_at: `2026-05-${String(i + 1).padStart(2, '0')}T12:00:00Z`,
          },
        }).then((r) => assert.equal(r.status, 200)),
      ),
    );
    const rel = await relationship(store.id, c.id);
    assert.equal(rel.order_count, 12);
    assert.equal(rel.total_spent_pence, 1200);
    assert.equal(rel.total_visits, 12);
    assert.equal(rel.first_seen_at, '2026-05-01T12:00:00.000Z');
    assert.equal(rel.last_seen_at, '2026-05-12T12:00:00.000Z');
  });
});
