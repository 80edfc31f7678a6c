// Sign-in throttling: 10 failures in 15 minutes for an account, 100 in an hour from an address, each
// answered 429 with Retry-After; nothing locks an account for good. No secret reaches the log.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call, errorCode } from '../support/http.ts';
import { GOOD_PASSWORD, ownerOf, startStaffApp } from './support.ts';

const t = await startStaffApp();
const store = await t.fx.store();
await ownerOf(t, store.id, 'locked@shop.test');

const signIn = (email: string, password: string) =>
  call(t.app, 'POST', '/api/v1/auth/sign-in', { body: { email, password } });

test('after 10 failures in 15 minutes the account answers 429 with Retry-After, even to the right password, and opens again', async () => {
  for (let i = 0; i < 10; i++)
    assert.equal((await signIn('locked@shop.test', 'wrong password number ' + i)).status, 401);
  const held = await signIn('locked@shop.test', GOOD_PASSWORD);
  assert.equal(held.status, 429);
  assert.equal(errorCode(held), 'TOO_MANY_SIGN_INS');
  const retry = Number(held.headers['retry-after']);
  assert.ok(retry > 0 && retry <= 15 * 60, `Retry-After ${retry}`);
  // An unknown email is throttled the same way: the answers never tell the two apart.
  for (let i = 0; i < 10; i++) await signIn('ghost@shop.test', 'wrong password number ' + i);
  const ghost = await signIn('ghost@shop.test', GOOD_PASSWORD);
  assert.equal(ghost.status, 429);
  t.clock.advance(retry * 1000);
  try {
    const open = await signIn('locked@shop.test', GOOD_PASSWORD);
    assert.equal(open.status, 200);
  } finally {
    t.clock.advance(-retry * 1000);
  }
});

test('after 100 failures in an hour from one address, that address answers 429 for any account', async () => {
  await t.db.query(`DELETE FROM staff_sign_in_failures`);
  for (let i = 0; i < 100; i++) {
    const res = await signIn(`someone${i}@shop.test`, 'wrong password here');
    assert.equal(res.status, 401);
  }
  const held = await signIn('locked@shop.test', GOOD_PASSWORD);
  assert.equal(held.status, 429);
  assert.ok(Number(held.headers['retry-after']) <= 3600);
  await t.db.query(`DELETE FROM staff_sign_in_failures`);
});
