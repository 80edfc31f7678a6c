// Races on staff accounts, on both engines, through two app instances in this process (each with its
// own pool, so the database sees two clients racing, as it would from two processes): two owners removing each
// other at once (the store keeps one: the owner rows are locked before the count), and one
// invitation accepted twice at once (the conditional UPDATE takes it once).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, errorCode } from '../support/http.ts';
import { as, GOOD_PASSWORD, mailedToken, member, ownerOf, startStaffApp } from './support.ts';

const t = await startStaffApp();
const other = await t.sibling();

test('two owners disabling each other at once (two app instances): exactly one succeeds, the store keeps an enabled owner', async () => {
  for (let round = 0; round < 4; round++) {
    const store = await t.fx.store();
    const a = await ownerOf(t, store.id, `a${round}@race.test`);
    const b = await member(t, a.cookie, { email: `b${round}@race.test`, role: 'owner' });
    const [x, y] = await Promise.all([
      call(t.app, 'PATCH', `/api/v1/staff/${b.id}`, as(a.cookie, { body: { disabled: true } })),
      call(other, 'PATCH', `/api/v1/staff/${a.id}`, as(b.cookie, { body: { disabled: true } })),
    ]);
    const outcomes = [x, y]
      .map((r) => (r.status === 200 ? 'ok' : r.status === 401 ? 'signed-out' : errorCode(r)))
      .sort();
    // The loser is refused as the last owner, or (when the winner committed first) its session has ended.
    assert.equal(outcomes.filter((o) => o === 'ok').length, 1, JSON.stringify(outcomes));
    assert.ok(
      outcomes.every((o) => ['ok', 'LAST_OWNER', 'signed-out'].includes(o)),
      JSON.stringify(outcomes),
    );
    const owners = await t.db.query(
      `SELECT count(*)::int AS n FROM staff_memberships WHERE store_id = $1 AND role = 'owner' AND NOT disabled`,
      [store.id],
    );
    assert.equal(owners.rows[0].n, 1);
  }
});

test('one invitation accepted twice at once (two app instances): one person, one membership, one 200', async () => {
  const store = await t.fx.store();
  const owner = await ownerOf(t, store.id, 'inviter@race.test');
  await call(
    t.app,
    'POST',
    '/api/v1/staff/invitations',
    as(owner.cookie, { body: { email: 'twin@race.test', role: 'staff' } }),
  );
  const token = await mailedToken(t.smtp, 'twin@race.test');
  const body = { token, name: 'Twin', password: GOOD_PASSWORD };
  const [x, y] = await Promise.all([
    call(t.app, 'POST', '/api/v1/auth/invitations/accept', { body }),
    call(other, 'POST', '/api/v1/auth/invitations/accept', { body }),
  ]);
  assert.deepEqual([x.status, y.status].sort(), [200, 400], JSON.stringify([x.body, y.body]));
  const rows = await t.db.query(
    `SELECT count(*)::int AS n FROM staff_memberships m JOIN staff_people p ON p.id = m.staff_id WHERE p.email = 'twin@race.test'`,
  );
  assert.equal(rows.rows[0].n, 1);
});
