// The role matrix: every operation of /openapi.json, called by a signed-in owner, manager, front
// desk and staff member and by a store API key, is either allowed or refused with 403
// ROLE_FORBIDDEN exactly as the one role table (src/staff/roles.ts) says; a refusal changes
// nothing. Nothing here lists an operation: a new one is covered as soon as it is documented.
// Allowed means "not refused by role": the call may still fail its validation (the bodies here are
// empty) or find nothing. Operations without a merchant rule refuse a staff session by kind.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, errorCode } from '../support/http.ts';
import { NOT_FOR_API_KEYS, RECORD_RULES, ROLE_TABLE, ROLES, roleMay, type Role } from '../../src/staff/roles.ts';
import { as, member, ownerOf, startStaffApp } from './support.ts';

const t = await startStaffApp();
const store = await t.fx.store();
const unit = await t.fx.unit(store.id);
const owner = await ownerOf(t, store.id);
const cookies: Record<Role, string> = {
  owner: owner.cookie,
  manager: (await member(t, owner.cookie, { email: 'manager@m.test', role: 'manager' })).cookie,
  // The front desk works on the same unit: rotating a calendar feed is theirs for their own unit only.
  front_desk: (await member(t, owner.cookie, { email: 'desk@m.test', role: 'front_desk', unit_id: unit.id })).cookie,
  staff: (await member(t, owner.cookie, { email: 'staff@m.test', role: 'staff', unit_id: unit.id })).cookie,
};
const key = (
  await call(
    t.app,
    'POST',
    '/api/v1/api-keys',
    as(owner.cookie, { body: { name: 'Till', scopes: ['merchant:read', 'merchant:write'] } }),
  )
).body.key as string;

// A customer the staff member serves, on an appointment of their unit: the record-level rules let them read it.
const customer = await t.fx.customer({ name: 'Served Sue', email: 'sue@m.test' });
await t.fx.membership(store.id, customer.id);
const token = await t.fx.merchantToken(store.id);
const booked = await call(t.app, 'POST', '/api/v1/bookings/appointments', {
  token,
  body: {
    store_id: store.id,
    unit_id: unit.id,
    customer_id: customer.id,
    starts_at: '2026-06-01T10:00:00Z',
    ends_at: '2026-06-01T10:30:00Z',
  },
});
assert.equal(booked.status, 200, JSON.stringify(booked.body));

const doc = (await call(t.app, 'GET', '/openapi.json')).body;
const operations: Array<{ id: string; method: string; path: string; security: string | null }> = [];
for (const [path, item] of Object.entries<any>(doc.paths)) {
  for (const [method, op] of Object.entries<any>(item)) {
    if (!op?.operationId) continue;
    const scheme = op.security?.[0] ? (Object.keys(op.security[0])[0] ?? null) : null;
    operations.push({ id: op.operationId, method: method.toUpperCase(), path, security: scheme });
  }
}

function urlOf(path: string): string {
  return (
    path
      // The staff member's own unit's feed: the record-level rule lets them read it.
      .replace(/\/units\/\{unitId\}\/calendar-feed$/, `/units/${unit.id}/calendar-feed`)
      .replace('{customerId}', customer.id)
      .replace('{appointmentId}', booked.body.appointment.id)
      .replace('{slug}', 'no-such-page')
      .replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000')
  );
}

async function attempt(op: (typeof operations)[number], headers: Record<string, string>) {
  // An unknown query parameter fails validation where a querystring schema exists, so a stream
  // allowed by role answers 400 at once instead of staying open.
  const url = `${urlOf(op.path)}${op.method === 'GET' ? '?matrix_probe=1' : ''}`;
  return call(t.app, op.method, url, {
    headers,
    ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { body: {} }),
  });
}

const fingerprint = async () =>
  (
    await t.db.query(
      `SELECT (SELECT count(*) FROM audit_log)::int AS audit, (SELECT count(*) FROM events)::int AS events,
          (SELECT count(*) FROM staff_memberships)::int AS members, (SELECT count(*) FROM api_keys WHERE revoked_at IS NULL)::int AS keys`,
    )
  ).rows[0];

