import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../support/app.ts';
import { call, errorCode } from '../support/http.ts';
import { planOnce } from '../../src/notifications/messages/planner.ts';

const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
const { app, db, fx } = t;

const store = await fx.store({ name: 'Moving In', timezone: 'Europe/London' });
const token = await fx.merchantToken(store.id);
const ana = await fx.unit(store.id, { display_name: 'Ana' });
const ben = await fx.unit(store.id, { display_name: 'Ben' });
await fx.service(store.id, { name: 'Cut', duration_min: 45, price_pence: 3000 });
const known = await fx.customer({ name: 'Kim Known', email: 'kim@example.com' });

const upload = (csv: string, query: Record<string, string> = {}) =>
  call(app, 'POST', '/api/v1/imports/appointments', {
    token,
    body: csv,
    query: { store_id: store.id, ...query },
    headers: { 'content-type': 'text/csv' },
  });

const FILE = [
  'external_id,unit,service,start,minutes,name,email,mobile',
  'A1,Ana,Cut,2026-06-10 10:00,,Kim Known,kim@example.com,', // 2: known customer, the service's 45 minutes
  `A2,${ben.id},,2026-06-10 10:00,30,Gus Guest,gus@example.com,07812 345631`, // 3: by unit id, a guest
  'A3,Ana,Cut,2026-06-10 10:30,,Olly Overlap,,', // 4: overlaps row 2 on Ana
  'A4,Nobody,Cut,2026-06-10 12:00,,X,,', // 5
  'A5,Ana,Perm,2026-06-10 12:00,,X,,', // 6
  'A6,Ana,Cut,10 June 2026,,X,,', // 7
  'A7,Ana,Cut,2027-03-28 01:30,,Spring Gap,,', // 8: the clocks go 01:00 -> 02:00 that night
  'A8,Ana,Cut,2026-06-11 09:00,,X,bad@,', // 9
  'A9,Ana,Cut,2026-06-11 10:00,,X,,+1 202 555 0123', // 10
  'A10,Ben,Cut,2026-06-12 09:00,,Time Off,,', // 11: Ben is off that morning
  'A2,Ana,Cut,2026-06-13 09:00,,Dup,,', // 12: A2 again in the file
  'A11,Ana,Cut,10/06/2026 14:00,60,Day First,,', // 13: UK day-first dates are read too
  'A12,Ana,Cut,2026-05-20 10:00,,History,,', // 14: in the past: imported as completed
].join('\n');

await db.query(
  `INSERT INTO time_off (store_id, unit_id, starts_at, ends_at, kind) VALUES ($1, $2, '2026-06-12T07:00:00Z', '2026-06-12T11:00:00Z', 'time_off')`,
  [store.id, ben.id],
);

