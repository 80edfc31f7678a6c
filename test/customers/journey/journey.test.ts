// GET /api/v1/customers/{customerId}/journey
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';
import { feed } from '../activity/feed.ts';

const { app, db, fx } = await startTestApp({ now: '2026-06-01T09:00:00Z' });

const store = await fx.store();
const token = await fx.merchantToken(store.id, { entitlements: [] });
const get = (customerId: string, query: Record<string, string | number> = {}) =>
  call(app, 'GET', `/api/v1/customers/${customerId}/journey`, { token, query: { store_id: store.id, ...query } });

const NULL_EVENT = {
  channel: null,
  title: null,
  subtitle: null,
  status: null,
  detail: null,
  campaignName: null,
  opened: null,
  clicked: null,
  returningVisitAt: null,
  returnDays: null,
  amountPence: null,
  refundedPence: null,
  promoDiscountPence: null,
  appliedPromoCode: null,
  currency: null,
  autoSent: null,
  resultKind: null,
  resultAt: null,
  resultValuePence: null,
};

async function walk(customerId: string, limit: number) {
  const ids: string[] = [];
  let before: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const res = await get(customerId, before ? { limit, before } : { limit });
    assert.equal(res.status, 200);
    ids.push(...res.body.events.map((e: any) => e.id));
    assert.equal(res.body.pagination.hasMore, res.body.pagination.nextCursor !== null);
    if (!res.body.pagination.hasMore) return ids;
    before = res.body.pagination.nextCursor;
  }
  throw new Error('the walk did not end');
}