test('every merchant operation of /openapi.json has an entry in the role table, and every entry is an operation', () => {
  const merchantOps = new Set(operations.filter((o) => o.security === 'bearerAuth').map((o) => o.id));
  const table = new Set(Object.keys(ROLE_TABLE));
  const customerOnly = [...merchantOps].filter((id) => !table.has(id));
  // The bearer operations missing from the table are the customer's own (no merchant rule).
  for (const id of customerOnly) assert.doesNotMatch(id, /Staff|ApiKey|Session/, id);
  for (const id of table)
    assert.ok(
      operations.some((o) => o.id === id),
      `${id} is in the table but not in /openapi.json`,
    );
  for (const id of Object.keys(RECORD_RULES)) assert.ok(table.has(id), id);
  for (const id of NOT_FOR_API_KEYS) assert.ok(table.has(id), id);
  assert.ok(operations.length >= 90, `${operations.length} operations`);
});

for (const role of ROLES) {
  test(`the ${role} role: every operation allowed or 403 ROLE_FORBIDDEN as the table says, and a refusal changes nothing`, async () => {
    const before = await fingerprint();
    const wrong: string[] = [];
    for (const op of operations) {
      if (
        op.id === 'signOut' ||
        op.id === 'endSession' ||
        op.id === 'updateStaff' ||
        op.id === 'revokeApiKey' ||
        op.id === 'createApiKey' ||
        op.id === 'rotateUnitCalendarFeed'
      ) {
        // Writes that would end this very session or change the cast (covered in staff-accounts.test.ts), or
        // rotate a feed (its own test below): here only the refusals.
        if (roleMay(op.id, role)) continue;
      }
      const res = await attempt(op, { cookie: cookies[role] });
      const refusedByRole = res.status === 403 && errorCode(res) === 'ROLE_FORBIDDEN';
      if (op.id in ROLE_TABLE) {
        // Allowed: past the guard (a validation or lookup answer at most), never unauthenticated or a failure.
        const allowed = !refusedByRole && res.status !== 401 && res.status < 500;
        if (roleMay(op.id, role) !== allowed) wrong.push(`${op.id}: ${res.status} ${res.body?.error?.code ?? ''}`);
      } else if (refusedByRole) {
        wrong.push(`${op.id} (not a merchant operation) refused by role`);
      } else if (op.security === 'bearerAuth') {
        // A customer's operation: a staff session is the wrong kind of caller.
        if (res.status !== 403 || errorCode(res) !== 'WRONG_TOKEN_KIND')
          wrong.push(`${op.id}: ${res.status} (customer operation)`);
      } else if (op.security === 'adminToken') {
        if (res.status !== 401) wrong.push(`${op.id}: ${res.status} (operator operation)`);
      }
    }
    assert.deepEqual(wrong, []);
    const after = await fingerprint();
    assert.equal(after.members, before.members);
    assert.equal(after.keys, before.keys);
    if (role === 'staff') assert.deepEqual(after, before, 'the staff role changed nothing');
  });
}

test("a store API key: what a manager may, within its scopes, but never staff, keys or a person's own sign-in", async () => {
  const wrong: string[] = [];
  for (const op of operations.filter((o) => o.id in ROLE_TABLE)) {
    if (op.id === 'revokeApiKey' && roleMay(op.id, null)) continue;
    const res = await attempt(op, { authorization: `Bearer ${key}` });
    const refusedByRole = res.status === 403 && errorCode(res) === 'ROLE_FORBIDDEN';
    const allowed = !refusedByRole && res.status !== 401 && res.status < 500;
    if (roleMay(op.id, null) !== allowed) wrong.push(`${op.id}: ${res.status} ${res.body?.error?.code ?? ''}`);
  }
  assert.deepEqual(wrong, []);
});

