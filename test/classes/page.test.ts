// The booking page's classes door (issue 44): the week's classes with seats left for a shop whose page
// is on, a signed-in customer's booking or waitlist place, the offer email's link, and the customer's
// own acceptance through POST /api/v1/classes/bookings/{id}/accept (someone else's refused, nothing changed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../support/http.ts';
import { workerFor } from '../notifications/messages/support.ts';
import { api, classWorld, ok, rows, scheduled } from './helpers.ts';

const w = await classWorld({ now: '2026-06-01T09:00:00Z' });
await w.t.db.query(`UPDATE stores SET booking_page_slug = 'studio-44', booking_page_enabled = true WHERE id = $1`, [
  w.storeId,
]);
const PAGE = '/api/v1/book/studio-44/classes';

async function shopper(name: string, email: string) {
  const c = await w.t.fx.customer({ name, email });
  return { id: c.id, token: await w.t.fx.customerToken(c.id, ['customer:read', 'customer:write']) };
}

test("the page lists the week's live classes still ahead with seats left; nothing for a shop without classes; 404 for a page that is off", async () => {
  const none = await call(w.t.app, 'GET', PAGE);
  assert.equal(none.status, 200, JSON.stringify(none.body));
  assert.deepEqual(none.body, { timezone: 'Europe/London', from: '2026-06-01', to: '2026-06-07', occurrences: [] });

  const { classId, occurrenceId } = await scheduled(
    w,
    { name: 'Spin', capacity: 2, price_pence: 1200 },
    '2026-06-02T17:00:00.000Z',
  );
  const later = await scheduled(
    w,
    { name: 'Yoga', capacity: 1, promotion_cutoff_minutes: 60 },
    '2026-06-09T08:00:00.000Z',
  );
  const archived = await scheduled(w, { name: 'Old', capacity: 1 }, '2026-06-03T08:00:00.000Z');
  await ok(api(w, 'PATCH', `/${archived.classId}`, { archived: true }));
  await ok(
    api(w, 'POST', `/occurrences/${occurrenceId}/bookings`, { guest_name: 'Ann', guest_email: 'ann@example.test' }),
  );

  const week = await call(w.t.app, 'GET', PAGE);
  assert.equal(week.status, 200);
  assert.deepEqual(week.body.occurrences, [
    {
      id: occurrenceId,
      name: 'Spin',
      category: 'Cardio',
      starts_at: '2026-06-02T17:00:00.000Z',
      ends_at: '2026-06-02T17:45:00.000Z',
      instructor_name: 'Coach Kim',
      price_pence: 1200,
      capacity: 2,
      seats_left: 1,
      waitlisted: 0,
      joinable: 'book',
    },
  ]);
  assert.ok(classId);
  const next = await call(w.t.app, 'GET', PAGE, { query: { from: '2026-06-08' } });
  assert.deepEqual(
    next.body.occurrences.map((o: any) => [o.id, o.joinable]),
    [[later.occurrenceId, 'book']],
  );
  assert.equal(next.body.to, '2026-06-14');

  await w.t.db.query(`UPDATE stores SET booking_page_enabled = false WHERE id = $1`, [w.storeId]);
  const off = await call(w.t.app, 'GET', PAGE);
  await w.t.db.query(`UPDATE stores SET booking_page_enabled = true WHERE id = $1`, [w.storeId]);
  assert.equal(off.status, 404);
  assert.equal(off.body.error.code, 'NOT_FOUND');
});

test('a signed-in customer books a seat, then the waitlist when full; again is refused; a blocked customer is refused and nothing changes', async () => {
  const { occurrenceId } = await scheduled(w, { name: 'Box', capacity: 1 }, '2026-06-04T18:00:00.000Z');
  const ana = await shopper('Ana', 'ana.class@example.test');
  const ben = await shopper('Ben', 'ben.class@example.test');
  const book = (who: { token: string }) =>
    call(w.t.app, 'POST', `${PAGE}/occurrences/${occurrenceId}/bookings`, { token: who.token, body: {} });

  const first = await book(ana);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.equal(first.body.booking.status, 'confirmed');
  assert.equal(first.body.booking.customer_id, ana.id);
  assert.equal(first.body.booking.source, 'app');
  assert.equal(first.body.booking.waitlist_position, null);
  const second = await book(ben);
  assert.equal(second.body.booking.status, 'waitlisted');
  assert.equal(second.body.booking.waitlist_position, 1);
  const again = await book(ana);
  assert.equal(again.status, 409);
  assert.equal(again.body.error.code, 'ALREADY_BOOKED');
  // Booking made the customer one of the store's.
  assert.equal(
    (await rows(w, 'SELECT 1 FROM store_customers WHERE store_id = $1 AND customer_id = $2', [w.storeId, ana.id]))
      .length,
    1,
  );
  const listed = (await call(w.t.app, 'GET', PAGE)).body.occurrences.find((o: any) => o.id === occurrenceId);
  assert.deepEqual([listed.seats_left, listed.waitlisted, listed.joinable], [0, 1, 'waitlist']);

  const cy = await shopper('Cy', 'cy.class@example.test');
  await w.t.fx.membership(w.storeId, cy.id);
  await w.t.db.query('UPDATE store_customers SET blocked = true WHERE store_id = $1 AND customer_id = $2', [
    w.storeId,
    cy.id,
  ]);
  const blocked = await book(cy);
  assert.equal(blocked.status, 409);
  assert.equal(blocked.body.error.code, 'CUSTOMER_BLOCKED');
  assert.equal(
    (await rows(w, 'SELECT 1 FROM class_bookings WHERE occurrence_id = $1 AND customer_id = $2', [occurrenceId, cy.id]))
      .length,
    0,
  );
  // A merchant token is not a customer's: the page's booking door takes customer tokens only.
  const merchant = await call(w.t.app, 'POST', `${PAGE}/occurrences/${occurrenceId}/bookings`, {
    token: w.token,
    body: {},
  });
  assert.equal(merchant.status, 403);
});

