import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestApp } from '../support/app.ts';
import { call } from '../support/http.ts';
import { ERRORS } from '../../src/platform/errors/error-codes.ts';

const t = await startTestApp();

test('/openapi.json is a valid OpenAPI 3.1 document', async () => {
  const res = await call(t.app, 'GET', '/openapi.json');
  assert.equal(res.status, 200);
  assert.equal(res.body.openapi, '3.1.0');
  const validator = new Validator();
  const result = await validator.validate(res.body);
  assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2)?.slice(0, 2000));
});

test('every operation has an id, a success schema, error responses and security', async () => {
  const doc = (await call(t.app, 'GET', '/openapi.json')).body;
  const ids = new Set<string>();
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      assert.ok(op.operationId, `${where} has no operationId`);
      assert.ok(!ids.has(op.operationId), `${where} repeats operationId ${op.operationId}`);
      ids.add(op.operationId);
      assert.ok(op.responses?.['200'], `${where} has no 200 response`);
      assert.ok(op.responses?.['4XX'] ?? op.responses?.['4xx'], `${where} documents no 4xx`);
      assert.ok(op.security?.length, `${where} states no security`);
    }
  }
  assert.ok(ids.size > 5);
});

test('the error catalogue is published', async () => {
  const doc = (await call(t.app, 'GET', '/openapi.json')).body;
  assert.deepEqual(Object.keys(doc['x-error-codes']).sort(), Object.keys(ERRORS).sort());
});

test('the docs page is served', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/docs' });
  assert.ok([200, 302].includes(res.statusCode));
});
