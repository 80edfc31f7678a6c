import { test } from 'node:test';
import assert from 'node:assert/strict';
import ICAL from 'ical.js';
import { call, errorCode } from '../../support/http.ts';
import { booked, post, world } from '../appointments/helpers.ts';

const w = await world({ now: '2026-06-01T09:00:00Z' }, { name: 'Feed Salon', timezone: 'Europe/London' });
const { t } = w;
const FEED = `/api/v1/bookings/units/${w.unitId}/calendar-feed`;

const fetchFeed = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url: new URL(url).pathname, headers });

function events(body: string) {
  const cal = new ICAL.Component(ICAL.parse(body));
  // The feed's own VTIMEZONE defines the zone: instants below are computed from it.
  for (const tz of cal.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(tz);
  return { cal, events: cal.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v)) };
}

const first = await booked(w, {
  starts_at: '2026-06-10T09:00:00.000Z',
  ends_at: '2026-06-10T09:45:00.000Z',
  guest_name: 'Gail Guest',
  guest_email: 'gail@example.com',
});
const old = await booked(w, { starts_at: '2026-05-12T09:00:00.000Z', ends_at: '2026-05-12T10:00:00.000Z' }); // 20 days back: in
await booked(w, { starts_at: '2026-04-20T09:00:00.000Z', ends_at: '2026-04-20T10:00:00.000Z' }); // 42 days back: out
await booked(w, { starts_at: '2026-12-20T10:00:00.000Z', ends_at: '2026-12-20T11:00:00.000Z' }); // 202 days ahead: out

test('GET answers the same secret URL until rotated; the database keeps no token', async () => {
  const a = await call(t.app, 'GET', FEED, { token: w.token });
  assert.equal(a.status, 200);
  assert.match(a.body.url, /^http:\/\/[^/]+\/feeds\/[A-Za-z0-9_-]{43}\.ics$/);
  const b = await call(t.app, 'GET', FEED, { token: w.token });
  assert.equal(b.body.url, a.body.url);
  const token = a.body.url.split('/feeds/')[1].slice(0, -4);
  const rows = (await t.db.query('SELECT nonce, token_hash FROM unit_calendar_feeds WHERE unit_id = $1', [w.unitId]))
    .rows;
  assert.equal(rows.length, 1);
  assert.ok(!JSON.stringify(rows).includes(token));
});

test("the feed is valid iCalendar with the store zone's VTIMEZONE, 30 days back to 180 ahead", async () => {
  const {
    body: { url },
  } = await call(t.app, 'GET', FEED, { token: w.token });
  const res = await fetchFeed(url);
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^text\/calendar/);
  const { cal, events: evs } = events(res.body);
  assert.equal(cal.getFirstSubcomponent('vtimezone')!.getFirstPropertyValue('tzid'), 'Europe/London');
  assert.deepEqual(
    evs.map((e) => e.uid),
    [`${old}.unit@bookings-back-office`, `${first}.unit@bookings-back-office`],
  );
  const e = evs[1];
  // 10:00 in London (BST) with its TZID.
  assert.equal(e.startDate.toString(), '2026-06-10T10:00:00');
  assert.equal(e.component.getFirstProperty('dtstart')!.getParameter('tzid'), 'Europe/London');
  assert.equal(e.startDate.toJSDate().toISOString(), '2026-06-10T09:00:00.000Z');
  assert.equal(e.sequence, 0);
  assert.equal(e.component.getFirstPropertyValue('status'), 'CONFIRMED');
  // Customers' contacts stay out unless the store allows them.
  assert.ok(!res.body.includes('gail@example.com') && !res.body.includes('Gail Guest'));
});

test('ETag and Last-Modified answer 304 while nothing changed; a move raises SEQUENCE, keeps the UID', async () => {
  const {
    body: { url },
  } = await call(t.app, 'GET', FEED, { token: w.token });
  const a = await fetchFeed(url);
  const etag = String(a.headers.etag);
  assert.equal((await fetchFeed(url, { 'if-none-match': etag })).statusCode, 304);
  assert.equal((await fetchFeed(url, { 'if-modified-since': String(a.headers['last-modified']) })).statusCode, 304);

  const moved = await post(w, 'reschedule', {
    appointment_id: first,
    unit_id: w.unitId,
    starts_at: '2026-06-10T13:00:00.000Z',
    ends_at: '2026-06-10T13:45:00.000Z',
  });
  assert.equal(moved.status, 200, JSON.stringify(moved.body));
  const b = await fetchFeed(url, { 'if-none-match': etag });
  assert.equal(b.statusCode, 200);
  assert.notEqual(b.headers.etag, etag);
  const e = events(b.body).events.find((x) => x.uid === `${first}.unit@bookings-back-office`)!;
  assert.equal(e.sequence, 1);
  assert.equal(e.startDate.toString(), '2026-06-10T14:00:00');

  const cancelled = await post(w, 'cancel', { appointment_id: first });
  assert.equal(cancelled.status, 200);
  const c = events((await fetchFeed(url)).body).events.find((x) => x.uid === `${first}.unit@bookings-back-office`)!;
  assert.equal(c.component.getFirstPropertyValue('status'), 'CANCELLED');
  assert.equal(c.sequence, 2);
});

