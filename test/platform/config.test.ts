import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../../src/config.ts';

test('defaults serve the embedded engine on 127.0.0.1:3000 with the operator surface off', () => {
  const config = loadConfig({});
  assert.equal(config.port, 3000);
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.databaseUrl, null);
  assert.equal(config.adminToken, null);
  assert.ok(config.dataDir.endsWith('/data'));
  assert.ok(Object.isFrozen(config));
});

test('bad values are refused at start with a message naming the variable', () => {
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: 'eighty' }, /PORT/],
    [{ PORT: '70000' }, /PORT/],
    [{ DATABASE_URL: 'mysql://x' }, /DATABASE_URL/],
    [{ REDIS_URL: 'http://x' }, /REDIS_URL/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL/],
    [{ AUTH_SECRET: 'short' }, /AUTH_SECRET/],
    [{ ADMIN_TOKEN: 'tiny' }, /ADMIN_TOKEN/],
    [{ NODE_ENV: 'production' }, /AUTH_SECRET is required/],
    [{ AUTH_JWKS_URL: 'ftp://idp' }, /AUTH_JWKS_URL/],
  ];
  for (const [env, message] of cases) {
    assert.throws(
      () => loadConfig(env),
      (err: unknown) => err instanceof ConfigError && message.test((err as Error).message),
      JSON.stringify(env),
    );
  }
});

test('the embedded PostgreSQL gets a pool of 4 connections, a server 16, unless DB_POOL_SIZE says otherwise', () => {
  assert.equal(loadConfig({}).dbPoolSize, 4);
  assert.equal(loadConfig({ DATABASE_URL: 'postgres://u@db.example/shop' }).dbPoolSize, 16);
  assert.equal(loadConfig({ DB_POOL_SIZE: '12' }).dbPoolSize, 12);
});

test('EMBEDDED_POSTGRES_SETTINGS names extra settings for the embedded PostgreSQL; anything else is refused', () => {
  assert.deepEqual(loadConfig({}).embeddedSettings, {});
  assert.deepEqual(loadConfig({ EMBEDDED_POSTGRES_SETTINGS: 'shared_buffers=16MB, work_mem=2MB' }).embeddedSettings, {
    shared_buffers: '16MB',
    work_mem: '2MB',
  });
  // An extension's own settings are qualified by its name.
  assert.deepEqual(
    loadConfig({
      EMBEDDED_POSTGRES_SETTINGS: 'shared_preload_libraries=pg_stat_statements,pg_stat_statements.track=all',
    }).embeddedSettings,
    { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.track': 'all' },
  );
  for (const bad of ['shared_buffers', 'x=1;DROP', "work_mem='4MB'", 'Max=1', 'a.b.c=1', '.track=all']) {
    assert.throws(() => loadConfig({ EMBEDDED_POSTGRES_SETTINGS: bad }), /EMBEDDED_POSTGRES_SETTINGS must be/, bad);
  }
});

test('prepared statements are on unless DB_PREPARED_STATEMENTS turns them off', () => {
  assert.equal(loadConfig({}).dbPreparedStatements, true);
  assert.equal(loadConfig({ DB_PREPARED_STATEMENTS: 'false' }).dbPreparedStatements, false);
  assert.equal(loadConfig({ DB_PREPARED_STATEMENTS: '0' }).dbPreparedStatements, false);
  assert.equal(loadConfig({ DB_PREPARED_STATEMENTS: 'true' }).dbPreparedStatements, true);
  assert.throws(() => loadConfig({ DB_PREPARED_STATEMENTS: 'sometimes' }), /DB_PREPARED_STATEMENTS/);
});