test('appointments are booked through the constraint; each bad row is reported by line and never stops the rest', async () => {
  const dry = await upload(FILE, { dry_run: 'true' });
  assert.equal(dry.status, 200, JSON.stringify(dry.body));
  assert.equal(
    Number((await db.query('SELECT count(*) FROM appointments WHERE store_id = $1', [store.id])).rows[0].count),
    0,
  );

  const res = await upload(FILE);
  assert.equal(res.status, 200);
  assert.deepEqual({ ...dry.body, dry_run: false }, res.body);
  assert.deepEqual([res.body.rows, res.body.created, res.body.unchanged, res.body.skipped], [13, 4, 0, 9]);
  assert.deepEqual(
    res.body.errors.map((e: any) => [e.row, e.field, e.code]),
    [
      [4, 'start', 'SLOT_TAKEN'],
      [5, 'unit', 'UNKNOWN_UNIT'],
      [6, 'service', 'UNKNOWN_SERVICE'],
      [7, 'start', 'INVALID_START'],
      [8, 'start', 'NONEXISTENT_LOCAL_TIME'],
      [9, 'email', 'INVALID_EMAIL'],
      [10, 'mobile', 'INVALID_PHONE'],
      [11, 'start', 'UNIT_UNAVAILABLE'],
      [12, 'external_id', 'DUPLICATE_IN_FILE'],
    ],
  );
  const rows = (
    await db.query(
      `SELECT client_token, unit_id, customer_id, guest_name, guest_phone, starts_at, ends_at, status, price_pence, source
       FROM appointments WHERE store_id = $1 ORDER BY client_token`,
      [store.id],
    )
  ).rows;
  assert.deepEqual(
    rows.map((r) => [
      r.client_token,
      r.unit_id,
      r.customer_id,
      r.guest_name,
      r.guest_phone,
      new Date(r.starts_at).toISOString(),
      new Date(r.ends_at).toISOString(),
      r.status,
      r.price_pence,
      r.source,
    ]),
    [
      // 10:00 in London in June is 09:00Z (summer time).
      [
        'import:A1',
        ana.id,
        known.id,
        null,
        null,
        '2026-06-10T09:00:00.000Z',
        '2026-06-10T09:45:00.000Z',
        'confirmed',
        3000,
        'import',
      ],
      [
        'import:A11',
        ana.id,
        null,
        'Day First',
        null,
        '2026-06-10T13:00:00.000Z',
        '2026-06-10T14:00:00.000Z',
        'confirmed',
        3000,
        'import',
      ],
      [
        'import:A12',
        ana.id,
        null,
        'History',
        null,
        '2026-05-20T09:00:00.000Z',
        '2026-05-20T09:45:00.000Z',
        'completed',
        3000,
        'import',
      ],
      [
        'import:A2',
        ben.id,
        null,
        'Gus Guest',
        '+447812345631',
        '2026-06-10T09:00:00.000Z',
        '2026-06-10T09:30:00.000Z',
        'confirmed',
        0,
        'import',
      ],
    ],
  );
  // The known customer now has a relationship with the store.
  assert.equal(
    (
      await db.query('SELECT count(*) FROM store_customers WHERE store_id = $1 AND customer_id = $2', [
        store.id,
        known.id,
      ])
    ).rows[0].count,
    1,
  );
});

test('imports emit events marked source import and plan no customer messages', async () => {
  const events = (
    await db.query(
      "SELECT type, data->>'source' AS source FROM events WHERE store_id = $1 AND type LIKE 'appointment.%'",
      [store.id],
    )
  ).rows;
  assert.equal(events.length, 4);
  assert.ok(events.every((e) => e.type === 'appointment.created' && e.source === 'import'));
  while ((await planOnce(db, t.clock, { mailDomain: 'example.test' })) > 0);
  assert.equal(
    Number((await db.query('SELECT count(*) FROM messages WHERE store_id = $1', [store.id])).rows[0].count),
    0,
  );
});

test('the same file again creates nothing; a row without external_id is matched by its content', async () => {
  const again = await upload(FILE);
  assert.deepEqual([again.body.created, again.body.unchanged, again.body.skipped], [0, 4, 9]);
  const plain = 'unit,service,start,email\nBen,Cut,2026-06-15 15:00,kim@example.com\n';
  assert.equal((await upload(plain)).body.created, 1);
  const twice = await upload(plain);
  assert.deepEqual([twice.body.created, twice.body.unchanged], [0, 1]);
  assert.equal(
    Number((await db.query('SELECT count(*) FROM appointments WHERE store_id = $1', [store.id])).rows[0].count),
    5,
  );
});

test('a row imported before at another time is refused, not moved', async () => {
  const res = await upload('external_id,unit,service,start\nA1,Ana,Cut,2026-06-10 16:00\n');
  assert.deepEqual(
    res.body.errors.map((e: any) => e.code),
    ['ALREADY_IMPORTED'],
  );
});

test('an appointment file without a unit column, or with an unknown one, is refused whole', async () => {
  const res = await upload('staff,service,when\nAna,Cut,2026-06-20 10:00\n');
  assert.equal(res.status, 400);
  assert.equal(errorCode(res), 'UNKNOWN_COLUMN');
  const mapped = await upload('staff;service;when\nAna;Cut;2026-06-20 10:00\n', {
    mapping: JSON.stringify({ when: 'start' }),
  });
  assert.equal(mapped.status, 200, JSON.stringify(mapped.body));
  assert.equal(mapped.body.created, 1);
});
