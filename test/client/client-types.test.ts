// The committed client types (client/schema.d.ts) must be what `npm run client:generate` would write
// from the document this app serves: a route or schema change without regenerating fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startTestApp } from '../support/app.ts';
import { GENERATED_FILE, openApiDocument, renderTypes } from '../../client/openapi-types.ts';

const { app, engine } = await startTestApp();

test('the generated client types match the served OpenAPI document (run npm run client:generate)', {
  skip: engine !== 'embedded' && 'one engine is enough',
}, async () => {
  const expected = await renderTypes(await openApiDocument(app));
  const committed = readFileSync(GENERATED_FILE, 'utf8');
  assert.ok(
    committed === expected,
    'client/schema.d.ts is stale against /openapi.json: run `npm run client:generate` and commit the result',
  );
});

test('the generated types cover every operation the console calls', async () => {
  const committed = readFileSync(GENERATED_FILE, 'utf8');
  for (const path of [
    '/api/v1/bookings/diary',
    '/api/v1/bookings/appointments/reschedule',
    '/api/v1/bookings/queue/assign',
    '/api/v1/customers/{customerId}',
  ]) {
    assert.ok(committed.includes(`"${path}"`), path);
  }
});
