import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../support/app.ts';
import { call, errorCode } from '../support/http.ts';

const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
const { app, db, fx } = t;

const DEFAULTS = {
  messagesMuted: false,
  classReminders: true,
  classEventsEnabled: true,
  voucherEventsEnabled: true,
  stampEventsEnabled: true,
  membershipEventsEnabled: true,
  penaltyEventsEnabled: true,
  marketingEnabled: false,
};

const list = (token: string) => call(app, 'GET', '/api/v1/notifications/preferences', { token });
const save = (token: string, body: Record<string, unknown>) =>
  call(app, 'POST', '/api/v1/notifications/preferences', { token, body });

async function signedIn() {
  const c = await fx.customer({ name: null });
  return { id: c.id, token: await fx.customerToken(c.id) };
}

const saved = async (customerId: string, storeId: string) =>
  (
    await db.query('SELECT * FROM notification_preferences WHERE customer_id = $1 AND store_id = $2', [
      customerId,
      storeId,
    ])
  ).rows;

test('one row per store interacted with, with the spec defaults where nothing was saved, ordered by store name', async () => {
  const me = await signedIn();
  const member = await fx.store({ name: 'Zed Gym' });
  const classes = await fx.store({ name: 'yoga Loft' });
  const stamps = await fx.store({ name: 'Bean Cafe' });
  const orders = await fx.store({ name: 'Deli' });
  const appointment = await fx.store({ name: 'Cutters' });
  const never = await fx.store({ name: 'Never Visited' });
  await fx.membership(member.id, me.id);
  await db.query(
    `INSERT INTO class_bookings (store_id, customer_id, status, created_at) VALUES ($1, $2, 'confirmed', now()), ($1, $2, 'attended', now())`,
    [classes.id, me.id],
  );
  await db.query('INSERT INTO stamps (store_id, customer_id, created_at) VALUES ($1, $2, now())', [stamps.id, me.id]);
  await db.query(
    `INSERT INTO orders (store_id, customer_id, amount_pence, currency, created_at) VALUES ($1, $2, 500, 'GBP', now())`,
    [orders.id, me.id],
  );
  const unit = await fx.unit(appointment.id);
  await db.query(
    `INSERT INTO appointments (store_id, unit_id, customer_id, starts_at, ends_at, block, status, currency)
     VALUES ($1, $2, $3, '2026-06-02T10:00:00Z', '2026-06-02T10:30:00Z', tstzrange('2026-06-02T10:00:00Z', '2026-06-02T10:30:00Z'), 'confirmed', 'GBP')`,
    [appointment.id, unit.id, me.id],
  );
  // Another customer's activity at a store I never visited must not show up for me.
  const other = await signedIn();
  await fx.membership(never.id, other.id);

  const res = await list(me.token);
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.preferences, [
    { storeId: stamps.id, storeName: 'Bean Cafe', ...DEFAULTS },
    { storeId: appointment.id, storeName: 'Cutters', ...DEFAULTS },
    { storeId: orders.id, storeName: 'Deli', ...DEFAULTS },
    { storeId: classes.id, storeName: 'yoga Loft', ...DEFAULTS },
    { storeId: member.id, storeName: 'Zed Gym', ...DEFAULTS },
  ]);
});

test("storeName is 'Unknown' when the store's name is unavailable", async () => {
  const me = await signedIn();
  const blank = await fx.store({ name: '   ' });
  await fx.membership(blank.id, me.id);
  const res = await list(me.token);
  assert.deepEqual(res.body.preferences, [{ storeId: blank.id, storeName: 'Unknown', ...DEFAULTS }]);
});

test('a customer with no interactions gets an empty list', async () => {
  const me = await signedIn();
  const res = await list(me.token);
  assert.equal(res.status, 200);
  assert.deepEqual(res.body, { preferences: [] });
});

test('partial upserts merge: an omitted toggle is unchanged and a repeat merges the same row', async () => {
  const me = await signedIn();
  const store = await fx.store({ name: 'Merge Studio' });
  const first = await save(me.token, { storeId: store.id, marketingEnabled: true, classReminders: false });
  assert.equal(first.status, 200);
  assert.deepEqual(first.body, { storeId: store.id, updated: true });
  const second = await save(me.token, { storeId: store.id, messagesMuted: true });
  assert.deepEqual(second.body, { storeId: store.id, updated: true });
  const third = await save(me.token, { storeId: store.id, classReminders: true, stampEventsEnabled: false });
  assert.equal(third.status, 200);

  const rows = await saved(me.id, store.id);
  assert.equal(rows.length, 1);
  const res = await list(me.token);
  assert.deepEqual(res.body.preferences, [
    {
      storeId: store.id,
      storeName: 'Merge Studio',
      ...DEFAULTS,
      marketingEnabled: true,
      messagesMuted: true,
      classReminders: true,
      stampEventsEnabled: false,
    },
  ]);
  const repeat = await save(me.token, { storeId: store.id, classReminders: true, stampEventsEnabled: false });
  assert.equal(repeat.status, 200);
  assert.deepEqual((await list(me.token)).body, res.body);
});

test('a saved preference alone makes the store appear in the list', async () => {
  const me = await signedIn();
  const store = await fx.store({ name: 'Only Saved' });
  await save(me.token, { storeId: store.id });
  const res = await list(me.token);
  assert.deepEqual(res.body.preferences, [{ storeId: store.id, storeName: 'Only Saved', ...DEFAULTS }]);
  assert.equal((await saved(me.id, store.id)).length, 1);
});