test("the staff role changes only its own unit's appointments and reads only the customers it serves", async () => {
  const other = await t.fx.unit(store.id);
  const elsewhere = await call(t.app, 'POST', '/api/v1/bookings/appointments', {
    token,
    body: {
      store_id: store.id,
      unit_id: other.id,
      guest_name: 'Walk Up',
      guest_email: 'walk@m.test',
      starts_at: '2026-06-01T08:00:00Z',
      ends_at: '2026-06-01T08:30:00Z',
    },
  });
  const stranger = await t.fx.customer({ name: 'Not Served', email: 'ns@m.test' });
  await t.fx.membership(store.id, stranger.id);
  const was = (await t.db.query(`SELECT status FROM appointments WHERE id = $1`, [elsewhere.body.appointment.id]))
    .rows[0].status;
  const refused = await call(
    t.app,
    'POST',
    '/api/v1/bookings/appointments/check-in',
    as(cookies.staff, { body: { store_id: store.id, appointment_id: elsewhere.body.appointment.id } }),
  );
  assert.equal(refused.status, 403);
  assert.equal(errorCode(refused), 'ROLE_FORBIDDEN');
  const still = await t.db.query(`SELECT status FROM appointments WHERE id = $1`, [elsewhere.body.appointment.id]);
  assert.equal(still.rows[0].status, was);
  const own = await call(
    t.app,
    'POST',
    '/api/v1/bookings/appointments/check-in',
    as(cookies.staff, { body: { store_id: store.id, appointment_id: booked.body.appointment.id } }),
  );
  assert.equal(own.status, 200, JSON.stringify(own.body));
  assert.equal(own.body.status, 'checked_in');
  assert.equal(
    (await call(t.app, 'GET', `/api/v1/customers/${customer.id}`, as(cookies.staff, { query: { store_id: store.id } })))
      .status,
    200,
  );
  const notServed = await call(
    t.app,
    'GET',
    `/api/v1/customers/${stranger.id}`,
    as(cookies.staff, { query: { store_id: store.id } }),
  );
  assert.equal(errorCode(notServed), 'ROLE_FORBIDDEN');
  // The audit row names the staff member who checked in.
  const audit = await t.db.query(
    `SELECT actor_name FROM audit_log WHERE entity_id = $1 AND action LIKE '%check%' ORDER BY id DESC LIMIT 1`,
    [booked.body.appointment.id],
  );
  assert.equal(audit.rows[0]?.actor_name, 'Sam Staff');
});

test("the staff role gets and rotates its own unit's calendar feed, and no other unit's; the front desk rotates only its own", async () => {
  const other = await t.fx.unit(store.id);
  const feed = (unitId: string) => `/api/v1/bookings/units/${unitId}/calendar-feed`;
  const mine = await call(t.app, 'GET', feed(unit.id), as(cookies.staff));
  assert.equal(mine.status, 200, JSON.stringify(mine.body));
  assert.match(mine.body.url, /\/feeds\/[A-Za-z0-9_-]{43}\.ics$/);
  const rotated = await call(t.app, 'POST', feed(unit.id), as(cookies.staff, { body: {} }));
  assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
  assert.notEqual(rotated.body.url, mine.body.url);
  assert.equal((await t.app.inject({ method: 'GET', url: new URL(mine.body.url).pathname })).statusCode, 404);
  assert.equal((await t.app.inject({ method: 'GET', url: new URL(rotated.body.url).pathname })).statusCode, 200);

  // Another unit's feed: refused both ways, and its URL is unchanged by the attempt.
  const theirs = await call(t.app, 'GET', feed(other.id), as(cookies.manager));
  assert.equal(theirs.status, 200);
  for (const [method, options] of [
    ['GET', {}],
    ['POST', { body: {} }],
  ] as const) {
    const refused = await call(t.app, method, feed(other.id), as(cookies.staff, options));
    assert.equal(refused.status, 403, `${method} ${JSON.stringify(refused.body)}`);
    assert.equal(errorCode(refused), 'ROLE_FORBIDDEN');
  }
  assert.equal((await call(t.app, 'GET', feed(other.id), as(cookies.manager))).body.url, theirs.body.url);

  // The front desk reads any unit's feed (it reads the diary), but rotates only its own unit's: a
  // rotation breaks the subscription on that person's phone.
  const read = await call(t.app, 'GET', feed(other.id), as(cookies.front_desk));
  assert.equal(read.status, 200, JSON.stringify(read.body));
  assert.equal(read.body.url, theirs.body.url);
  const refused = await call(t.app, 'POST', feed(other.id), as(cookies.front_desk, { body: {} }));
  assert.equal(refused.status, 403, JSON.stringify(refused.body));
  assert.equal(errorCode(refused), 'ROLE_FORBIDDEN');
  assert.equal(refused.body.error.message, "The front_desk role may not do this to another unit's calendar feed");
  assert.equal((await call(t.app, 'GET', feed(other.id), as(cookies.manager))).body.url, theirs.body.url);
  const own = await call(t.app, 'POST', feed(unit.id), as(cookies.front_desk, { body: {} }));
  assert.equal(own.status, 200, JSON.stringify(own.body));
  assert.notEqual(own.body.url, rotated.body.url);
  // A manager rotates any unit's.
  const managed = await call(t.app, 'POST', feed(other.id), as(cookies.manager, { body: {} }));
  assert.equal(managed.status, 200, JSON.stringify(managed.body));
  assert.notEqual(managed.body.url, theirs.body.url);
});