test("the offer email links to the page; the customer reads and accepts their own offer; someone else's is 404 and changes nothing", async () => {
  const { occurrenceId } = await scheduled(
    w,
    { name: 'Row', capacity: 1, waitlist_mode: 'offer', offer_minutes: 30 },
    '2026-06-05T18:00:00.000Z',
  );
  const dee = await shopper('Dee', 'dee.class@example.test');
  const eve = await shopper('Eve', 'eve.class@example.test');
  const seat = (
    await ok(
      api(w, 'POST', `/occurrences/${occurrenceId}/bookings`, { guest_name: 'Fay', guest_email: 'fay@example.test' }),
    )
  ).booking;
  const waiting = (
    await call(w.t.app, 'POST', `${PAGE}/occurrences/${occurrenceId}/bookings`, { token: dee.token, body: {} })
  ).body.booking;
  // A guest booking the desk made with an email: its owner proves that email on the page.
  const guest = (
    await ok(
      api(w, 'POST', `/occurrences/${occurrenceId}/bookings`, {
        guest_name: 'Eve',
        guest_email: 'EVE.class@example.test',
      }),
    )
  ).booking;
  assert.equal(guest.status, 'waitlisted');
  await ok(api(w, 'POST', `/bookings/${seat.id}/cancel`, {}));

  const worker = workerFor(w.t);
  await worker.drain();
  const offer = await rows(
    w,
    `SELECT body_text, body_html FROM messages WHERE subject_id = $1 AND kind = 'class_offer'`,
    [waiting.id],
  );
  const link = `http://localhost:3000/book/studio-44?offer=${waiting.id}`;
  assert.equal(offer.length, 1);
  assert.ok(offer[0].body_text.includes(`sign in with your email on Test Salon's page: ${link}`), offer[0].body_text);
  assert.ok(offer[0].body_html.includes(`<a href="${link}">`), offer[0].body_html);

  const read = await call(w.t.app, 'GET', `${PAGE}/bookings/${waiting.id}`, { token: dee.token });
  assert.equal(read.status, 200, JSON.stringify(read.body));
  assert.deepEqual([read.body.booking.class_name, read.body.booking.status], ['Row', 'promotion_pending']);
  const notHers = await call(w.t.app, 'GET', `${PAGE}/bookings/${waiting.id}`, { token: eve.token });
  assert.equal(notHers.status, 404);

  const stolen = await call(w.t.app, 'POST', `/api/v1/classes/bookings/${waiting.id}/accept`, {
    token: eve.token,
    body: {},
  });
  assert.equal(stolen.status, 404);
  assert.equal(stolen.body.error.code, 'NOT_FOUND');
  assert.equal(
    (await rows(w, 'SELECT status FROM class_bookings WHERE id = $1', [waiting.id]))[0].status,
    'promotion_pending',
  );

  // The shared door keeps its rules: a merchant needs the classes entitlement, a customer the write scope.
  const noClasses = await w.t.fx.merchantToken(w.storeId, { entitlements: ['can_use_bookings'] });
  const unentitled = await call(w.t.app, 'POST', `/api/v1/classes/bookings/${waiting.id}/accept`, {
    token: noClasses,
    body: {},
  });
  assert.deepEqual([unentitled.status, unentitled.body.error.code], [403, 'MISSING_ENTITLEMENT']);
  const readOnly = await w.t.fx.customerToken(dee.id, ['customer:read']);
  const unscoped = await call(w.t.app, 'POST', `/api/v1/classes/bookings/${waiting.id}/accept`, {
    token: readOnly,
    body: {},
  });
  assert.deepEqual([unscoped.status, unscoped.body.error.code], [403, 'INSUFFICIENT_SCOPE']);
  assert.equal(
    (await rows(w, 'SELECT status FROM class_bookings WHERE id = $1', [waiting.id]))[0].status,
    'promotion_pending',
  );

  const accepted = await call(w.t.app, 'POST', `/api/v1/classes/bookings/${waiting.id}/accept`, {
    token: dee.token,
    body: {},
  });
  assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
  assert.deepEqual([accepted.body.booking.status, accepted.body.noop], ['confirmed', false]);
  const audit = await rows(
    w,
    `SELECT actor_kind, actor_id FROM audit_log WHERE entity_id = $1 AND action = 'class_booking.accept'`,
    [waiting.id],
  );
  assert.deepEqual(
    audit.map((a) => [a.actor_kind, a.actor_id]),
    [['customer', dee.id]],
  );

  // Eve's guest booking is hers by the email she proves, once it is offered.
  await ok(api(w, 'POST', `/bookings/${waiting.id}/cancel`, {}));
  const hers = await call(w.t.app, 'POST', `/api/v1/classes/bookings/${guest.id}/accept`, {
    token: eve.token,
    body: {},
  });
  assert.equal(hers.status, 200, JSON.stringify(hers.body));
  assert.equal(hers.body.booking.status, 'confirmed');
});