test('an unknown store is refused 404 and a storeId that is not a uuid 400; nothing is saved', async () => {
  const me = await signedIn();
  const unknown = await save(me.token, { storeId: '00000000-0000-4000-8000-000000000000', messagesMuted: true });
  assert.equal(unknown.status, 404);
  assert.equal(errorCode(unknown), 'NOT_FOUND');
  const malformed = await save(me.token, { storeId: 'shop-1', messagesMuted: true });
  assert.equal(malformed.status, 400);
  assert.equal(errorCode(malformed), 'VALIDATION_FAILED');
  const rows = await db.query('SELECT count(*)::int AS n FROM notification_preferences WHERE customer_id = $1', [
    me.id,
  ]);
  assert.equal(rows.rows[0].n, 0);
});

test('toggles are booleans and nothing else; storeId is required; unknown fields are refused', async () => {
  const me = await signedIn();
  const store = await fx.store();
  for (const body of [
    { storeId: store.id, messagesMuted: 'true' },
    { storeId: store.id, marketingEnabled: 1 },
    { storeId: store.id, classReminders: null },
    { messagesMuted: true },
    { storeId: store.id, customerId: me.id },
    { storeId: store.id, smsEnabled: true },
  ]) {
    const res = await save(me.token, body);
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(errorCode(res), 'VALIDATION_FAILED');
  }
  assert.equal((await saved(me.id, store.id)).length, 0);
});

test('each customer reads and changes only their own rows', async () => {
  const store = await fx.store({ name: 'Shared Shop' });
  const alice = await signedIn();
  const bob = await signedIn();
  await fx.membership(store.id, alice.id);
  await fx.membership(store.id, bob.id);
  await save(alice.token, { storeId: store.id, messagesMuted: true, marketingEnabled: true });
  const bobs = await list(bob.token);
  assert.deepEqual(bobs.body.preferences, [{ storeId: store.id, storeName: 'Shared Shop', ...DEFAULTS }]);
  await save(bob.token, { storeId: store.id, classReminders: false });
  const alices = await list(alice.token);
  assert.deepEqual(alices.body.preferences, [
    { storeId: store.id, storeName: 'Shared Shop', ...DEFAULTS, messagesMuted: true, marketingEnabled: true },
  ]);
  const a = (await saved(alice.id, store.id))[0];
  const b = (await saved(bob.id, store.id))[0];
  assert.deepEqual([a.messages_muted, a.class_reminders, a.marketing_enabled], [true, true, true]);
  assert.deepEqual([b.messages_muted, b.class_reminders, b.marketing_enabled], [false, false, false]);
});

test('a merchant token is refused 403 WRONG_TOKEN_KIND on both operations', async () => {
  const store = await fx.store();
  const merchant = await fx.merchantToken(store.id);
  const get = await list(merchant);
  assert.equal(get.status, 403);
  assert.equal(errorCode(get), 'WRONG_TOKEN_KIND');
  const post = await save(merchant, { storeId: store.id, messagesMuted: true });
  assert.equal(post.status, 403);
  assert.equal(errorCode(post), 'WRONG_TOKEN_KIND');
  assert.equal(
    (await db.query('SELECT count(*)::int AS n FROM notification_preferences WHERE store_id = $1', [store.id])).rows[0]
      .n,
    0,
  );
});

test('reading needs customer:read and saving needs customer:write', async () => {
  const c = await fx.customer();
  const store = await fx.store();
  const readOnly = await fx.customerToken(c.id, ['customer:read']);
  assert.equal((await list(readOnly)).status, 200);
  const denied = await save(readOnly, { storeId: store.id, messagesMuted: true });
  assert.equal(denied.status, 403);
  assert.equal(errorCode(denied), 'INSUFFICIENT_SCOPE');
  const noScope = await fx.customerToken(c.id, ['something:else']);
  assert.equal(errorCode(await list(noScope)), 'INSUFFICIENT_SCOPE');
  assert.equal((await list('')).status, 401);
});

test('concurrent upserts for the same key leave one row holding every toggle sent', async () => {
  const me = await signedIn();
  const store = await fx.store();
  const sibling = await t.sibling();
  const toggles = [
    'messagesMuted',
    'classReminders',
    'classEventsEnabled',
    'voucherEventsEnabled',
    'stampEventsEnabled',
    'membershipEventsEnabled',
    'penaltyEventsEnabled',
    'marketingEnabled',
  ];
  // Each request flips one toggle away from its default; all race for the first insert.
  const results = await Promise.all(
    toggles.map((name, i) =>
      call(i % 2 ? sibling : app, 'POST', '/api/v1/notifications/preferences', {
        token: me.token,
        body: { storeId: store.id, [name]: !(DEFAULTS as Record<string, boolean>)[name] },
      }),
    ),
  );
  assert.deepEqual(
    results.map((r) => r.status),
    toggles.map(() => 200),
  );
  const rows = await saved(me.id, store.id);
  assert.equal(rows.length, 1);
  const res = await list(me.token);
  assert.deepEqual(res.body.preferences[0], {
    storeId: store.id,
    storeName: 'Test Salon',
    messagesMuted: true,
    classReminders: false,
    classEventsEnabled: false,
    voucherEventsEnabled: false,
    stampEventsEnabled: false,
    membershipEventsEnabled: false,
    penaltyEventsEnabled: false,
    marketingEnabled: true,
  });
});

test('both operations are published at the spec path, the list as listNotificationPreferences', async () => {
  const res = await app.inject({ method: 'GET', url: '/openapi.json' });
  const doc = JSON.parse(res.body);
  const path = doc.paths['/api/v1/notifications/preferences'];
  assert.ok(path, 'exact path, no trailing slash');
  assert.equal(path.get.operationId, 'listNotificationPreferences');
  assert.ok(path.post.operationId);
  assert.equal(doc.paths['/api/v1/notifications/preferences/'], undefined);
});
