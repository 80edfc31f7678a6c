// Webhook endpoints: register, list, change, delete, rotate; secrets shown only on create and
// rotate; another store's endpoint reads as missing; unknown types and unsafe targets refused.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../support/app.ts';
import { call, errorCode } from '../support/http.ts';

const BASE = '/api/v1/webhooks/endpoints';

const t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
const store = await t.fx.store();
const other = await t.fx.store({ name: 'Other Salon' });
const token = await t.fx.merchantToken(store.id);
const otherToken = await t.fx.merchantToken(other.id);

async function count(table: string): Promise<number> {
  return (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n;
}

test('create answers the endpoint with a whsec_ secret; list and change never show it', async () => {
  const created = await call(t.app, 'POST', BASE, {
    token,
    body: {
      url: 'http://127.0.0.1:9/hook',
      event_types: ['appointment.created', 'appointment.cancelled'],
      description: 'POS',
    },
  });
  assert.equal(created.status, 200);
  const e = created.body.endpoint;
  assert.equal(e.url, 'http://127.0.0.1:9/hook');
  assert.deepEqual(e.event_types, ['appointment.created', 'appointment.cancelled']);
  assert.equal(e.enabled, true);
  assert.equal(e.description, 'POS');
  assert.equal(e.created_at, t.clock.now().toISOString());
  assert.match(e.secret, /^whsec_[A-Za-z0-9+/]+=*$/);
  assert.ok(Buffer.from(e.secret.slice(6), 'base64').length >= 24);

  const list = await call(t.app, 'GET', BASE, { token });
  assert.equal(list.status, 200);
  const listed = list.body.endpoints.find((x: any) => x.id === e.id);
  assert.ok(listed);
  assert.equal('secret' in listed, false);
  assert.equal(JSON.stringify(list.body).includes(e.secret.slice(6)), false);

  const patched = await call(t.app, 'PATCH', `${BASE}/${e.id}`, {
    token,
    body: { enabled: false, event_types: null, description: null },
  });
  assert.equal(patched.status, 200);
  assert.equal(patched.body.endpoint.enabled, false);
  assert.equal(patched.body.endpoint.event_types, null);
  assert.equal(patched.body.endpoint.description, null);
  assert.equal('secret' in patched.body.endpoint, false);
  const row = (await t.db.query('SELECT enabled, event_types, secret FROM webhook_endpoints WHERE id = $1', [e.id]))
    .rows[0];
  assert.deepEqual([row.enabled, row.event_types, row.secret], [false, null, e.secret]);
});

test('omitted event_types means every type; the stored row matches the answer', async () => {
  const created = await call(t.app, 'POST', BASE, { token, body: { url: 'http://127.0.0.1:9/all' } });
  assert.equal(created.status, 200);
  assert.equal(created.body.endpoint.event_types, null);
  assert.equal(created.body.endpoint.description, null);
});

test('rotate-secret answers a new secret; the old one is kept to sign alongside it for 24 h', async () => {
  const { body } = await call(t.app, 'POST', BASE, { token, body: { url: 'http://127.0.0.1:9/rotate' } });
  const rotated = await call(t.app, 'POST', `${BASE}/${body.endpoint.id}/rotate-secret`, { token });
  assert.equal(rotated.status, 200);
  assert.match(rotated.body.endpoint.secret, /^whsec_/);
  assert.notEqual(rotated.body.endpoint.secret, body.endpoint.secret);
  const row = (
    await t.db.query('SELECT secret, previous_secret, previous_expires_at FROM webhook_endpoints WHERE id = $1', [
      body.endpoint.id,
    ])
  ).rows[0];
  assert.equal(row.secret, rotated.body.endpoint.secret);
  assert.equal(row.previous_secret, body.endpoint.secret);
  assert.equal(row.previous_expires_at, new Date(t.clock.now().getTime() + 24 * 3600_000).toISOString());
});

test('delete removes the endpoint; a second delete is 404', async () => {
  const { body } = await call(t.app, 'POST', BASE, { token, body: { url: 'http://127.0.0.1:9/gone' } });
  const del = await call(t.app, 'DELETE', `${BASE}/${body.endpoint.id}`, { token });
  assert.equal(del.status, 200);
  assert.deepEqual(del.body, { deleted: true, id: body.endpoint.id });
  assert.equal((await t.db.query('SELECT 1 FROM webhook_endpoints WHERE id = $1', [body.endpoint.id])).rowCount, 0);
  const again = await call(t.app, 'DELETE', `${BASE}/${body.endpoint.id}`, { token });
  assert.equal(again.status, 404);
  assert.equal(errorCode(again), 'NOT_FOUND');
});

test("another store's endpoint reads exactly like a missing one (404) and is never listed", async () => {
  const { body } = await call(t.app, 'POST', BASE, { token, body: { url: 'http://127.0.0.1:9/mine' } });
  const id = body.endpoint.id;
  const eventId = '00000000-0000-4000-8000-000000000001';
  const attempts = [
    await call(t.app, 'PATCH', `${BASE}/${id}`, { token: otherToken, body: { enabled: false } }),
    await call(t.app, 'DELETE', `${BASE}/${id}`, { token: otherToken }),
    await call(t.app, 'POST', `${BASE}/${id}/rotate-secret`, { token: otherToken }),
    await call(t.app, 'GET', `${BASE}/${id}/deliveries`, { token: otherToken }),
    await call(t.app, 'POST', `${BASE}/${id}/deliveries/${eventId}/retry`, { token: otherToken }),
    await call(t.app, 'POST', `${BASE}/${id}/replay`, { token: otherToken, body: { since: '2026-01-01T00:00:00Z' } }),
  ];
  for (const r of attempts) {
    assert.equal(r.status, 404);
    assert.equal(errorCode(r), 'NOT_FOUND');
  }
  const list = await call(t.app, 'GET', BASE, { token: otherToken });
  assert.deepEqual(list.body.endpoints, []);
  const row = (await t.db.query('SELECT enabled, secret FROM webhook_endpoints WHERE id = $1', [id])).rows[0];
  assert.equal(row.enabled, true);
  assert.equal(row.secret, body.endpoint.secret);
});

test('unknown event types are refused with 400 and nothing is written', async () => {
  const before = await count('webhook_endpoints');
  const r = await call(t.app, 'POST', BASE, {
    token,
    body: { url: 'http://127.0.0.1:9/x', event_types: ['appointment.created', 'appointment.exploded'] },
  });
  assert.equal(r.status, 400);
  assert.equal(errorCode(r), 'VALIDATION_FAILED');
  assert.match(r.body.error.message, /appointment\.exploded/);
  assert.equal(await count('webhook_endpoints'), before);
  const { body } = await call(t.app, 'POST', BASE, { token, body: { url: 'http://127.0.0.1:9/y' } });
  const p = await call(t.app, 'PATCH', `${BASE}/${body.endpoint.id}`, { token, body: { event_types: ['nope.nope'] } });
  assert.equal(p.status, 400);
  assert.equal(
    (await t.db.query('SELECT event_types FROM webhook_endpoints WHERE id = $1', [body.endpoint.id])).rows[0]
      .event_types,
    null,
  );
});

test('the webhooks surface needs merchant:write', async () => {
  const reader = await t.fx.merchantToken(store.id, { scopes: ['merchant:read'] });
  const r = await call(t.app, 'GET', BASE, { token: reader });
  assert.equal(r.status, 403);
  assert.equal(errorCode(r), 'INSUFFICIENT_SCOPE');
});

test('a missing endpoint is 404 for every operation', async () => {
  const id = '00000000-0000-4000-8000-00000000abcd';
  assert.equal((await call(t.app, 'PATCH', `${BASE}/${id}`, { token, body: { enabled: true } })).status, 404);
  assert.equal((await call(t.app, 'POST', `${BASE}/${id}/rotate-secret`, { token })).status, 404);
});

test('without WEBHOOK_ALLOW_PRIVATE_TARGETS, loopback, private and link-local targets are refused, names included', async () => {
  const strict = await startTestApp();
  const s = await strict.fx.store();
  const tok = await strict.fx.merchantToken(s.id);
  for (const url of [
    'http://127.0.0.1:8080/hook',
    'http://localhost:8080/hook', // a name that resolves to a loopback address
    'http://10.1.2.3/hook',
    'http://192.168.0.10/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://0.0.0.0/hook',
  ]) {
    const r = await call(strict.app, 'POST', BASE, { token: tok, body: { url } });
    assert.equal(r.status, 400, url);
    assert.equal(errorCode(r), 'WEBHOOK_TARGET_REFUSED', url);
  }
  const unresolvable = await call(strict.app, 'POST', BASE, {
    token: tok,
    body: { url: 'http://no-such-host.invalid/hook' },
  });
  assert.equal(unresolvable.status, 400);
  assert.equal(errorCode(unresolvable), 'WEBHOOK_TARGET_REFUSED');
  for (const url of ['ftp://example.com/x', 'not a url', 'http://user:pw@127.0.0.1/x']) {
    assert.equal((await call(strict.app, 'POST', BASE, { token: tok, body: { url } })).status, 400, url);
  }
  assert.equal((await strict.db.query('SELECT count(*)::int AS n FROM webhook_endpoints')).rows[0].n, 0);
});

test('with NODE_ENV=production, an http URL is refused (https only)', async () => {
  const prod = await startTestApp({ env: { NODE_ENV: 'production', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  const s = await prod.fx.store();
  const tok = await prod.fx.merchantToken(s.id);
  const r = await call(prod.app, 'POST', BASE, { token: tok, body: { url: 'http://127.0.0.1:9/hook' } });
  assert.equal(r.status, 400);
  assert.equal(errorCode(r), 'WEBHOOK_TARGET_REFUSED');
  assert.match(r.body.error.message, /https/);
  const ok = await call(prod.app, 'POST', BASE, { token: tok, body: { url: 'https://127.0.0.1:9/hook' } });
  assert.equal(ok.status, 200);
});
