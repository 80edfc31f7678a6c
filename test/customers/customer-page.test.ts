// GET /api/v1/customers/{customerId}: the customer page's read (edit record and block record).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../support/app.ts';
import { call } from '../support/http.ts';

const { app, fx, db } = await startTestApp();
const store = await fx.store();
const other = await fx.store({ name: 'Other' });
const token = await fx.merchantToken(store.id);
const otherToken = await fx.merchantToken(other.id);
const priya = await fx.customer({ name: 'Priya Shah', email: 'priya@example.com', phone: '+447812345678' });
await fx.membership(store.id, priya.id);

test('returns the edit record and the block record as this store sees them', async () => {
  const note = await call(app, 'PATCH', `/api/v1/customers/${priya.id}`, {
    token,
    body: { store_id: store.id, merchant_note: 'Prefers mornings' },
  });
  assert.equal(note.status, 200);
  const block = await call(app, 'PATCH', `/api/v1/customers/${priya.id}/block`, {
    token,
    body: { store_id: store.id, blocked_channels: ['sms'] },
  });
  assert.equal(block.status, 200);
  const res = await call(app, 'GET', `/api/v1/customers/${priya.id}`, { token, query: { store_id: store.id } });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.customer, {
    id: priya.id,
    name: 'Priya Shah',
    phone: '+447812345678',
    email: 'priya@example.com',
    merchant_note: 'Prefers mornings',
    merchant_note_updated_at: note.body.customer.merchant_note_updated_at,
  });
  assert.deepEqual(res.body.block, block.body.customer);
});

test('another store, an unknown id and an erased customer read as 404', async () => {
  const foreign = await call(app, 'GET', `/api/v1/customers/${priya.id}`, {
    token: otherToken,
    query: { store_id: other.id },
  });
  assert.equal(foreign.status, 404);
  assert.equal(foreign.body.error.code, 'NOT_FOUND');
  const unknown = await call(app, 'GET', '/api/v1/customers/00000000-0000-4000-8000-000000000001', {
    token,
    query: { store_id: store.id },
  });
  assert.equal(unknown.status, 404);
  const gone = await fx.customer({ name: 'Gone' });
  await fx.membership(store.id, gone.id);
  await db.query('UPDATE customers SET erased_at = now() WHERE id = $1', [gone.id]);
  const erased = await call(app, 'GET', `/api/v1/customers/${gone.id}`, { token, query: { store_id: store.id } });
  assert.equal(erased.status, 404);
});

test('needs a merchant token', async () => {
  const res = await call(app, 'GET', `/api/v1/customers/${priya.id}`, { query: { store_id: store.id } });
  assert.equal(res.status, 401);
  assert.equal(res.body.error.code, 'UNAUTHENTICATED');
});
