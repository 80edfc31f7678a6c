// The checker behind call(): it must refuse what the document does not allow, or the whole suite's
// conformance check would pass vacuously.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../support/app.ts';
import { checkAnswer } from '../support/conformance.ts';

const t = await startTestApp();
const json = 'application/json; charset=utf-8';
const queue = {
  store_id: '6f1b6c1e-1111-4c1e-8a1e-1234567890ab',
  walkin_mode: null,
  called_hold_minutes: null,
  entries: [],
};
const envelope = { error: { code: 'NOT_FOUND', message: 'x', requestId: 'r' } };

test('a conforming answer passes; a wrong field, a missing field or a wrong enum value is a mismatch', () => {
  assert.equal(checkAnswer(t.app, 'GET', '/api/v1/bookings/queue?store_id=x', 200, json, queue), null);
  assert.equal(
    checkAnswer(t.app, 'GET', '/api/v1/bookings/queue', 200, json, { ...queue, walkin_mode: 'mixed' }),
    null,
  );
  assert.match(
    String(checkAnswer(t.app, 'GET', '/api/v1/bookings/queue', 200, json, { ...queue, walkin_mode: 'sometimes' })),
    /200 schema/,
  );
  assert.match(
    String(checkAnswer(t.app, 'GET', '/api/v1/bookings/queue', 200, json, { ...queue, called_hold_minutes: '10' })),
    /200 schema/,
  );
  const { entries: _entries, ...missing } = queue;
  assert.match(String(checkAnswer(t.app, 'GET', '/api/v1/bookings/queue', 200, json, missing)), /entries/);
});

test('errors must be the envelope; a status the operation does not document is a mismatch', () => {
  assert.equal(checkAnswer(t.app, 'POST', '/api/v1/bookings/queue/call', 404, json, envelope), null);
  assert.match(
    String(checkAnswer(t.app, 'POST', '/api/v1/bookings/queue/call', 404, json, { error: 'Not Found' })),
    /4XX/,
  );
  assert.match(String(checkAnswer(t.app, 'POST', '/api/v1/bookings/queue/call', 201, json, {})), /does not list/);
  assert.match(
    String(checkAnswer(t.app, 'POST', '/api/v1/bookings/queue/call', 200, 'text/plain', 'ok')),
    /application\/json/,
  );
});

test('a path with parameters is matched by its template, static segments first', () => {
  const id = '6f1b6c1e-1111-4c1e-8a1e-1234567890ab';
  assert.match(
    String(checkAnswer(t.app, 'PATCH', `/api/v1/customers/${id}`, 200, json, { updated: 1, customers: [] })),
    /PATCH \/api\/v1\/customers\/\{customerId\}/,
  );
  assert.match(
    String(checkAnswer(t.app, 'PATCH', '/api/v1/customers/block', 200, json, { customer: {} })),
    /PATCH \/api\/v1\/customers\/block /,
  );
});

test('undocumented paths: a success is not checked, an error must still be the envelope', () => {
  assert.equal(checkAnswer(t.app, 'GET', '/healthz', 200, json, { status: 'ok' }), null);
  assert.equal(checkAnswer(t.app, 'GET', '/nowhere', 404, json, envelope), null);
  assert.match(
    String(checkAnswer(t.app, 'GET', '/nowhere', 404, json, { statusCode: 404, error: 'Not Found' })),
    /outside the error envelope/,
  );
  assert.match(String(checkAnswer(t.app, 'GET', '/nowhere', 414, 'text/html', '<h1>')), /not the error envelope/);
});
