// The manage link: signed, names one appointment of one store, sent in the confirmation email (with
// the .ics), expires when the appointment ends, refused once cancelled; cancel and reschedule are
// POSTs inside the customer's own rules, and a reschedule moves the booking only once the new time is secured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, errorCode } from '../support/http.ts';
import { createMessagesWorker } from '../../src/notifications/messages/worker.ts';
import { manageLinks } from '../../src/booking-page/page-deps.ts';
import { BOOK, pageHold, pageShop, signIn, type PageShop } from './support.ts';

const T10 = '2026-06-02T10:00:00.000Z';
const T12 = '2026-06-02T12:00:00.000Z';

async function book(w: PageShop, startsAt: string, email: string, me?: { token: string; customerId: string }) {
  const held = await pageHold(w, startsAt);
  assert.equal(held.status, 200, JSON.stringify(held.body));
  me ??= await signIn(w, email);
  const res = await call(w.t.app, 'POST', `${BOOK}/holds/${held.body.hold.id}/confirm`, {
    token: me.token,
    headers: { 'x-page-session': held.body.page_session },
    body: {},
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return {
    me,
    session: held.body.page_session as string,
    appointment: res.body.appointment,
    token: new URL(res.body.manage_url).hash.replace('#token=', ''),
  };
}

const manage = (
  w: PageShop,
  token: string,
  method = 'GET',
  path = '',
  body?: unknown,
  headers: Record<string, string> = {},
) => call(w.t.app, method, `${BOOK}/manage${path}`, { token, body, headers });

test('the confirmation email carries the manage link (token in the fragment) and the .ics', async () => {
  const w = await pageShop();
  const booked = await book(w, T10, 'mail@example.com');
  const worker = createMessagesWorker({
    db: w.t.db,
    clock: w.t.clock,
    config: w.t.config.messages,
    manageLink: manageLinks(w.t.config, w.t.clock),
  });
  const find = () =>
    w.smtp.received.find((m) => m.to.includes('mail@example.com') && /confirmed/i.test(m.mail.subject ?? ''));
  try {
    // On the PostgreSQL server the feed shows an event once every older transaction in the cluster
    // has finished: drain until the confirmation is planned and sent (at most two minutes).
    for (const deadline = Date.now() + 120_000; !find() && Date.now() < deadline; ) {
      await worker.drain();
      if (!find()) await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await worker.stop();
  }
  const confirmation = find();
  assert.ok(confirmation, 'a confirmation reached the SMTP server');
  const link = /http:\/\/localhost:3000\/book\/test-salon\/manage#token=([\w-]+\.[\w-]+\.[\w-]+)/.exec(
    confirmation.mail.text ?? '',
  );
  assert.ok(link, 'the text part carries the manage link');
  assert.ok((confirmation.mail.html || '').includes('href="http://localhost:3000/book/test-salon/manage#token='));
  assert.ok(confirmation.raw.includes('BEGIN:VCALENDAR'), 'the .ics is still attached');
  const read = await manage(w, link[1]);
  assert.equal(read.status, 200, JSON.stringify(read.body));
  assert.equal(read.body.appointment.id, booked.appointment.id);
});

test('getManagedBooking shows the booking and what may be done; a link for one appointment cannot act on another', async () => {
  const w = await pageShop({ settings: { cancellation_window_min: 60 } });
  const a = await book(w, T10, 'a@example.com');
  const b = await book(w, T12, 'b@example.com');
  const read = await manage(w, a.token);
  assert.equal(read.status, 200);
  assert.equal(read.body.appointment.id, a.appointment.id);
  assert.equal(read.body.can_cancel, true);
  assert.equal(read.body.can_reschedule, true);
  assert.equal(read.body.cancel_deadline, '2026-06-02T09:00:00.000Z');
  assert.equal(read.body.service_name, 'Haircut');
  // The link names its appointment: cancelling with a's link touches a only.
  const cancelled = await manage(w, a.token, 'POST', '/cancel', {});
  assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
  assert.equal(cancelled.body.appointment.id, a.appointment.id);
  const statuses = await w.t.db.query('SELECT id, status FROM appointments ORDER BY starts_at');
  assert.deepEqual(
    statuses.rows.map((r: any) => [r.id, r.status]),
    [
      [a.appointment.id, 'cancelled'],
      [b.appointment.id, 'confirmed'],
    ],
  );
  // A customer token, a forged token, or a link of another store's page is refused.
  for (const bad of [a.me.token, `${b.token.slice(0, -4)}AAAA`]) {
    const res = await manage(w, bad);
    assert.equal(res.status, 401);
    assert.equal(errorCode(res), 'MANAGE_LINK_INVALID');
  }
  const other = await w.t.fx.store({ name: 'Elsewhere' });
  await w.t.db.query(`UPDATE stores SET booking_page_slug = 'elsewhere', booking_page_enabled = true WHERE id = $1`, [
    other.id,
  ]);
  const cross = await call(w.t.app, 'GET', '/api/v1/book/elsewhere/manage', { token: b.token });
  assert.equal(errorCode(cross), 'MANAGE_LINK_INVALID');
  // A GET never changes anything: b is still confirmed after all of the above.
  assert.equal(
    (await w.t.db.query('SELECT status FROM appointments WHERE id = $1', [b.appointment.id])).rows[0].status,
    'confirmed',
  );
});

test('the link is refused once the booking is cancelled, and after the appointment ends', async () => {
  const w = await pageShop();
  const a = await book(w, T10, 'end@example.com');
  const b = await book(w, T12, 'end2@example.com');
  assert.equal((await manage(w, a.token, 'POST', '/cancel', { reason: 'Cannot come' })).status, 200);
  const after = await manage(w, a.token);
  assert.equal(after.status, 401);
  assert.equal(errorCode(after), 'MANAGE_LINK_INVALID');
  assert.match(after.body.error.message, /cancelled/);
  assert.equal(errorCode(await manage(w, a.token, 'POST', '/cancel', {})), 'MANAGE_LINK_INVALID');

  w.t.clock.set('2026-06-02T13:00:00.000Z'); // b ended at 13:00
  const ended = await manage(w, b.token);
  assert.equal(ended.status, 401);
  assert.equal(errorCode(ended), 'MANAGE_LINK_INVALID');
});

test('cancel follows the customer cancel rules: refused inside the window, and nothing changes', async () => {
  const w = await pageShop({ settings: { cancellation_window_min: 24 * 60 } });
  const a = await book(w, '2026-06-03T10:00:00.000Z', 'window@example.com');
  w.t.clock.set('2026-06-02T12:00:00.000Z');
  const read = await manage(w, a.token);
  assert.equal(read.body.can_cancel, false);
  const res = await manage(w, a.token, 'POST', '/cancel', {});
  assert.equal(res.status, 409);
  assert.equal(errorCode(res), 'CANCELLATION_WINDOW');
  assert.equal((await w.t.db.query('SELECT status FROM appointments')).rows[0].status, 'confirmed');
});

test('reschedule moves the booking to the held time: same appointment, deposit kept, one rescheduled event, the hold ended', async () => {
  const w = await pageShop();
  const a = await book(w, T10, 'move@example.com');
  // A deposit the customer has paid (recorded as the payment provider would): a move must not ask again.
  await w.t.db.query(`UPDATE appointments SET deposit_pence = 1000, payment_status = 'deposit_paid' WHERE id = $1`, [
    a.appointment.id,
  ]);
  const held = await pageHold(w, T12);
  const before = (await w.t.db.query(`SELECT coalesce(max(seq), 0) AS seq FROM events`)).rows[0].seq;
  const res = await manage(
    w,
    a.token,
    'POST',
    '/reschedule',
    { hold_id: held.body.hold.id },
    { 'x-page-session': held.body.page_session },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.appointment.id, a.appointment.id, 'the same booking');
  assert.equal(res.body.appointment.starts_at, T12);
  assert.equal(res.body.appointment.customer_id, a.me.customerId);
  const rows = await w.t.db.query(
    'SELECT id, starts_at, status, deposit_pence, payment_status FROM appointments ORDER BY starts_at',
  );
  assert.deepEqual(
    rows.rows.map((r: any) => [r.id, new Date(r.starts_at).toISOString(), r.status, r.deposit_pence, r.payment_status]),
    [[a.appointment.id, T12, 'confirmed', 1000, 'deposit_paid']],
  );
  const hold = (
    await w.t.db.query(
      'SELECT released_at IS NOT NULL AS ended, release_reason, appointment_id FROM holds WHERE id = $1',
      [held.body.hold.id],
    )
  ).rows[0];
  assert.deepEqual(hold, { ended: true, release_reason: 'confirmed', appointment_id: a.appointment.id });
  const events = await w.t.db.query(
    `SELECT type, data->'previous'->>'starts_at' AS previous FROM events WHERE seq > $1 ORDER BY seq`,
    [before],
  );
  assert.deepEqual(events.rows.map((r: any) => r.type).sort(), ['appointment.rescheduled', 'hold.released']);
  assert.equal(events.rows.find((r: any) => r.type === 'appointment.rescheduled')?.previous, T10);
  // The old link names the same booking (good until the old end); the fresh one lasts to the new end.
  assert.equal((await manage(w, a.token)).body.appointment.starts_at, T12);
  const fresh = new URL(res.body.manage_url).hash.replace('#token=', '');
  assert.equal((await manage(w, fresh)).body.appointment.starts_at, T12);
  // The same hold cannot move it again.
  const again = await manage(
    w,
    a.token,
    'POST',
    '/reschedule',
    { hold_id: held.body.hold.id },
    { 'x-page-session': held.body.page_session },
  );
  assert.equal(errorCode(again), 'HOLD_RELEASED');
});

test('reschedule is refused inside the cancellation window, and for another party size; the booking and the hold stay', async () => {
  const w = await pageShop({ settings: { cancellation_window_min: 48 * 60 } });
  const a = await book(w, T10, 'late@example.com');
  const held = await pageHold(w, T12);
  const move = () =>
    manage(
      w,
      a.token,
      'POST',
      '/reschedule',
      { hold_id: held.body.hold.id },
      { 'x-page-session': held.body.page_session },
    );
  const res = await move();
  assert.equal(res.status, 409, JSON.stringify(res.body));
  assert.equal(errorCode(res), 'CANCELLATION_WINDOW');
  assert.equal(res.body.error.message, 'Within 2880 minutes of the start the booking can only be moved by the shop');
  // Outside the window, a hold whose party differs from the booking's is refused: a move keeps what was booked.
  await w.t.db.query('UPDATE stores SET cancellation_window_min = 0 WHERE id = $1', [w.storeId]);
  await w.t.db.query('UPDATE appointments SET party_size = 2 WHERE id = $1', [a.appointment.id]);
  const other = await move();
  assert.equal(other.status, 400, JSON.stringify(other.body));
  assert.equal(errorCode(other), 'VALIDATION_FAILED');
  const rows = await w.t.db.query('SELECT starts_at, status FROM appointments');
  assert.deepEqual(
    rows.rows.map((r: any) => [new Date(r.starts_at).toISOString(), r.status]),
    [[T10, 'confirmed']],
  );
  assert.equal(
    (await w.t.db.query('SELECT released_at FROM holds WHERE id = $1', [held.body.hold.id])).rows[0].released_at,
    null,
  );
});

test('reschedule keeps the old booking when the new time cannot be secured (lapsed hold, taken meanwhile)', async () => {
  const w = await pageShop();
  const a = await book(w, T10, 'keep@example.com');
  const held = await pageHold(w, T12, { unitId: w.units[0] });
  w.t.clock.advance(11 * 60_000);
  // Someone else takes the lapsed hold's time.
  const rival = await book(w, T12, 'rival@example.com');
  assert.equal(rival.appointment.starts_at, T12);
  const res = await manage(
    w,
    a.token,
    'POST',
    '/reschedule',
    { hold_id: held.body.hold.id },
    { 'x-page-session': held.body.page_session },
  );
  assert.equal(res.status, 409, JSON.stringify(res.body));
  assert.ok(['HOLD_EXPIRED', 'SLOT_TAKEN', 'SLOT_UNAVAILABLE'].includes(errorCode(res)));
  const mine = await w.t.db.query('SELECT starts_at, status FROM appointments WHERE id = $1', [a.appointment.id]);
  assert.equal(mine.rows[0].status, 'confirmed', 'the old booking stands');
  assert.equal(
    (await w.t.db.query(`SELECT count(*)::int AS n FROM appointments WHERE customer_id = $1`, [a.me.customerId]))
      .rows[0].n,
    1,
  );
  // A hold of another browser session cannot be used either.
  const theirs = await pageHold(w, '2026-06-02T14:00:00.000Z');
  const stolen = await manage(
    w,
    a.token,
    'POST',
    '/reschedule',
    { hold_id: theirs.body.hold.id },
    { 'x-page-session': held.body.page_session },
  );
  assert.equal(stolen.status, 404);
});

test('a move that changes what is booked is priced as a fresh booking, quoted on the hold first; the deposit still due follows', async () => {
  // The haircut: 45 minutes at £30, moved onto "Long hair" (60 minutes, £38) with "Hot towel" (10 minutes, £5).
  const w = await pageShop({
    service: { duration_min: 45, price_pence: 3000, deposit_policy: JSON.stringify({ percent: 20 }) },
  });
  const long = (
    await w.t.db.query<{ id: string }>(
      `INSERT INTO service_variants (store_id, service_id, name, duration_min, price_pence) VALUES ($1, $2, 'Long hair', 60, 3800) RETURNING id`,
      [w.storeId, w.serviceId],
    )
  ).rows[0].id;
  const towel = (
    await w.t.db.query<{ id: string }>(
      `INSERT INTO service_addons (store_id, service_id, name, extra_min, extra_pence) VALUES ($1, $2, 'Hot towel', 10, 500) RETURNING id`,
      [w.storeId, w.serviceId],
    )
  ).rows[0].id;
  const a = await book(w, T10, 'dearer@example.com');
  assert.deepEqual(
    [a.appointment.price_pence, a.appointment.deposit_pence, a.appointment.status],
    [3000, 600, 'pending_payment'],
  );
  const read = await manage(w, a.token);
  assert.deepEqual([read.body.variant_id, read.body.addon_ids], [null, []]);

  const held = await pageHold(w, T12, { body: { variant_id: long, addon_ids: [towel] } });
  assert.equal(held.status, 200, JSON.stringify(held.body));
  // The quote the page shows before the customer confirms: what a fresh booking of the hold costs.
  assert.deepEqual(
    [held.body.hold.price_pence, held.body.hold.deposit_pence, held.body.hold.currency],
    [4300, 860, 'GBP'],
  );
  const res = await manage(
    w,
    a.token,
    'POST',
    '/reschedule',
    { hold_id: held.body.hold.id },
    { 'x-page-session': held.body.page_session },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const moved = res.body.appointment;
  assert.deepEqual(
    [
      moved.id,
      moved.starts_at,
      moved.ends_at,
      moved.price_pence,
      moved.deposit_pence,
      moved.balance_pence,
      moved.status,
    ],
    [a.appointment.id, T12, '2026-06-02T13:10:00.000Z', 4300, 860, 4300, 'pending_payment'],
  );
  const after = await manage(w, a.token);
  assert.deepEqual([after.body.variant_id, after.body.addon_ids], [long, [towel]]);
  // The change email's event carries the new price.
  const event = await w.t.db.query(`SELECT data FROM events WHERE type = 'appointment.rescheduled' AND store_id = $1`, [
    w.storeId,
  ]);
  assert.deepEqual(
    event.rows.map((r: any) => [r.data.price_pence, r.data.deposit_pence]),
    [[4300, 860]],
  );
});

test('a move of the same choice to another time keeps the snapshotted price, even after the service price changed', async () => {
  const w = await pageShop({ service: { duration_min: 45, price_pence: 3000 } });
  const a = await book(w, T10, 'same@example.com');
  await w.t.db.query('UPDATE services SET price_pence = 9900 WHERE id = $1', [w.serviceId]);
  const held = await pageHold(w, T12);
  assert.equal(held.body.hold.price_pence, 9900, 'a fresh booking would cost the new price');
  const res = await manage(
    w,
    a.token,
    'POST',
    '/reschedule',
    { hold_id: held.body.hold.id },
    { 'x-page-session': held.body.page_session },
  );
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(
    [res.body.appointment.starts_at, res.body.appointment.price_pence, res.body.appointment.status],
    [T12, 3000, 'confirmed'],
  );
});
