import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';

const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
const { app, db, fx, clock } = t;

const A = await fx.store({ name: 'Alpha' });
const B = await fx.store({ name: 'Beta' });
const tokenA = await fx.merchantToken(A.id);

async function member(storeId = A.id) {
  const c = await fx.customer();
  await fx.membership(storeId, c.id);
  return c.id;
}

const block = (id: string, body: Record<string, unknown>, token = tokenA) =>
  call(app, 'PATCH', `/api/v1/customers/${id}/block`, { token, body: { store_id: A.id, ...body } });
const bulk = (ids: string[], body: Record<string, unknown>, token = tokenA) =>
  call(app, 'PATCH', '/api/v1/customers/block', { token, body: { store_id: A.id, customer_ids: ids, ...body } });

const stored = async (id: string, storeId = A.id) =>
  (
    await db.query(
      `SELECT blocked, blocked_at, blocked_channels, block_reason, block_notice_sent_at, archived, archived_at
       FROM store_customers WHERE store_id = $1 AND customer_id = $2`,
      [storeId, id],
    )
  ).rows[0];

test('blocking sets blocked_at; a repeat keeps the original blocked_at', async () => {
  const id = await member();
  clock.set('2026-06-01T09:00:00Z');
  const first = await block(id, { blocked: true, block_reason: 'Abusive on the phone' });
  assert.equal(first.status, 200);
  assert.deepEqual(first.body.customer, {
    customer_id: id,
    blocked: true,
    blocked_at: '2026-06-01T09:00:00.000Z',
    blocked_channels: [],
    block_reason: 'Abusive on the phone',
    archived: false,
    archived_at: null,
  });
  clock.set('2026-06-02T09:00:00Z');
  const again = await block(id, { blocked: true });
  assert.equal(again.body.customer.blocked_at, '2026-06-01T09:00:00.000Z');
  assert.equal(again.body.customer.block_reason, 'Abusive on the phone', 'an omitted note is untouched');
  assert.equal((await stored(id)).blocked_at, '2026-06-01T09:00:00.000Z');
});

test('lifting a block clears blocked_at, the note and the one-notice stamp; muted channels stay', async () => {
  const id = await member();
  await block(id, { blocked: true, block_reason: 'Repeated no-shows', blocked_channels: ['sms'] });
  await db.query('UPDATE store_customers SET block_notice_sent_at = $3 WHERE store_id = $1 AND customer_id = $2', [
    A.id,
    id,
    '2026-06-01T09:05:00Z',
  ]);
  const lifted = await block(id, { blocked: false });
  assert.equal(lifted.status, 200);
  assert.equal(lifted.body.customer.blocked, false);
  assert.equal(lifted.body.customer.blocked_at, null);
  assert.equal(lifted.body.customer.block_reason, null);
  assert.deepEqual(lifted.body.customer.blocked_channels, ['sms']);
  const row = await stored(id);
  assert.deepEqual(
    [row.blocked, row.blocked_at, row.block_reason, row.block_notice_sent_at],
    [false, null, null, null],
  );
});

test('the channel list is replaced wholesale, folded and in a fixed order', async () => {
  const id = await member();
  const first = await block(id, { blocked_channels: ['sms', 'email', 'sms'] });
  assert.deepEqual(first.body.customer.blocked_channels, ['email', 'sms']);
  const second = await block(id, { blocked_channels: ['app_message'] });
  assert.deepEqual(second.body.customer.blocked_channels, ['app_message']);
  assert.deepEqual((await stored(id)).blocked_channels, ['app_message']);
  const none = await block(id, { blocked_channels: [] });
  assert.deepEqual(none.body.customer.blocked_channels, []);
  assert.equal(none.body.customer.blocked, false, 'muting is not blocking');
  const bad = await block(id, { blocked_channels: ['pigeon'] });
  assert.equal(bad.status, 400);
  assert.equal(errorCode(bad), 'VALIDATION_FAILED');
});

test('block_reason is at most 500 characters and an empty string clears it', async () => {
  const id = await member();
  assert.equal((await block(id, { block_reason: 'r'.repeat(500) })).status, 200);
  const long = await block(id, { block_reason: 'r'.repeat(501) });
  assert.equal(long.status, 400);
  assert.equal((await stored(id)).block_reason, 'r'.repeat(500));
  const cleared = await block(id, { block_reason: '' });
  assert.equal(cleared.body.customer.block_reason, null);
  assert.equal((await stored(id)).block_reason, null);
});

