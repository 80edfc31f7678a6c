// One-statement writes (db/functions/write-helpers.sql, src/platform/one-statement.ts) keep what inTransaction gave:
// the SQL presenter answers what presentAppointment answers, the SQL flush writes the audit rows and
// events the Node flush writes, and the Idempotency-Key claim refuses, expires and serialises as
// before. Exercised through the merchant create (bbo_merchant_book).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { startTestApp } from '../support/app.ts';
import { call, errorCode } from '../support/http.ts';
import { APPOINTMENT_COLUMNS, type AppointmentRow } from '../../src/bookings/booking-authority.ts';
import { presentAppointment } from '../../src/bookings/appointments/appointments.service.ts';
import { writeEvents } from '../../src/events/outbox.ts';
import { writeAuditRows, type AuditRow } from '../../src/platform/audit.ts';
import { callSql } from '../../src/platform/one-statement.ts';
import { refusalOf } from '../../src/platform/db/pg-errors.ts';

const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
const store = await t.fx.store({ timezone: 'Europe/London' });
const unit = await t.fx.unit(store.id);
const token = await t.fx.merchantToken(store.id);
const BASE = '/api/v1/bookings/appointments';
const book = (body: Record<string, unknown>, idempotencyKey?: string) =>
  call(t.app, 'POST', BASE, {
    token,
    idempotencyKey,
    body: { store_id: store.id, unit_id: unit.id, guest_email: 'g@example.com', ...body },
  });

test('the SQL presenter answers exactly what presentAppointment answers, balance included', async () => {
  const res = await book({
    starts_at: '2026-06-02T10:00:00Z',
    ends_at: '2026-06-02T11:00:00Z',
    price_pence: 5000,
    guest_name: 'Ann',
    guest_phone: '+447812345678',
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.appointment.id;
  // Every money state outstandingOf distinguishes.
  const states = [
    { payment_status: 'none', deposit_pence: 0, settled_pence: 0 },
    { payment_status: 'deposit_paid', deposit_pence: 1500, settled_pence: 0 },
    { payment_status: 'deposit_paid', deposit_pence: 1500, settled_pence: 1000 },
    { payment_status: 'failed', deposit_pence: 1500, settled_pence: 0 },
    { payment_status: 'paid', deposit_pence: 1500, settled_pence: 0 },
    { payment_status: 'none', deposit_pence: 0, settled_pence: 9000 },
  ];
  for (const s of states) {
    await t.db.query(
      'UPDATE appointments SET payment_status = $2, deposit_pence = $3, settled_pence = $4 WHERE id = $1',
      [id, s.payment_status, s.deposit_pence, s.settled_pence],
    );
    const row = (
      await t.db.query<AppointmentRow>(`SELECT ${APPOINTMENT_COLUMNS} FROM appointments WHERE id = $1`, [id])
    ).rows[0];
    const sql = (
      await t.db.query<{ j: unknown }>('SELECT bbo_appointment_json(a) AS j FROM appointments a WHERE id = $1', [id])
    ).rows[0].j;
    assert.deepEqual(sql, presentAppointment(row), JSON.stringify(s));
  }
});

test('the SQL flush writes the same audit row and event as the Node flush', async () => {
  const at = '2026-06-01T09:00:00.000Z';
  const data = { id: 'x', starts_at: '2026-06-02T10:00:00.000Z', ends_at: '2026-06-02T11:00:00.000Z', n: 1 };
  const actor = {
    store_id: store.id,
    actor_kind: 'merchant',
    actor_id: 'staff-1',
    actor_name: 'Sam',
    request_id: 'req-1',
  };
  const auditRow: AuditRow = {
    ...actor,
    action: 'probe.node',
    entity: 'probe',
    entity_id: 'e1',
    details: { a: 1 },
    created_at: at,
  };
  await t.db.transaction(async (tx) => {
    await writeAuditRows(tx, [auditRow]);
    await writeEvents(tx, [
      { store_id: store.id, type: 'appointment.created', occurred_at: at, data: { ...data, via: 'node' } },
    ]);
  });
  await t.db.query(
    `SELECT bbo_write_finish(NULL, $1::timestamptz, '{}'::jsonb,
       jsonb_build_array(bbo_audit_row($2::jsonb, $1::timestamptz, 'probe.sql', 'probe', 'e1', '{"a": 1}'::jsonb)),
       jsonb_build_array(jsonb_build_object('store_id', $3::uuid, 'type', 'appointment.created', 'occurred_at', $1::timestamptz, 'data', $4::jsonb)))`,
    [at, JSON.stringify(actor), store.id, JSON.stringify({ ...data, via: 'sql' })],
  );
  const audits = (
    await t.db.query(
      'SELECT store_id, actor_kind, actor_id, actor_name, action, entity, entity_id, details, request_id, created_at FROM audit_log WHERE entity = $1 ORDER BY id',
      ['probe'],
    )
  ).rows;
  assert.equal(audits.length, 2);
  assert.deepEqual({ ...audits[1], action: 'probe.node' }, audits[0]);
  const events = (
    await t.db.query(
      "SELECT store_id, type, occurred_at, occurred_at_local, timezone, data FROM events WHERE data->>'id' = 'x' ORDER BY txid, seq",
    )
  ).rows;
  assert.equal(events.length, 2);
  assert.equal(events[0].data.local_starts_at, '2026-06-02T11:00:00');
  assert.deepEqual({ ...events[1], data: { ...events[1].data, via: 'node' } }, events[0]);
});

test('with an Idempotency-Key: a replay answers the stored body, another body is 422, an expired record runs afresh', async () => {
  const body = { starts_at: '2026-06-03T10:00:00Z', ends_at: '2026-06-03T11:00:00Z' };
  const first = await book(body, 'os-1');
  const replay = await book(body, 'os-1');
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.deepEqual(replay.body, first.body);
  const reused = await book({ ...body, price_pence: 1 }, 'os-1');
  assert.equal(reused.status, 422);
  assert.equal(errorCode(reused), 'IDEMPOTENCY_KEY_REUSED');
  t.clock.advance(24 * 3600 * 1000 + 1000);
  const later = await book({ starts_at: '2026-06-03T12:00:00Z', ends_at: '2026-06-03T13:00:00Z' }, 'os-1');
  assert.equal(later.status, 200);
  assert.equal(later.headers['idempotent-replayed'], undefined);
  assert.notEqual(later.body.appointment.id, first.body.appointment.id);
  t.clock.set('2026-06-01T09:00:00Z');
});

test('a duplicate while the first still holds the key answers 409 IDEMPOTENCY_IN_PROGRESS with Retry-After', async () => {
  // The first request's transaction holds the key's lock: played here by a second session.
  const client = new pg.Client({ connectionString: t.url! });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      ['merchant:' + store.id + ':staff-1', 'POST', BASE, 'os-busy'].join('\n'),
    ]);
    const dup = await book({ starts_at: '2026-06-04T10:00:00Z', ends_at: '2026-06-04T11:00:00Z' }, 'os-busy');
    assert.equal(dup.status, 409);
    assert.equal(errorCode(dup), 'IDEMPOTENCY_IN_PROGRESS');
    assert.equal(dup.headers['retry-after'], '1');
  } finally {
    await client.query('ROLLBACK');
    await client.end();
  }
  const after = await book({ starts_at: '2026-06-04T10:00:00Z', ends_at: '2026-06-04T11:00:00Z' }, 'os-busy');
  assert.equal(after.status, 200);
});

