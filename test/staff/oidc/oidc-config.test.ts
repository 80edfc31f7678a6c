import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../../src/config.ts';

const base = { AUTH_SECRET: 'test-secret-0123456789-0123456789-abcdef', LOG_LEVEL: 'silent' };
const all = { OIDC_ISSUER: 'https://accounts.example.test', OIDC_CLIENT_ID: 'console', OIDC_CLIENT_SECRET: 'secret' };

test('OIDC is off without its settings, and on with all three', () => {
  assert.equal(loadConfig(base).oidc, null);
  assert.deepEqual(loadConfig({ ...base, ...all }).oidc, {
    issuer: 'https://accounts.example.test',
    clientId: 'console',
    clientSecret: 'secret',
    insecureLoopback: false,
  });
});

test('OIDC settings go together: one or two of the three stop the start', () => {
  for (const missing of ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET']) {
    const env: Record<string, string> = { ...base, ...all };
    delete env[missing];
    assert.throws(
      () => loadConfig(env),
      (err: unknown) => err instanceof ConfigError && /set all three or none/.test(err.message),
      missing,
    );
  }
});

test('the issuer is https, or plain http only on loopback', () => {
  assert.throws(
    () => loadConfig({ ...base, ...all, OIDC_ISSUER: 'http://idp.example.test' }),
    (err: unknown) => err instanceof ConfigError && /must be https/.test(err.message),
  );
  assert.throws(() => loadConfig({ ...base, ...all, OIDC_ISSUER: 'not a url' }), ConfigError);
  assert.equal(loadConfig({ ...base, ...all, OIDC_ISSUER: 'http://127.0.0.1:4000' }).oidc?.insecureLoopback, true);
});