test('archive sets archived_at and restore clears it; archive stops nothing', async () => {
  const id = await member();
  clock.set('2026-06-03T09:00:00Z');
  const archived = await block(id, { archived: true });
  assert.equal(archived.body.customer.archived, true);
  assert.equal(archived.body.customer.archived_at, '2026-06-03T09:00:00.000Z');
  assert.equal(archived.body.customer.blocked, false);
  assert.deepEqual(archived.body.customer.blocked_channels, []);
  const restored = await block(id, { archived: false });
  assert.deepEqual([restored.body.customer.archived, restored.body.customer.archived_at], [false, null]);
  const row = await stored(id);
  assert.deepEqual([row.archived, row.archived_at], [false, null]);
});

test('at least one of the four inputs is required', async () => {
  const id = await member();
  const res = await block(id, {});
  assert.equal(res.status, 400);
  assert.equal(errorCode(res), 'VALIDATION_FAILED');
  const unknown = await block(id, { mute: true });
  assert.equal(unknown.status, 400);
});

test('a customer with no relationship to the store reads as 404 and the other store is untouched', async () => {
  const theirs = await member(B.id);
  const res = await block(theirs, { blocked: true });
  assert.equal(res.status, 404);
  assert.equal(errorCode(res), 'NOT_FOUND');
  assert.equal((await stored(theirs, B.id)).blocked, false);
});

test("the block record is per store: blocking at one store leaves another store's record alone", async () => {
  const shared = await member(A.id);
  await fx.membership(B.id, shared);
  await block(shared, { blocked: true, blocked_channels: ['email'] });
  const atB = await stored(shared, B.id);
  assert.deepEqual([atB.blocked, atB.blocked_channels], [false, []]);
});

test('bulk changes every named customer and answers the Block records in the order named', async () => {
  const ids = [await member(), await member(), await member()];
  clock.set('2026-06-04T09:00:00Z');
  const res = await bulk([ids[2], ids[0], ids[1], ids[0].toUpperCase()], {
    blocked: true,
    blocked_channels: ['sms'],
    block_reason: 'Spam',
    archived: true,
  });
  assert.equal(res.status, 200);
  assert.equal(res.body.updated, 3);
  assert.deepEqual(
    res.body.customers.map((c: any) => c.customer_id),
    [ids[2], ids[0], ids[1]],
  );
  for (const c of res.body.customers) {
    assert.deepEqual(c, {
      customer_id: c.customer_id,
      blocked: true,
      blocked_at: '2026-06-04T09:00:00.000Z',
      blocked_channels: ['sms'],
      block_reason: 'Spam',
      archived: true,
      archived_at: '2026-06-04T09:00:00.000Z',
    });
  }
  for (const id of ids) assert.equal((await stored(id)).blocked, true);
  const lifted = await bulk(ids, { blocked: false });
  assert.equal(lifted.body.updated, 3);
  for (const id of ids)
    assert.deepEqual(await stored(id).then((r) => [r.blocked, r.block_reason, r.archived]), [false, null, true]);
});

test('bulk with one unknown id changes nobody and says how many were unknown', async () => {
  const ids = [await member(), await member()];
  const stranger = await member(B.id);
  const before = await Promise.all(ids.map((id) => stored(id)));
  const res = await bulk([...ids, stranger, '00000000-0000-4000-8000-000000000000'], { blocked: true, archived: true });
  assert.equal(res.status, 404);
  assert.equal(errorCode(res), 'UNKNOWN_CUSTOMERS');
  assert.match(res.body.error.message, /^2 of the 4 customer_ids/);
  assert.deepEqual(await Promise.all(ids.map((id) => stored(id))), before);
  assert.equal((await stored(stranger, B.id)).blocked, false);
  const audits = await db.query('SELECT count(*)::int AS n FROM audit_log WHERE request_id = $1', [
    res.body.error.requestId,
  ]);
  assert.equal(audits.rows[0].n, 0);
});

