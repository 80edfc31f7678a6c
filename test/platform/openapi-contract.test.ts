// The published document against the contract: every operation of ../shared/spec/api.md under
// exactly its method and path, every nullable schema admitting null, and a clean standard lint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Ajv } from 'ajv';
import addFormatsImport from 'ajv-formats';
import { createConfig, lint } from '@redocly/openapi-core';
import { startTestApp } from '../support/app.ts';
import { call } from '../support/http.ts';

const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;
const t = await startTestApp();
const doc = (await call(t.app, 'GET', '/openapi.json')).body;

/** The 29 operations the spec shows under Endpoints, method and path exactly as written there. */
const SPEC_OPERATIONS = [
  'POST /api/v1/bookings/appointments',
  'POST /api/v1/bookings/appointments/cancel',
  'POST /api/v1/bookings/appointments/check-in',
  'POST /api/v1/bookings/appointments/complete',
  'POST /api/v1/bookings/appointments/no-show',
  'POST /api/v1/bookings/appointments/reschedule',
  'GET /api/v1/bookings/appointments/search',
  'POST /api/v1/bookings/appointments/settle',
  'GET /api/v1/bookings/diary',
  'GET /api/v1/bookings/queue',
  'POST /api/v1/bookings/queue/assign',
  'POST /api/v1/bookings/queue/call',
  'POST /api/v1/bookings/queue/remove',
  'GET /api/v1/bookings/service-periods',
  'POST /api/v1/bookings/service-periods',
  'PATCH /api/v1/bookings/service-periods/{periodId}',
  'DELETE /api/v1/bookings/service-periods/{periodId}',
  'GET /api/v1/bookings/services',
  'POST /api/v1/bookings/services',
  'PATCH /api/v1/bookings/services/{serviceId}',
  'PATCH /api/v1/customers/{customerId}',
  'PATCH /api/v1/customers/{customerId}/block',
  'PATCH /api/v1/customers/block',
  'GET /api/v1/customers/{customerId}/attendance',
  'GET /api/v1/customers/{customerId}/journey',
  'GET /api/v1/customers/list',
  'GET /api/v1/customers/search',
  'GET /api/v1/notifications/preferences',
  'POST /api/v1/notifications/preferences',
];

test('the 29 operations of the spec are published under exactly their method and path', () => {
  assert.equal(SPEC_OPERATIONS.length, 29);
  const published = new Set<string>();
  for (const [p, item] of Object.entries<any>(doc.paths)) {
    for (const method of Object.keys(item)) published.add(`${method.toUpperCase()} ${p}`);
  }
  const missing = SPEC_OPERATIONS.filter((op) => !published.has(op));
  assert.deepEqual(missing, [], `not in /openapi.json: ${missing.join(', ')}`);
  // The spec's own names where it gives them.
  assert.equal(doc.paths['/api/v1/bookings/appointments/search'].get.operationId, 'searchAppointmentPeople');
  assert.equal(doc.paths['/api/v1/notifications/preferences'].get.operationId, 'listNotificationPreferences');
});

test('no published path ends in a slash', () => {
  assert.deepEqual(
    Object.keys(doc.paths).filter((p) => p.length > 1 && p.endsWith('/')),
    [],
  );
});

/** Every schema object in the document, with its JSON pointer. */
function* schemasIn(node: any, pointer: string): Generator<[string, any]> {
  if (!node || typeof node !== 'object') return;
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) yield* schemasIn(node[i], `${pointer}/${i}`);
    return;
  }
  if ('type' in node || 'anyOf' in node || 'oneOf' in node || 'enum' in node) yield [pointer, node];
  for (const [k, v] of Object.entries(node)) yield* schemasIn(v, `${pointer}/${k}`);
}

const saysNullable = (s: any) =>
  (Array.isArray(s.type) && s.type.includes('null')) ||
  s.nullable === true ||
  [...(s.anyOf ?? []), ...(s.oneOf ?? [])].some((b: any) => b?.type === 'null');

test('every nullable schema in the document admits null (enums included)', () => {
  const ajv = new Ajv({ strict: false, discriminator: true });
  addFormats(ajv);
  for (const [name, schema] of Object.entries<any>(doc.components?.schemas ?? {}))
    ajv.addSchema(schema, `#/components/schemas/${name}`);
  const refused: string[] = [];
  let checked = 0;
  for (const [pointer, schema] of schemasIn(doc.paths, '#/paths')) {
    if (!saysNullable(schema)) continue;
    checked++;
    const { $id: _id, ...plain } = schema;
    if (!ajv.validate(plain, null)) refused.push(pointer);
  }
  assert.ok(checked > 100, `only ${checked} nullable schemas found`);
  assert.deepEqual(refused, [], `nullable schemas refusing null:\n${refused.join('\n')}`);
});

test("the document passes Redocly's recommended rules with no errors or warnings (in-process, no network)", async () => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bbo-openapi-')), 'openapi.json');
  fs.writeFileSync(file, JSON.stringify(doc));
  try {
    const config = await createConfig({ extends: ['recommended'] } as any);
    const problems = await lint({ ref: file, config });
    const lines = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer}`);
    // Issue 44 names both /api/v1/classes/{classId}/occurrences and /api/v1/classes/occurrences/{id} (and
    // /bookings/{id}): the router takes a literal segment before a parameter, and a classId is a uuid,
    // so they never meet (docs/decisions/classes.md).
    const namedByIssue44 = (line: string) =>
      line.includes('no-ambiguous-paths') && line.includes('`/api/v1/classes/{classId}/');
    assert.deepEqual(
      lines.filter((line) => !namedByIssue44(line)),
      [],
    );
  } finally {
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  }
});

test('the docs page lists the merchant and customer surfaces before the operator surface', () => {
  const names = doc.tags.map((tag: { name: string }) => tag.name);
  assert.equal(names.at(-1), 'Operator');
  const used = new Set<string>();
  for (const item of Object.values<any>(doc.paths))
    for (const op of Object.values<any>(item)) for (const tag of op.tags ?? []) used.add(tag);
  assert.deepEqual(
    [...used].filter((tag) => !names.includes(tag)),
    [],
    "every tag in use is listed in the document's tag order",
  );
});
