import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';

const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
const { app, db, fx, clock } = t;

async function storeWithToken(name = 'Salon') {
  const store = await fx.store({ name });
  return { store, token: await fx.merchantToken(store.id) };
}

async function member(storeId: string, fields: { name?: string; email?: string | null; phone?: string | null } = {}) {
  const c = await fx.customer(fields);
  await fx.membership(storeId, c.id);
  return c.id;
}

const patch = (token: string, id: string, body: Record<string, unknown>, query?: Record<string, string>) =>
  call(app, 'PATCH', `/api/v1/customers/${id}`, { token, body, query });

const customerRow = async (id: string) =>
  (await db.query('SELECT name, phone, email, updated_at FROM customers WHERE id = $1', [id])).rows[0];

const A = await storeWithToken('Alpha');
const B = await storeWithToken('Beta');

test('every UK mobile spelling is stored as E.164', async () => {
  const spellings = [
    '07812 345678',
    '+44 7812 345678',
    '447812345678',
    '(07812) 345-678',
    '0044 7812 345678',
    '+44 (0)7812 345678',
    '07812-345-678',
  ];
  for (const phone of spellings) {
    const id = await member(A.store.id);
    const res = await patch(A.token, id, { store_id: A.store.id, phone });
    assert.equal(res.status, 200, `${phone}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.customer.phone, '+447812345678', phone);
    assert.equal((await customerRow(id)).phone, '+447812345678');
    // free the number for the next spelling
    await db.query('UPDATE customers SET phone = NULL WHERE id = $1', [id]);
  }
});

test('Crown Dependency +44 7 mobiles count as UK mobiles', async () => {
  for (const [phone, e164] of [
    ['07781 123456', '+447781123456'],
    ['07797 123456', '+447797123456'],
    ['07624 123456', '+447624123456'],
  ]) {
    const id = await member(A.store.id);
    const res = await patch(A.token, id, { store_id: A.store.id, phone });
    assert.equal(res.status, 200, phone);
    assert.equal(res.body.customer.phone, e164);
  }
});

test('a phone that is not a UK mobile is refused 400 INVALID_PHONE and nothing changes', async () => {
  const id = await member(A.store.id, { phone: '+447812000001' });
  const refused = [
    '020 7946 0000',
    '+1 202 555 0123',
    '+33 6 12 34 56 78',
    '07812',
    '07812 345 678 9',
    'abc',
    '07812 345678 x12',
    'call 07812 345678',
    '07700 900123',
  ];
  for (const phone of refused) {
    const res = await patch(A.token, id, { store_id: A.store.id, phone, name: 'Changed' });
    assert.equal(res.status, 400, phone);
    assert.equal(errorCode(res), 'INVALID_PHONE', phone);
  }
  const row = await customerRow(id);
  assert.equal(row.phone, '+447812000001');
  assert.equal(row.name, 'Alex Example');
});

test('name is trimmed and at most 80 characters; email trimmed and lower-cased', async () => {
  const id = await member(A.store.id);
  const ok = await patch(A.token, id, {
    store_id: A.store.id,
    name: `  ${'n'.repeat(80)}  `,
    email: '  Jo.Bloggs@Example.COM ',
  });
  assert.equal(ok.status, 200);
  assert.equal(ok.body.customer.name, 'n'.repeat(80));
  assert.equal(ok.body.customer.email, 'jo.bloggs@example.com');
  assert.equal((await customerRow(id)).email, 'jo.bloggs@example.com');

  const long = await patch(A.token, id, { store_id: A.store.id, name: 'n'.repeat(81) });
  assert.equal(long.status, 400);
  assert.equal(errorCode(long), 'VALIDATION_FAILED');
  assert.equal((await customerRow(id)).name, 'n'.repeat(80));

  for (const email of ['not-an-email', 'a@b', 'a b@example.com', 'a@@example.com']) {
    const bad = await patch(A.token, id, { store_id: A.store.id, email });
    assert.equal(bad.status, 400, email);
    assert.equal(errorCode(bad), 'VALIDATION_FAILED');
  }
});

test('merchant_note is at most 2000 characters', async () => {
  const id = await member(A.store.id);
  assert.equal((await patch(A.token, id, { store_id: A.store.id, merchant_note: 'x'.repeat(2000) })).status, 200);
  const long = await patch(A.token, id, { store_id: A.store.id, merchant_note: 'y'.repeat(2001) });
  assert.equal(long.status, 400);
  assert.equal(errorCode(long), 'VALIDATION_FAILED');
});

test('an empty string clears a field and an omitted field is untouched', async () => {
  const id = await member(A.store.id, { name: 'Kim', email: 'kim@example.com', phone: '+447812000002' });
  await patch(A.token, id, { store_id: A.store.id, merchant_note: 'likes tea' });
  const res = await patch(A.token, id, { store_id: A.store.id, email: '', merchant_note: '' });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.changed_fields.sort(), ['email', 'merchant_note']);
  assert.equal(res.body.customer.email, null);
  assert.equal(res.body.customer.merchant_note, null);
  assert.equal(res.body.customer.name, 'Kim');
  assert.equal(res.body.customer.phone, '+447812000002');
  const row = await customerRow(id);
  assert.equal(row.email, null);
  assert.equal(row.name, 'Kim');
  assert.equal(row.phone, '+447812000002');
  const cleared = await patch(A.token, id, { store_id: A.store.id, name: '', phone: '' });
  assert.deepEqual(cleared.body.changed_fields.sort(), ['name', 'phone']);
  assert.deepEqual(await customerRow(id).then((r) => [r.name, r.phone]), [null, null]);
});

test('a phone or email already on another customer is refused, never moved', async () => {
  const owner = await member(A.store.id, { email: 'taken@example.com', phone: '+447812000003' });
  const other = await member(A.store.id, { email: 'mine@example.com', phone: '+447812000004' });
  const phone = await patch(A.token, other, { store_id: A.store.id, phone: '07812 000003' });
  assert.equal(phone.status, 409);
  assert.equal(errorCode(phone), 'PHONE_IN_USE');
  const email = await patch(A.token, other, { store_id: A.store.id, email: 'TAKEN@example.com', name: 'New name' });
  assert.equal(email.status, 409);
  assert.equal(errorCode(email), 'EMAIL_IN_USE');
  assert.deepEqual(await customerRow(owner).then((r) => [r.email, r.phone]), ['taken@example.com', '+447812000003']);
  const o = await customerRow(other);
  assert.deepEqual([o.email, o.phone, o.name], ['mine@example.com', '+447812000004', 'Alex Example']);
});

test('a customer who asked to be deleted cannot be edited: 409 CUSTOMER_ERASED', async () => {
  const id = await member(A.store.id, { name: 'Gone' });
  await db.query('UPDATE customers SET erased_at = $2 WHERE id = $1', [id, '2026-05-01T00:00:00Z']);
  const res = await patch(A.token, id, { store_id: A.store.id, name: 'Back' });
  assert.equal(res.status, 409);
  assert.equal(errorCode(res), 'CUSTOMER_ERASED');
  assert.equal((await customerRow(id)).name, 'Gone');
});

test('a customer with no relationship to the store reads as 404, even one of another store', async () => {
  const theirs = await member(B.store.id, { name: 'Beta only' });
  const res = await patch(A.token, theirs, { store_id: A.store.id, name: 'Hijack' });
  assert.equal(res.status, 404);
  assert.equal(errorCode(res), 'NOT_FOUND');
  const missing = await patch(A.token, '00000000-0000-4000-8000-000000000000', { store_id: A.store.id, name: 'x' });
  assert.equal(missing.status, 404);
  assert.equal((await customerRow(theirs)).name, 'Beta only');
});

test('the merchant note is private to the store that wrote it', async () => {
  const id = await member(A.store.id, { name: 'Shared' });
  await fx.membership(B.store.id, id);
  const a = await patch(A.token, id, { store_id: A.store.id, merchant_note: 'Alpha secret' });
  assert.equal(a.body.customer.merchant_note, 'Alpha secret');
  const b = await patch(B.token, id, { store_id: B.store.id });
  assert.equal(b.status, 200);
  assert.equal(b.body.customer.merchant_note, null);
  assert.equal(b.body.customer.merchant_note_updated_at, null);
  await patch(B.token, id, { store_id: B.store.id, merchant_note: 'Beta view' });
  const notes = await db.query(
    'SELECT store_id, merchant_note FROM store_customers WHERE customer_id = $1 ORDER BY merchant_note',
    [id],
  );
  assert.deepEqual(
    notes.rows.map((r) => [r.store_id, r.merchant_note]),
    [
      [A.store.id, 'Alpha secret'],
      [B.store.id, 'Beta view'],
    ],
  );
  const again = await patch(A.token, id, { store_id: A.store.id });
  assert.equal(again.body.customer.merchant_note, 'Alpha secret');
});

test('changed_fields names only the fields whose value changed, and a replay converges', async () => {
  const id = await member(A.store.id, { name: 'Sam', email: 'sam@example.com' });
  const body = {
    store_id: A.store.id,
    name: '  Sam ',
    email: 'SAM@example.com',
    phone: '07812 000005',
    merchant_note: 'VIP',
  };
  const first = await patch(A.token, id, body);
  assert.equal(first.status, 200);
  assert.deepEqual(first.body.changed_fields.sort(), ['merchant_note', 'phone']);
  clock.advance(60_000);
  const second = await patch(A.token, id, body);
  assert.equal(second.status, 200);
  assert.deepEqual(second.body.changed_fields, []);
  assert.deepEqual(second.body.customer, first.body.customer);
  const audits = await db.query("SELECT details FROM audit_log WHERE entity = 'customer' AND entity_id = $1", [id]);
  assert.equal(audits.rows.length, 1, 'a no-op replay writes no audit row');
  assert.deepEqual(audits.rows[0].details.changed_fields.sort(), ['merchant_note', 'phone']);
  assert.ok(!JSON.stringify(audits.rows[0].details).includes('+447812000005'), 'audit holds names, never values');
});

test('merchant_note_updated_at moves only when the note changes', async () => {
  const id = await member(A.store.id);
  clock.set('2026-06-01T10:00:00Z');
  const set = await patch(A.token, id, { store_id: A.store.id, merchant_note: 'first' });
  assert.equal(set.body.customer.merchant_note_updated_at, '2026-06-01T10:00:00.000Z');
  clock.set('2026-06-01T11:00:00Z');
  const same = await patch(A.token, id, { store_id: A.store.id, merchant_note: 'first', name: 'Other' });
  assert.deepEqual(same.body.changed_fields, ['name']);
  assert.equal(same.body.customer.merchant_note_updated_at, '2026-06-01T10:00:00.000Z');
  clock.set('2026-06-01T12:00:00Z');
  const changed = await patch(A.token, id, { store_id: A.store.id, merchant_note: 'second' });
  assert.equal(changed.body.customer.merchant_note_updated_at, '2026-06-01T12:00:00.000Z');
  const row = (
    await db.query('SELECT merchant_note_updated_at FROM store_customers WHERE store_id = $1 AND customer_id = $2', [
      A.store.id,
      id,
    ])
  ).rows[0];
  assert.equal(row.merchant_note_updated_at, '2026-06-01T12:00:00.000Z');
});

test('store_id may travel in the query; the token store wins; missing everywhere is 400', async () => {
  const id = await member(A.store.id);
  const viaQuery = await patch(A.token, id, { name: 'Q' }, { store_id: A.store.id });
  assert.equal(viaQuery.status, 200);
  const otherStoreId = await patch(A.token, id, { store_id: B.store.id, name: 'R' });
  assert.equal(otherStoreId.status, 200, 'the authenticated store wins over store_id');
  assert.equal((await customerRow(id)).name, 'R');
  const none = await patch(A.token, id, { name: 'S' });
  assert.equal(none.status, 400);
  assert.equal(errorCode(none), 'VALIDATION_FAILED');
});

test('non-string fields and unknown fields are refused', async () => {
  const id = await member(A.store.id);
  assert.equal((await patch(A.token, id, { store_id: A.store.id, name: null })).status, 400);
  assert.equal((await patch(A.token, id, { store_id: A.store.id, nickname: 'x' })).status, 400);
});

test('a customer token cannot edit customers', async () => {
  const id = await member(A.store.id);
  const res = await patch(await fx.customerToken(id), id, { store_id: A.store.id, name: 'Me' });
  assert.equal(res.status, 403);
  assert.equal(errorCode(res), 'WRONG_TOKEN_KIND');
});

test('concurrent edits claiming the same phone: exactly one wins', async () => {
  const ids = await Promise.all(Array.from({ length: 6 }, () => member(A.store.id)));
  const results = await Promise.all(
    ids.map((id) => patch(A.token, id, { store_id: A.store.id, phone: '07812 000006' })),
  );
  assert.equal(results.filter((r) => r.status === 200).length, 1);
  assert.ok(results.filter((r) => r.status !== 200).every((r) => errorCode(r) === 'PHONE_IN_USE'));
  const owners = await db.query("SELECT count(*)::int AS n FROM customers WHERE phone = '+447812000006'");
  assert.equal(owners.rows[0].n, 1);
});

test('an edit sent again with the same Idempotency-Key replays the first answer', async () => {
  const id = await member(A.store.id, { name: 'Before' });
  const body = { store_id: A.store.id, name: 'After', merchant_note: 'once' };
  const first = await call(app, 'PATCH', `/api/v1/customers/${id}`, {
    token: A.token,
    body,
    idempotencyKey: `edit-${id}`,
  });
  assert.equal(first.status, 200);
  const replay = await call(app, 'PATCH', `/api/v1/customers/${id}`, {
    token: A.token,
    body,
    idempotencyKey: `edit-${id}`,
  });
  assert.equal(replay.status, 200);
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.deepEqual(replay.body, first.body);
  assert.deepEqual(replay.body.changed_fields.sort(), ['merchant_note', 'name']);
  const audits = await db.query(
    "SELECT count(*)::int AS n FROM audit_log WHERE entity = 'customer' AND entity_id = $1",
    [id],
  );
  assert.equal(audits.rows[0].n, 1);
});