test('twenty parallel retries of one key book once', async () => {
  const body = { starts_at: '2026-06-05T10:00:00Z', ends_at: '2026-06-05T11:00:00Z' };
  const results = await Promise.all(Array.from({ length: 20 }, () => book(body, 'os-par')));
  const ok = results.filter((r) => r.status === 200);
  assert.ok(ok.length >= 1);
  for (const r of results) assert.ok(r.status === 200 || errorCode(r) === 'IDEMPOTENCY_IN_PROGRESS', String(r.status));
  for (const r of ok) assert.deepEqual(r.body, ok[0].body);
  const n = (
    await t.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM appointments WHERE starts_at = '2026-06-05T10:00:00Z'",
    )
  ).rows[0].n;
  assert.equal(n, 1);
});

test('the statement claims before the write: a stored reply is answered and the write never runs', async () => {
  // COALESCE evaluates left to right and stops at the first non-null argument (callSql), so a key
  // with a stored reply answers it without calling bbo_merchant_book, which would refuse this request.
  const claim = (key: string) =>
    JSON.stringify({
      principal: 'probe',
      method: 'POST',
      path: BASE,
      key,
      request_hash: 'h',
      lock_key: `probe-${key}`,
    });
  await t.db.query(
    `INSERT INTO idempotency_records (principal, method, path, key, request_hash, status_code, body, created_at, expires_at)
     VALUES ('probe', 'POST', $1, 'os-lazy', 'h', 200, '{"stored": true}', $2, $2::timestamptz + interval '1 day')`,
    [BASE, t.clock.now().toISOString()],
  );
  const actor = JSON.stringify({ store_id: store.id, actor_kind: 'merchant', actor_id: 'probe', actor_name: 'Probe' });
  const req = JSON.stringify({
    store_id: store.id,
    unit_id: unit.id,
    service_id: '00000000-0000-4000-8000-0000000000ab',
    starts_at: '2026-06-06T10:00:00Z',
    ends_at: '2026-06-06T11:00:00Z',
  });
  const run = (key: string) =>
    t.db.query<{ result: unknown }>(callSql('bbo_merchant_book'), [
      claim(key),
      actor,
      t.clock.now().toISOString(),
      req,
    ]);
  assert.deepEqual((await run('os-lazy')).rows[0].result, { replayed: true, body: { stored: true } });
  // A key with nothing stored runs the write, which refuses the unknown service.
  await assert.rejects(run('os-lazy-2'), (err) => refusalOf(err)?.code === 'NOT_FOUND');
  const other = JSON.stringify({ ...JSON.parse(claim('os-lazy')), request_hash: 'other' });
  await assert.rejects(
    t.db.query(callSql('bbo_merchant_book'), [other, actor, t.clock.now().toISOString(), req]),
    (err) => refusalOf(err)?.code === 'IDEMPOTENCY_KEY_REUSED',
  );
});