test('bulk needs 1 to 500 uuids and at least one input', async () => {
  const id = await member();
  assert.equal((await bulk([], { blocked: true })).status, 400);
  assert.equal((await bulk(['not-a-uuid'], { blocked: true })).status, 400);
  const many = Array.from({ length: 501 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
  assert.equal((await bulk(many, { blocked: true })).status, 400);
  const noInput = await bulk([id], {});
  assert.equal(noInput.status, 400);
  assert.equal(errorCode(noInput), 'VALIDATION_FAILED');
});

test('a customer token cannot block', async () => {
  const id = await member();
  const res = await block(id, { blocked: true }, await fx.customerToken(id));
  assert.equal(res.status, 403);
  assert.equal(errorCode(res), 'WRONG_TOKEN_KIND');
});

test('an erased customer can still be blocked (a block only restricts)', async () => {
  const id = await member();
  await db.query('UPDATE customers SET erased_at = $2 WHERE id = $1', [id, '2026-05-01T00:00:00Z']);
  const res = await block(id, { blocked: true });
  assert.equal(res.status, 200);
  assert.equal((await stored(id)).blocked, true);
});

test('every block change is audited with the input names, never the note', async () => {
  const id = await member();
  const res = await block(id, { blocked: true, block_reason: 'Private words' });
  const rows = await db.query(
    "SELECT action, entity_id, details FROM audit_log WHERE entity = 'customer' AND entity_id = $1 AND action = 'customer.block_updated'",
    [id],
  );
  assert.equal(res.status, 200);
  assert.equal(rows.rows.length, 1);
  assert.deepEqual(rows.rows[0].details.fields, ['blocked', 'block_reason']);
  assert.ok(!JSON.stringify(rows.rows[0].details).includes('Private words'));
});

test('bulk takes up to 500 customers in one request', async () => {
  const created = await db.query<{ id: string }>(
    "INSERT INTO customers (name) SELECT 'Bulk ' || g FROM generate_series(1, 500) g RETURNING id",
  );
  const ids = created.rows.map((r) => r.id);
  await db.query('INSERT INTO store_customers (store_id, customer_id) SELECT $1, unnest($2::uuid[])', [A.id, ids]);
  const res = await bulk(ids, { archived: true });
  assert.equal(res.status, 200);
  assert.equal(res.body.updated, 500);
  assert.equal(res.body.customers.length, 500);
  const n = await db.query(
    'SELECT count(*)::int AS n FROM store_customers WHERE store_id = $1 AND customer_id = ANY($2::uuid[]) AND archived',
    [A.id, ids],
  );
  assert.equal(n.rows[0].n, 500);
});

test('concurrent bulk changes over overlapping customers all succeed and leave every row consistent', async () => {
  const ids = await Promise.all(Array.from({ length: 20 }, () => member()));
  const reversed = [...ids].reverse();
  const everyColumn = async () =>
    new Map(
      (
        await db.query('SELECT * FROM store_customers WHERE store_id = $1 AND customer_id = ANY($2::uuid[])', [
          A.id,
          ids,
        ])
      ).rows.map((r) => [r.customer_id as string, r]),
    );
  const before = await everyColumn();
  const results = await Promise.all([
    bulk(ids, { blocked: true, block_reason: 'forward' }),
    bulk(reversed, { blocked: true, block_reason: 'backward' }),
    bulk(ids.slice(5, 15), { blocked_channels: ['email'] }),
    bulk(reversed.slice(3, 18), { archived: true }),
  ]);
  assert.deepEqual(
    results.map((r) => r.status),
    [200, 200, 200, 200],
  );
  // Every column of every row: what each request set, one whole-set request's reason on all rows
  // (whichever was applied last), and nothing else changed.
  const after = await everyColumn();
  assert.equal(after.size, 20);
  const reason = after.get(ids[0])!.block_reason;
  assert.ok(reason === 'forward' || reason === 'backward', String(reason));
  const now = clock.now().toISOString();
  for (const [i, id] of ids.entries()) {
    const archived = i >= 2 && i <= 16; // reversed.slice(3, 18) is ids[16] down to ids[2]
    const expected = {
      ...before.get(id),
      blocked: true,
      blocked_at: now,
      block_reason: reason,
      blocked_channels: i >= 5 && i < 15 ? ['email'] : [],
      archived,
      archived_at: archived ? now : null,
      updated_at: after.get(id)!.updated_at,
    };
    assert.deepEqual(after.get(id), expected, `customer ${i}`);
  }
});

test('the edit, block and bulk operations are published at the spec paths', async () => {
  const doc = JSON.parse((await app.inject({ method: 'GET', url: '/openapi.json' })).body);
  assert.ok(doc.paths['/api/v1/customers/{customerId}'].patch.operationId);
  assert.ok(doc.paths['/api/v1/customers/{customerId}/block'].patch.operationId);
  assert.ok(doc.paths['/api/v1/customers/block'].patch.operationId);
});
