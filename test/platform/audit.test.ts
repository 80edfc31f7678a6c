// Audit rows commit with the change they record and never without it: a refusal after the audit
// call, a rollback, or a retried attempt leaves no row of its own; with an Idempotency-Key the
// rows and the stored result are written together.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../support/app.ts';
import { call, errorCode } from '../support/http.ts';
import { probeRoutes } from './probe.ts';
import { audit } from '../../src/platform/audit.ts';
import type { RequestContext } from '../../src/platform/context.ts';

const t = await startTestApp({ extend: probeRoutes });
const store = await t.fx.store();
const STAFF = 'Sam "The Razor" O\'Neil \\ ☃';
const token = await t.fx.merchantToken(store.id, { userId: 'staff-7', staffName: STAFF });
const TEXT = 'a "quote", a \\ and \u2603';

interface AuditRow {
  id: number;
  store_id: string | null;
  actor_kind: string;
  actor_id: string | null;
  actor_name: string | null;
  action: string;
  entity: string;
  entity_id: string | null;
  details: Record<string, unknown>;
  request_id: string | null;
  created_at: string;
}

const auditRows = async (entityId: string) =>
  (await t.db.query<AuditRow>('SELECT * FROM audit_log WHERE entity_id = $1 ORDER BY id', [entityId])).rows;
const effects = async (label: string) =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM probe_counter WHERE label = $1', [label])).rows[0].n;
const records = async (key: string) =>
  (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM idempotency_records WHERE key = $1', [key])).rows[0]
    .n;
const audited = (body: Record<string, unknown>, idempotencyKey?: string) =>
  call(t.app, 'POST', '/probe/audited', { token, body, idempotencyKey });

test('the rows of one transaction are written in call order, with the actor, the request and the details as given', async () => {
  const res = await audited({ label: 'order', entries: 3 }, undefined);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const rows = await auditRows('order');
  assert.deepEqual(
    rows.map((r) => r.action),
    ['probe.audited.0', 'probe.audited.1', 'probe.audited.2'],
  );
  for (const [n, row] of rows.entries()) {
    assert.equal(row.store_id, store.id);
    assert.equal(row.actor_kind, 'merchant');
    assert.equal(row.actor_id, 'staff-7');
    assert.equal(row.actor_name, STAFF);
    assert.equal(row.entity, 'probe');
    assert.deepEqual(row.details, { n, attempt: 1, text: TEXT });
    assert.equal(row.created_at, t.clock.now().toISOString());
    assert.ok(row.request_id);
    assert.equal(row.request_id, rows[0].request_id);
  }
});

test('a refusal after the audit call rolls the audit row back with the effect', async () => {
  const res = await audited({ label: 'refused', entries: 2, fail: true });
  assert.equal(res.status, 409);
  assert.equal(errorCode(res), 'CONFLICT');
  assert.equal(await effects('refused'), 0);
  assert.deepEqual(await auditRows('refused'), []);
});

test('with an Idempotency-Key a refusal after the audit call stores neither audit rows nor a record', async () => {
  const res = await audited({ label: 'refused-key', entries: 1, fail: true }, 'audit-refused');
  assert.equal(res.status, 409);
  assert.deepEqual(await auditRows('refused-key'), []);
  assert.equal(await records('audit-refused'), 0);
});

test('a retried attempt writes only its own audit rows, not those of the attempt that failed', async () => {
  for (const [label, key] of [
    ['retried', undefined],
    ['retried-key', 'audit-retried'],
  ] as const) {
    const res = await audited({ label, entries: 2, retry_once: true }, key);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.attempt, 2);
    assert.equal(await effects(label), 1);
    const rows = await auditRows(label);
    assert.deepEqual(
      rows.map((r) => r.action),
      ['probe.audited.0', 'probe.audited.1'],
    );
    assert.deepEqual(
      rows.map((r) => r.details.attempt),
      [2, 2],
    );
    if (key) assert.equal(await records(key), 1);
  }
});

test('an idempotent write stores its audit rows and the idempotency record; the replay adds neither', async () => {
  const first = await audited({ label: 'idem', entries: 2 }, 'audit-idem');
  assert.equal(first.status, 200);
  assert.equal((await auditRows('idem')).length, 2);
  assert.equal(await records('audit-idem'), 1);
  const again = await audited({ label: 'idem', entries: 2 }, 'audit-idem');
  assert.equal(again.headers['idempotent-replayed'], 'true');
  assert.deepEqual(again.body, first.body);
  assert.equal((await auditRows('idem')).length, 2);
  assert.equal(await records('audit-idem'), 1);
  assert.equal(await effects('idem'), 1);
});

test('an idempotent appointment booking leaves one audit row and one idempotency record', async () => {
  const unit = await t.fx.unit(store.id);
  const body = {
    store_id: store.id,
    unit_id: unit.id,
    starts_at: '2026-06-02T10:00:00.000Z',
    ends_at: '2026-06-02T11:00:00.000Z',
    guest_email: 'g@example.com',
  };
  const first = await call(t.app, 'POST', '/api/v1/bookings/appointments', {
    token,
    body,
    idempotencyKey: 'audit-book',
  });
  assert.equal(first.status, 200, JSON.stringify(first.body));
  const id = first.body.appointment.id;
  const check = async () => {
    const rows = await auditRows(id);
    assert.deepEqual(
      rows.map((r) => [r.action, r.store_id, r.actor_id]),
      [['appointment.created', store.id, 'staff-7']],
    );
    assert.deepEqual(rows[0].details, { unit_id: unit.id, starts_at: '2026-06-02T10:00:00.000Z', is_override: false });
    const stored = await t.db.query<{ body: any }>('SELECT body FROM idempotency_records WHERE key = $1', [
      'audit-book',
    ]);
    assert.equal(stored.rows.length, 1);
    assert.equal(stored.rows[0].body.appointment.id, id);
  };
  await check();
  const again = await call(t.app, 'POST', '/api/v1/bookings/appointments', {
    token,
    body,
    idempotencyKey: 'audit-book',
  });
  assert.equal(again.headers['idempotent-replayed'], 'true');
  await check();
});

test('audit on a handle that is not a request transaction writes at once', async () => {
  const ctx = {
    actor: { kind: 'admin' },
    clock: t.clock,
    requestId: 'req-direct',
  } as unknown as RequestContext;
  await audit(t.db, ctx, {
    action: 'probe.direct',
    entity: 'probe',
    entityId: 'direct',
    details: { store_id: store.id, text: TEXT },
  });
  const rows = await auditRows('direct');
  assert.equal(rows.length, 1);
  assert.equal(rows[0].store_id, store.id);
  assert.equal(rows[0].actor_kind, 'admin');
  assert.equal(rows[0].actor_id, null);
  assert.equal(rows[0].request_id, 'req-direct');
  assert.deepEqual(rows[0].details, { store_id: store.id, text: TEXT });
});
