// Store API keys: shown once with a recognisable prefix, stored hashed, used as a bearer, revoked at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, errorCode } from '../support/http.ts';
import { secretHash } from '../../src/staff/secrets.ts';
import { as, ownerOf, startStaffApp } from './support.ts';

const t = await startStaffApp();
const store = await t.fx.store();
const owner = await ownerOf(t, store.id);

test('a key is shown once with the bbo_live_ prefix, kept only as its hash, and acts within its scopes', async () => {
  const made = await call(
    t.app,
    'POST',
    '/api/v1/api-keys',
    as(owner.cookie, { body: { name: 'Till', scopes: ['merchant:read'] } }),
  );
  assert.equal(made.status, 200);
  const key: string = made.body.key;
  assert.match(key, /^bbo_live_[A-Za-z0-9_-]{43}$/);
  assert.deepEqual(made.body.api_key.scopes, ['merchant:read']);
  const stored = await t.db.query(`SELECT key_hash FROM api_keys WHERE id = $1`, [made.body.api_key.id]);
  assert.deepEqual(Buffer.from(stored.rows[0].key_hash), secretHash(key));
  const raw = await t.db.query(`SELECT count(*)::int AS n FROM api_keys WHERE key_hint = $1 OR name = $1`, [key]);
  assert.equal(raw.rows[0].n, 0);

  const read = await call(t.app, 'GET', '/api/v1/bookings/units', { token: key, query: { store_id: store.id } });
  assert.equal(read.status, 200);
  const write = await call(t.app, 'POST', '/api/v1/bookings/units', {
    token: key,
    body: { store_id: store.id, display_name: 'Chair', kind: 'chair' },
  });
  assert.equal(write.status, 403);
  assert.equal(errorCode(write), 'INSUFFICIENT_SCOPE');

  const list = await call(t.app, 'GET', '/api/v1/api-keys', as(owner.cookie));
  const row = list.body.api_keys.find((k: any) => k.id === made.body.api_key.id);
  assert.equal(row.name, 'Till');
  assert.equal(row.last_used_at, t.clock.now().toISOString());
  assert.ok(!JSON.stringify(list.body).includes(key));
});

test('a revoked key is refused from the next request, and the audit trail names the key', async () => {
  const made = await call(
    t.app,
    'POST',
    '/api/v1/api-keys',
    as(owner.cookie, { body: { name: 'Website', scopes: ['merchant:read', 'merchant:write'] } }),
  );
  const key: string = made.body.key;
  const unit = await call(t.app, 'POST', '/api/v1/bookings/units', {
    token: key,
    body: { store_id: store.id, display_name: 'By key', kind: 'chair' },
  });
  assert.equal(unit.status, 200);
  const audit = await t.db.query(`SELECT actor_id, actor_name FROM audit_log WHERE entity_id = $1`, [
    unit.body.unit.id,
  ]);
  assert.deepEqual(audit.rows[0], { actor_id: made.body.api_key.id, actor_name: 'API key Website' });
  const revoked = await call(t.app, 'DELETE', `/api/v1/api-keys/${made.body.api_key.id}`, as(owner.cookie));
  assert.equal(revoked.status, 200);
  const after = await call(t.app, 'GET', '/api/v1/bookings/units', { token: key, query: { store_id: store.id } });
  assert.equal(after.status, 401);
  assert.equal(errorCode(after), 'UNAUTHENTICATED');
  const again = await call(t.app, 'DELETE', `/api/v1/api-keys/${made.body.api_key.id}`, as(owner.cookie));
  assert.equal(again.status, 404);
  const list = await call(t.app, 'GET', '/api/v1/api-keys', as(owner.cookie));
  assert.ok(!list.body.api_keys.some((k: any) => k.id === made.body.api_key.id));
});

test('an unknown key with the prefix is 401, and bearer JWTs work as before', async () => {
  const unknown = await call(t.app, 'GET', '/api/v1/bookings/units', {
    token: `bbo_live_${'x'.repeat(43)}`,
    query: { store_id: store.id },
  });
  assert.equal(unknown.status, 401);
  const jwt = await t.fx.merchantToken(store.id);
  assert.equal(
    (await call(t.app, 'GET', '/api/v1/bookings/units', { token: jwt, query: { store_id: store.id } })).status,
    200,
  );
});

test('bad key requests: no name, an unknown scope', async () => {
  const before = (await t.db.query(`SELECT count(*)::int AS n FROM api_keys`)).rows[0].n;
  for (const body of [
    { name: '', scopes: ['merchant:read'] },
    { name: 'X', scopes: ['admin'] },
    { name: 'X', scopes: [] },
  ]) {
    const res = await call(t.app, 'POST', '/api/v1/api-keys', as(owner.cookie, { body }));
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(errorCode(res), 'VALIDATION_FAILED');
  }
  assert.equal((await t.db.query(`SELECT count(*)::int AS n FROM api_keys`)).rows[0].n, before);
});