describe('journey', () => {
  it("interleaves every touchpoint newest first with the spec's event fields", async () => {
    const c = await fx.customer();
    const booking = await feed(app, store.id, {
      kind: 'class_booking',
      customer_id: c.id,
      status: 'attended',
      class_name: 'Yoga',
      class_category: 'Mind',
      class_instructor_name: 'Kim',
      attended_at: '2026-05-20T18:00:00Z',
      created_at: '2026-05-18T09:00:00Z',
    });
    const stamp = await feed(app, store.id, {
      kind: 'stamp',
      customer_id: c.id,
      count: 2,
      title: 'Coffee card',
      created_at: '2026-05-21T10:00:00Z',
    });
    const order = await feed(app, store.id, {
      kind: 'order',
      customer_id: c.id,
      amount_pence: 1800,
      refunded_pence: 300,
      status: 'partially_refunded',
      promo_discount_pence: 200,
      applied_promo_code: 'MAY',
      title: 'Lunch',
      created_at: '2026-05-22T12:00:00Z',
    });
    const email = await feed(app, store.id, {
      kind: 'journey_event',
      customer_id: c.id,
      type: 'email',
      channel: 'email',
      occurred_at: '2026-05-23T08:00:00Z',
      title: 'We miss you',
      subtitle: 'Win-back',
      status: 'delivered',
      detail: 'Sent to inbox',
      campaign_name: 'Win-back May',
      opened: true,
      clicked: false,
      returning_visit_at: '2026-05-25T10:00:00Z',
      return_days: 2,
      amount_pence: 500,
      currency: 'GBP',
      auto_sent: true,
      result_kind: 'visit',
      result_at: '2026-05-25T10:00:00Z',
      result_value_pence: 1200,
    });
    const res = await get(c.id);
    assert.equal(res.status, 200);
    const events = res.body.events;
    assert.deepEqual(
      events.map((e: any) => e.type),
      ['email', 'order', 'stamp', 'class_booking', 'joined'],
    );
    assert.deepEqual(events[0], {
      id: email,
      type: 'email',
      channel: 'email',
      timestamp: '2026-05-23T08:00:00.000Z',
      title: 'We miss you',
      subtitle: 'Win-back',
      status: 'delivered',
      detail: 'Sent to inbox',
      campaignName: 'Win-back May',
      opened: true,
      clicked: false,
      returningVisitAt: '2026-05-25T10:00:00.000Z',
      returnDays: 2,
      amountPence: 500,
      refundedPence: null,
      promoDiscountPence: null,
      appliedPromoCode: null,
      currency: 'GBP',
      autoSent: true,
      resultKind: 'visit',
      resultAt: '2026-05-25T10:00:00.000Z',
      resultValuePence: 1200,
    });
    assert.deepEqual(events[1], {
      ...NULL_EVENT,
      id: order,
      type: 'order',
      channel: 'in_store',
      timestamp: '2026-05-22T12:00:00.000Z',
      title: 'Lunch',
      status: 'partially_refunded',
      amountPence: 1800,
      refundedPence: 300,
      promoDiscountPence: 200,
      appliedPromoCode: 'MAY',
      currency: 'GBP',
    });
    assert.deepEqual(events[2], {
      ...NULL_EVENT,
      id: stamp,
      type: 'stamp',
      channel: 'in_store',
      timestamp: '2026-05-21T10:00:00.000Z',
      title: 'Coffee card',
      subtitle: '2 stamps',
    });
    assert.deepEqual(events[3], {
      ...NULL_EVENT,
      id: booking,
      type: 'class_booking',
      channel: 'gym',
      timestamp: '2026-05-20T18:00:00.000Z',
      title: 'Yoga',
      subtitle: 'Kim',
      status: 'attended',
      detail: 'Mind',
    });
    assert.deepEqual(events[4], { ...NULL_EVENT, id: c.id, type: 'joined', timestamp: '2026-05-18T09:00:00.000Z' });
    assert.deepEqual(res.body.pagination, { limit: 25, before: null, nextCursor: null, hasMore: false });
    assert.equal(res.body.has_store_agreements, false);
  });

  it('walks across events that share a timestamp with no duplicate and nothing skipped', async () => {
    const c = await fx.customer();
    const at = '2026-05-10T10:00:00Z';
    for (let i = 0; i < 4; i++) await feed(app, store.id, { kind: 'stamp', customer_id: c.id, created_at: at });
    for (let i = 0; i < 3; i++)
      await feed(app, store.id, { kind: 'order', customer_id: c.id, amount_pence: 100, created_at: at });
    for (let i = 0; i < 3; i++)
      await feed(app, store.id, { kind: 'journey_event', customer_id: c.id, type: 'message', occurred_at: at });
    await feed(app, store.id, { kind: 'stamp', customer_id: c.id, created_at: '2026-05-11T10:00:00Z' });
    await feed(app, store.id, { kind: 'stamp', customer_id: c.id, created_at: '2026-05-09T10:00:00Z' });
    const all = (await get(c.id, { limit: 50 })).body.events;
    assert.equal(all.length, 13);
    for (const limit of [1, 2, 3, 4, 5]) {
      const walked = await walk(c.id, limit);
      assert.deepEqual(
        walked,
        all.map((e: any) => e.id),
        `limit ${limit}`,
      );
      assert.equal(new Set(walked).size, 13);
    }
  });

  it('nextCursor is an ISO 8601 instant and the id of the last event; before with a plain instant is strictly older', async () => {
    const c = await fx.customer();
    await feed(app, store.id, { kind: 'stamp', customer_id: c.id, created_at: '2026-05-01T10:00:00Z' });
    const same = await feed(app, store.id, {
      kind: 'order',
      customer_id: c.id,
      amount_pence: 1,
      created_at: '2026-05-02T10:00:00Z',
    });
    await feed(app, store.id, { kind: 'stamp', customer_id: c.id, created_at: '2026-05-03T10:00:00Z' });
    const first = await get(c.id, { limit: 2 });
    assert.match(first.body.pagination.nextCursor, /^2026-05-02T10:00:00\.000000Z~[0-9a-f-]{36}$/);
    assert.ok(first.body.pagination.nextCursor.endsWith(same));
    const older = await get(c.id, { before: '2026-05-02T10:00:00Z' });
    assert.deepEqual(
      older.body.events.map((e: any) => e.timestamp),
      ['2026-05-01T10:00:00.000Z', '2026-05-01T10:00:00.000Z'],
    );
    assert.equal(older.body.pagination.before, '2026-05-02T10:00:00Z');
    const offset = await get(c.id, { before: '2026-05-02T11:00:00+01:00' });
    assert.equal(offset.body.events.length, 2, 'an instant with an offset is the same instant');
    const oldest = await get(c.id, { before: '2026-05-01T10:00:00.000Z' });
    assert.deepEqual(oldest.body.events, []);
    assert.deepEqual(oldest.body.pagination, {
      limit: 25,
      before: '2026-05-01T10:00:00.000Z',
      nextCursor: null,
      hasMore: false,
    });
  });

  it('shows when a customer became a member after first being seen', async () => {
    const c = await fx.customer();
    await feed(app, store.id, { kind: 'stamp', customer_id: c.id, created_at: '2026-04-01T10:00:00Z' });
    await db.query(
      `UPDATE store_customers SET is_member = true, member_since = '2026-05-01T10:00:00Z' WHERE store_id = $1 AND customer_id = $2`,
      [store.id, c.id],
    );
    const events = (await get(c.id)).body.events;
    assert.deepEqual(
      [events[0].type, events[0].timestamp, events[0].status],
      ['membership', '2026-05-01T10:00:00.000Z', 'member'],
    );
    // The stamp and the joined event share an instant: their order is by id, so compare them as a set.
    assert.deepEqual(
      events
        .slice(1)
        .map((e: any) => `${e.type} ${e.timestamp} ${e.status}`)
        .sort(),
      ['joined 2026-04-01T10:00:00.000Z member', 'stamp 2026-04-01T10:00:00.000Z null'],
    );
  });

  it('reports whether the customer has store-scoped agreements', async () => {
    const c = await fx.customer();
    await fx.membership(store.id, c.id);
    const other = await fx.store();
    await db.query(
      `INSERT INTO customer_agreements (store_id, customer_id, kind, accepted_at) VALUES ($1, $2, 'waiver', now())`,
      [other.id, c.id],
    );
    assert.equal((await get(c.id)).body.has_store_agreements, false, "another store's agreement does not count");
    await db.query(
      `INSERT INTO customer_agreements (store_id, customer_id, kind, accepted_at) VALUES ($1, $2, 'waiver', now())`,
      [store.id, c.id],
    );
    assert.equal((await get(c.id)).body.has_store_agreements, true);
  });

  it("a customer with no relationship, another store's, or an erased one reads as 404", async () => {
    const stranger = await fx.customer();
    const other = await fx.store();
    const theirs = await fx.customer();
    await feed(app, other.id, { kind: 'stamp', customer_id: theirs.id });
    const erased = await fx.customer();
    await feed(app, store.id, { kind: 'stamp', customer_id: erased.id });
    await db.query('UPDATE customers SET erased_at = now(), name = NULL WHERE id = $1', [erased.id]);
    for (const id of [stranger.id, theirs.id, erased.id]) {
      const res = await get(id);
      assert.equal(res.status, 404);
      assert.equal(errorCode(res), 'NOT_FOUND');
    }
  });

  it("never shows another store's touchpoints", async () => {
    const other = await fx.store();
    const c = await fx.customer();
    const mine = await feed(app, store.id, { kind: 'stamp', customer_id: c.id, created_at: '2026-05-01T10:00:00Z' });
    await feed(app, other.id, { kind: 'order', customer_id: c.id, amount_pence: 100 });
    await feed(app, other.id, { kind: 'journey_event', customer_id: c.id, type: 'message' });
    const events = (await get(c.id)).body.events;
    assert.deepEqual(events.map((e: any) => e.id).sort(), [mine, c.id].sort());
  });

  it('refuses a page size above 50 and a malformed cursor', async () => {
    const c = await fx.customer();
    await fx.membership(store.id, c.id);
    const bad: Array<Record<string, string | number>> = [
      { limit: 51 },
      { limit: 0 },
      { before: 'yesterday' },
      { before: '2026-05-01' },
      { before: '2026-05-01T10:00:00Z~nope' },
    ];
    for (const query of bad) {
      const res = await get(c.id, query);
      assert.equal(res.status, 400, JSON.stringify(query));
      assert.equal(errorCode(res), 'VALIDATION_FAILED');
    }
    assert.equal((await get(c.id, { limit: 50 })).status, 200);
  });
});
