// GET /api/v1/customers/{customerId}/attendance
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';
import { feed } from '../activity/feed.ts';

const { app, db, fx } = await startTestApp({ now: '2026-06-01T09:00:00Z' });

const store = await fx.store();
const token = await fx.merchantToken(store.id);
const get = (customerId: string, query: Record<string, string | number> = {}, tok = token) =>
  call(app, 'GET', `/api/v1/customers/${customerId}/attendance`, {
    token: tok,
    query: { store_id: store.id, ...query },
  });

describe('attendance', () => {
  it('lists class bookings newest first with class and occurrence context', async () => {
    const c = await fx.customer();
    const base = { kind: 'class_booking', customer_id: c.id };
    const early = await feed(app, store.id, {
      ...base,
      status: 'attended',
      class_name: 'Yoga',
      class_category: 'Mind',
      scheduled_date: '2026-05-01',
      start_time: '07:00',
      end_time: '08:00',
      class_instructor_name: 'Kim',
      occurrence_instructor_name: 'Lee',
      booking_date: '2026-04-28',
      booking_source: 'app',
      attended_at: '2026-05-01T06:01:00Z',
      created_at: '2026-04-28T12:00:00Z',
    });
    const late = await feed(app, store.id, {
      ...base,
      status: 'confirmed',
      class_name: 'Spin',
      scheduled_date: '2026-06-03',
      start_time: '18:30:00',
      end_time: '19:15:00',
      class_instructor_name: 'Kim',
      created_at: '2026-05-30T12:00:00Z',
    });
    const sameDayEarlier = await feed(app, store.id, {
      ...base,
      status: 'no_show',
      class_name: 'Spin',
      scheduled_date: '2026-06-03',
      start_time: '07:00',
      no_show_marked_at: '2026-06-03T07:30:00Z',
      created_at: '2026-05-31T12:00:00Z',
    });
    const undated = await feed(app, store.id, { ...base, status: 'waitlisted', created_at: '2026-05-31T13:00:00Z' });

    const res = await get(c.id);
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.bookings.map((b: any) => b.id),
      [late, sameDayEarlier, early, undated],
    );
    assert.deepEqual(res.body.bookings[2], {
      id: early,
      status: 'attended',
      booking_date: '2026-04-28',
      booking_source: 'app',
      class_name: 'Yoga',
      class_category: 'Mind',
      instructor_name: 'Lee',
      scheduled_date: '2026-05-01',
      start_time: '07:00:00',
      end_time: '08:00:00',
      attended_at: '2026-05-01T06:01:00.000Z',
      no_show_marked_at: null,
      cancelled_at: null,
      created_at: '2026-04-28T12:00:00.000Z',
    });
    assert.equal(res.body.bookings[0].instructor_name, 'Kim', 'falls back to the class default');
    assert.equal(res.body.bookings[0].start_time, '18:30:00');
    assert.equal(res.body.bookings[3].instructor_name, null);
    assert.deepEqual(res.body.pagination, { limit: 25, offset: 0, has_more: false, next_offset: 4 });
  });

  it('pages with limit and offset; has_more and next_offset tell where the next page starts', async () => {
    const c = await fx.customer();
    const ids: string[] = [];
    for (let d = 1; d <= 28; d++) {
      ids.unshift(
        await feed(app, store.id, {
          kind: 'class_booking',
          customer_id: c.id,
          status: 'attended',
          scheduled_date: `2026-05-${String(d).padStart(2, '0')}`,
          start_time: '10:00',
        }),
      );
    }
    const first = await get(c.id);
    assert.equal(first.body.bookings.length, 25);
    assert.deepEqual(first.body.pagination, { limit: 25, offset: 0, has_more: true, next_offset: 25 });
    const second = await get(c.id, { offset: 25 });
    assert.deepEqual(second.body.pagination, { limit: 25, offset: 25, has_more: false, next_offset: 28 });
    assert.deepEqual(
      [...first.body.bookings, ...second.body.bookings].map((b: any) => b.id),
      ids,
    );
    const page = await get(c.id, { limit: 10, offset: 10 });
    assert.deepEqual(
      page.body.bookings.map((b: any) => b.id),
      ids.slice(10, 20),
    );
    assert.deepEqual(page.body.pagination, { limit: 10, offset: 10, has_more: true, next_offset: 20 });
    const max = await get(c.id, { limit: 50 });
    assert.equal(max.body.bookings.length, 28);
    const beyond = await get(c.id, { offset: 100 });
    assert.deepEqual(beyond.body, {
      bookings: [],
      pagination: { limit: 25, offset: 100, has_more: false, next_offset: 100 },
    });
  });

  it('a member with no class bookings has an empty attendance', async () => {
    const c = await fx.customer();
    await fx.membership(store.id, c.id);
    const res = await get(c.id);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, { bookings: [], pagination: { limit: 25, offset: 0, has_more: false, next_offset: 0 } });
  });

  it('refuses a page size above 50 or below 1, and a negative offset', async () => {
    const c = await fx.customer();
    await fx.membership(store.id, c.id);
    for (const query of [{ limit: 51 }, { limit: 0 }, { offset: -1 }, { limit: 'ten' }]) {
      const res = await get(c.id, query as any);
      assert.equal(res.status, 400, JSON.stringify(query));
      assert.equal(errorCode(res), 'VALIDATION_FAILED');
    }
    const noStore = await call(app, 'GET', `/api/v1/customers/${c.id}/attendance`, { token });
    assert.equal(noStore.status, 400);
  });

  it('requires the classes entitlement', async () => {
    const c = await fx.customer();
    await fx.membership(store.id, c.id);
    const res = await get(c.id, {}, await fx.merchantToken(store.id, { entitlements: ['can_use_bookings'] }));
    assert.equal(res.status, 403);
    assert.equal(errorCode(res), 'MISSING_ENTITLEMENT');
    assert.equal((await get(c.id, {}, await fx.customerToken(c.id))).status, 403);
    assert.equal(
      (await call(app, 'GET', `/api/v1/customers/${c.id}/attendance`, { query: { store_id: store.id } })).status,
      401,
    );
  });

  it('a customer with no relationship, an erased one, or an unknown id reads as 404', async () => {
    const stranger = await fx.customer();
    const erased = await fx.customer();
    await feed(app, store.id, { kind: 'class_booking', customer_id: erased.id, status: 'attended' });
    await db.query('UPDATE customers SET erased_at = $2, name = NULL WHERE id = $1', [
      erased.id,
      '2026-05-30T00:00:00Z',
    ]);
    for (const id of [stranger.id, erased.id, '00000000-0000-4000-8000-000000000000']) {
      const res = await get(id);
      assert.equal(res.status, 404);
      assert.equal(errorCode(res), 'NOT_FOUND');
    }
    assert.equal((await get('not-a-uuid')).status, 400);
  });

  it("another store's customer reads as 404, and a shared customer's rows stay per store", async () => {
    const other = await fx.store();
    const theirs = await fx.customer();
    await feed(app, other.id, { kind: 'class_booking', customer_id: theirs.id, status: 'attended' });
    assert.equal((await get(theirs.id)).status, 404);

    const shared = await fx.customer();
    const mine = await feed(app, store.id, { kind: 'class_booking', customer_id: shared.id, status: 'attended' });
    await feed(app, other.id, { kind: 'class_booking', customer_id: shared.id, status: 'confirmed' });
    const res = await get(shared.id, { store_id: other.id });
    assert.deepEqual(
      res.body.bookings.map((b: any) => b.id),
      [mine],
      "the token's store wins over the query's store_id",
    );
  });

  it('an archived customer keeps their attendance readable', async () => {
    const c = await fx.customer();
    const id = await feed(app, store.id, { kind: 'class_booking', customer_id: c.id, status: 'attended' });
    await db.query(
      'UPDATE store_customers SET archived = true, archived_at = $3 WHERE store_id = $1 AND customer_id = $2',
      [store.id, c.id, '2026-05-01T00:00:00Z'],
    );
    const res = await get(c.id);
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.body.bookings.map((b: any) => b.id),
      [id],
    );
  });
});