test("customer contact details appear only when the store's setting allows", async () => {
  const id = await booked(w, {
    starts_at: '2026-06-11T09:00:00.000Z',
    ends_at: '2026-06-11T09:30:00.000Z',
    guest_name: 'Hana Guest',
    guest_email: 'hana@example.com',
  });
  const {
    body: { url },
  } = await call(t.app, 'GET', FEED, { token: w.token });
  assert.ok(!(await fetchFeed(url)).body.includes('hana@example.com'));
  const set = await call(t.app, 'PATCH', '/api/v1/bookings/settings', {
    token: w.token,
    body: { store_id: w.storeId, calendar_feed_contacts: true },
  });
  assert.equal(set.status, 200, JSON.stringify(set.body));
  const e = events((await fetchFeed(url)).body).events.find((x) => x.uid === `${id}.unit@bookings-back-office`)!;
  assert.match(e.summary, /Hana Guest/);
  assert.match(e.description, /hana@example\.com/);
});

test('POST rotates: a new URL, and the old one answers 404 at once', async () => {
  const before = (await call(t.app, 'GET', FEED, { token: w.token })).body.url;
  const rotated = await call(t.app, 'POST', FEED, { token: w.token });
  assert.equal(rotated.status, 200);
  assert.notEqual(rotated.body.url, before);
  const gone = await fetchFeed(before);
  assert.equal(gone.statusCode, 404);
  assert.equal(JSON.parse(gone.body).error.code, 'NOT_FOUND');
  assert.equal((await fetchFeed(rotated.body.url)).statusCode, 200);
  assert.equal((await call(t.app, 'GET', FEED, { token: w.token })).body.url, rotated.body.url);
});

test("another store's unit is not found; a made-up token is not found", async () => {
  const other = await t.fx.store();
  const otherToken = await t.fx.merchantToken(other.id);
  const res = await call(t.app, 'GET', FEED, { token: otherToken });
  assert.equal(res.status, 404);
  assert.equal(errorCode(res), 'NOT_FOUND');
  assert.equal((await call(t.app, 'POST', FEED, { token: otherToken })).status, 404);
  assert.equal((await t.app.inject({ method: 'GET', url: `/feeds/${'A'.repeat(43)}.ics` })).statusCode, 404);
  assert.equal((await t.app.inject({ method: 'GET', url: '/feeds/nothing' })).statusCode, 404);
});

test('first reads at once all answer the one URL: the feed row is made once, and a read that lost the insert race finds it (never a 5xx)', async () => {
  const unit = await t.fx.unit(w.storeId, { display_name: 'Rae' });
  const url = `/api/v1/bookings/units/${unit.id}/calendar-feed`;
  const answers = await Promise.all(Array.from({ length: 12 }, () => call(t.app, 'GET', url, { token: w.token })));
  assert.deepEqual(
    answers.map((a) => a.status),
    Array(12).fill(200),
  );
  assert.equal(new Set(answers.map((a) => a.body.url)).size, 1);
  assert.equal((await t.db.query('SELECT 1 FROM unit_calendar_feeds WHERE unit_id = $1', [unit.id])).rows.length, 1);
});

test("the classes a unit teaches are in its feed, a cancelled one as STATUS:CANCELLED; another unit's class is not", async () => {
  const other = await t.fx.unit(w.storeId, { display_name: 'Other teacher' });
  const cls = await call(t.app, 'POST', '/api/v1/classes', {
    token: w.token,
    body: { name: 'Yoga', duration_min: 60, capacity: 8, instructor_unit_id: w.unitId },
  });
  assert.equal(cls.status, 200, JSON.stringify(cls.body));
  const schedule = (starts_at: string, instructor?: string) =>
    call(t.app, 'POST', `/api/v1/classes/${cls.body.class.id}/occurrences`, {
      token: w.token,
      body: { starts_at, ...(instructor ? { instructor_unit_id: instructor } : {}) },
    });
  const taught = await schedule('2026-06-15T17:00:00.000Z');
  const dropped = await schedule('2026-06-16T17:00:00.000Z');
  const notMine = await schedule('2026-06-17T17:00:00.000Z', other.id);
  for (const o of [taught, dropped, notMine]) assert.equal(o.status, 200, JSON.stringify(o.body));
  assert.equal(
    (
      await call(t.app, 'POST', `/api/v1/classes/occurrences/${dropped.body.occurrence.id}/cancel`, {
        token: w.token,
        body: {},
      })
    ).status,
    200,
  );

  const {
    body: { url },
  } = await call(t.app, 'GET', FEED, { token: w.token });
  const res = await fetchFeed(url);
  assert.equal(res.statusCode, 200);
  const classes = events(res.body).events.filter((e) => e.uid.endsWith('.class@bookings-back-office'));
  assert.deepEqual(
    classes.map((e) => e.uid),
    [taught, dropped].map((o) => `${o.body.occurrence.id}.class@bookings-back-office`),
  );
  const [yoga, cancelled] = classes;
  // 18:00 in London (BST), with the zone's TZID.
  assert.equal(yoga.startDate.toString(), '2026-06-15T18:00:00');
  assert.equal(yoga.endDate.toJSDate().toISOString(), '2026-06-15T18:00:00.000Z');
  assert.equal(yoga.component.getFirstProperty('dtstart')!.getParameter('tzid'), 'Europe/London');
  assert.equal(yoga.summary, 'Yoga (class)');
  assert.equal(yoga.component.getFirstPropertyValue('status'), 'CONFIRMED');
  assert.equal(yoga.sequence, 0);
  assert.equal(cancelled.component.getFirstPropertyValue('status'), 'CANCELLED');
  assert.equal(cancelled.sequence, 1);
  // The other teacher's class is in the other teacher's feed.
  const theirs = await call(t.app, 'GET', `/api/v1/bookings/units/${other.id}/calendar-feed`, { token: w.token });
  const theirEvents = events((await fetchFeed(theirs.body.url)).body).events.map((e) => e.uid);
  assert.deepEqual(theirEvents, [`${notMine.body.occurrence.id}.class@bookings-back-office`]);
});
