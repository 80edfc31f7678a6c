// First run: a database with no staff account gets a one-time setup link (24 hours, single use) to
// create the first owner; the demo's owner link signs the demo owner in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, errorCode } from '../support/http.ts';
import { demoOwnerLink, firstRunSetupLink } from '../../src/staff/first-run.ts';
import { as, cookieOf, GOOD_PASSWORD, startStaffApp } from './support.ts';

const t = await startStaffApp();
const tokenOf = (link: string) => /#token=([A-Za-z0-9_-]+)$/.exec(link)![1];

test('with no staff account the setup link makes the first owner; a newer link replaces the older; it works once', async () => {
  const store = await t.fx.store();
  const older = await firstRunSetupLink(t.db, t.config, t.clock);
  const link = await firstRunSetupLink(t.db, t.config, t.clock);
  assert.match(link!, /^http:\/\/localhost:3000\/console\/#\/setup#token=[A-Za-z0-9_-]{43}$/);
  const stale = await call(t.app, 'POST', '/api/v1/auth/invitations/accept', {
    body: { token: tokenOf(older!), name: 'First', password: GOOD_PASSWORD, email: 'first@shop.test' },
  });
  assert.equal(errorCode(stale), 'INVITATION_INVALID');
  const noEmail = await call(t.app, 'POST', '/api/v1/auth/invitations/accept', {
    body: { token: tokenOf(link!), name: 'First', password: GOOD_PASSWORD },
  });
  assert.equal(errorCode(noEmail), 'VALIDATION_FAILED');
  const res = await call(t.app, 'POST', '/api/v1/auth/invitations/accept', {
    body: { token: tokenOf(link!), name: 'First Owner', password: GOOD_PASSWORD, email: 'first@shop.test' },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.role, 'owner');
  assert.equal(res.body.store_id, store.id);
  const me = await call(t.app, 'GET', '/api/v1/auth/me', as(cookieOf(res)));
  assert.equal(me.body.staff.email, 'first@shop.test');
  const again = await call(t.app, 'POST', '/api/v1/auth/invitations/accept', {
    body: { token: tokenOf(link!), name: 'Second', password: GOOD_PASSWORD, email: 'second@shop.test' },
  });
  assert.equal(errorCode(again), 'INVITATION_INVALID');
  assert.equal(await firstRunSetupLink(t.db, t.config, t.clock), null);
});

test('the setup link lapses after 24 hours', async () => {
  await t.db.query(`DELETE FROM staff_invitations`);
  const token = tokenOf(
    await (async () => {
      // A fresh database's link, made here directly: staff exist now, so firstRunSetupLink declines.
      const { createSetupToken } = await import('../../src/staff/invitations/invitations.service.ts');
      return `#token=${await createSetupToken(t.db, t.clock.now())}`;
    })(),
  );
  t.clock.advance(24 * 3600 * 1000 + 1000);
  try {
    const late = await call(t.app, 'POST', '/api/v1/auth/invitations/accept', {
      body: { token, name: 'Late', password: GOOD_PASSWORD, email: 'late@shop.test' },
    });
    assert.equal(errorCode(late), 'INVITATION_INVALID');
  } finally {
    t.clock.advance(-(24 * 3600 * 1000 + 1000));
  }
});

test("the demo owner's one-time link signs the demo owner in as owner of the demo store", async () => {
  const store = await t.fx.store();
  const link = await demoOwnerLink(t.db, t.config, t.clock, {
    storeId: store.id,
    email: 'owner@demo.test',
    name: 'Demo Owner',
  });
  assert.match(link, /\/console\/#\/accept#token=/);
  const res = await call(t.app, 'POST', '/api/v1/auth/invitations/accept', {
    body: { token: tokenOf(link), name: 'Demo Owner', password: GOOD_PASSWORD },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.role, 'owner');
  assert.equal(res.body.store_id, store.id);
  const reused = await call(t.app, 'POST', '/api/v1/auth/invitations/accept', {
    body: { token: tokenOf(link), name: 'Demo Owner', password: GOOD_PASSWORD },
  });
  assert.equal(errorCode(reused), 'INVITATION_INVALID');
});
