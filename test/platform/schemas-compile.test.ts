// Route schemas compile when their route first answers (src/platform/http/lazy-compile.ts), so a
// schema that cannot compile would otherwise fail only the first request that reaches it. This
// builds the whole app and compiles every validator and serializer that no request has used yet.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { auth } from '../../src/platform/auth/guard.ts';
import { compilePendingSchemas } from '../../src/platform/http/lazy-compile.ts';
import { ADMIN_TOKEN, startTestApp } from '../support/app.ts';
import { call } from '../support/http.ts';

const store = { name: 'Fade Barbers', timezone: 'Europe/London', currency: 'GBP' };

test('every route schema of the app compiles: the validators and serializers left for a first request', async () => {
  const { app, db } = await startTestApp();
  await app.ready();
  // A route's first request compiles its validator: a bad body is refused in the envelope, and nothing is written.
  const bad = await call(app, 'POST', '/admin/v1/stores', { token: ADMIN_TOKEN, body: { ...store, currency: 5 } });
  assert.equal(bad.status, 400);
  assert.equal(bad.body.error.code, 'VALIDATION_FAILED');
  assert.equal((await db.query('SELECT count(*)::int AS n FROM stores')).rows[0].n, 0);

  const routes = app
    .printRoutes({ commonPrefix: false })
    .split('\n')
    .filter((line) => line.includes('(')).length;
  const compiled = compilePendingSchemas();
  // Every route with a schema has at least a response serializer; most have a validator or more.
  assert.ok(compiled > routes, `compiled ${compiled} schemas for ${routes} route lines`);
  assert.equal(compilePendingSchemas(), 0, 'a compiled schema is never compiled again');
  // The functions compiled ahead answer as the lazy ones did: the good body is served, through its serializer.
  const good = await call(app, 'POST', '/admin/v1/stores', { token: ADMIN_TOKEN, body: store });
  assert.equal(good.status, 200);
  assert.equal(good.body.store.name, 'Fade Barbers');
  assert.equal((await db.query('SELECT count(*)::int AS n FROM stores')).rows[0].n, 1);
});

test('a schema that cannot compile fails the compile of every pending schema', async () => {
  const { app } = await startTestApp({
    extend: async (a) => {
      a.get(
        '/broken',
        {
          config: { auth: auth.merchantRead() },
          schema: { querystring: { type: 'object', properties: { n: { type: 'nonsense' } } } },
        },
        async () => ({}),
      );
    },
  });
  await app.ready();
  assert.throws(() => compilePendingSchemas(), /nonsense|type must be/);
});
