// Traces (issue 29, src/platform/tracing/): with tracing on, each request is one trace whose root is
// the request's span (named by its route template) and whose database statements are its
// descendants; no attribute, name, event or status of any span carries a body, a token, an email or
// a phone number, or a statement's values.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startTracing } from '../../src/platform/tracing/tracing.ts';
import { parseTracingConfig } from '../../src/platform/tracing/tracing.config.ts';
import { startTestApp } from '../support/app.ts';
import { engine } from '../support/engine.ts';

const exporter = new InMemorySpanExporter();
// Tracing starts after this file's imports loaded pg: the loaded module is patched all the same.
const tracing = startTracing(
  parseTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9/unused' }, (m) => {
    throw new Error(m);
  }),
  { exporter },
);
const t = await startTestApp();
// Both engines are PostgreSQL through node-postgres (the embedded one in a child process): traced alike.
const onPg = engine === 'pg' || engine === 'embedded';

const EMAIL = 'grace.hopper.trace@example.org';
const PHONE_TYPED = '07812 345678';
const PHONE_STORED = '+447812345678';
const NOTE = 'prefers the window seat, allergic to latex';

function spansOf(traceId: string): ReadableSpan[] {
  return exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
}

/** Every string a span exports: name, attribute values, events, status message, resource. */
function exportedText(span: ReadableSpan): string {
  return JSON.stringify({
    name: span.name,
    attributes: span.attributes,
    events: span.events.map((e) => ({ name: e.name, attributes: e.attributes })),
    status: span.status,
    links: span.links,
  });
}

/** The request's one trace: its root span and every span beneath it. */
function traceOfLastRequest(route: string, method: string): { root: ReadableSpan; spans: ReadableSpan[] } {
  const roots = exporter.getFinishedSpans().filter((s) => s.name === `${method} ${route}`);
  assert.ok(
    roots.length >= 1,
    `a request span named "${method} ${route}" (spans: ${exporter
      .getFinishedSpans()
      .map((s) => s.name)
      .join(', ')})`,
  );
  const root = roots[roots.length - 1];
  return { root, spans: spansOf(root.spanContext().traceId) };
}

function parentOf(span: ReadableSpan): string | undefined {
  return (span as any).parentSpanContext?.spanId ?? (span as any).parentSpanId;
}

test('one trace per request, rooted at the request span, with its database statements beneath it', async () => {
  const store = await t.fx.store();
  const merchant = await t.fx.merchantToken(store.id);
  exporter.reset();
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/v1/customers/list?store_id=${store.id}`,
    headers: { authorization: `Bearer ${merchant}` },
  });
  assert.equal(res.statusCode, 200, res.body);
  const again = await t.app.inject({
    method: 'GET',
    url: `/api/v1/customers/list?store_id=${store.id}`,
    headers: { authorization: `Bearer ${merchant}` },
  });
  assert.equal(again.statusCode, 200);

  const roots = exporter.getFinishedSpans().filter((s) => s.name === 'GET /api/v1/customers/list');
  assert.equal(roots.length, 2, 'one request span per request');
  assert.notEqual(roots[0].spanContext().traceId, roots[1].spanContext().traceId, 'each request is its own trace');
  for (const root of roots) {
    assert.equal(parentOf(root), undefined, 'the request span is the root');
    assert.equal(root.attributes['http.route'], '/api/v1/customers/list');
    assert.equal(root.attributes['http.request.method'], 'GET');
    assert.equal(root.attributes['http.response.status_code'], 200);
    assert.equal(root.attributes['url.path'], '/api/v1/customers/list', 'the path without its query string');
    const spans = spansOf(root.spanContext().traceId);
    const ids = new Set(spans.map((s) => s.spanContext().spanId));
    for (const s of spans)
      if (s !== root) assert.ok(ids.has(parentOf(s)!), `${s.name} hangs from a span of the same trace`);
    const statements = spans.filter(
      (s) => s.attributes['db.system'] === 'postgresql' || s.attributes['db.system.name'] === 'postgresql',
    );
    if (onPg) {
      assert.ok(statements.length >= 1, `database spans in the trace (spans: ${spans.map((s) => s.name).join(', ')})`);
      for (const s of statements) {
        const sql = String(s.attributes['db.statement'] ?? s.attributes['db.query.text'] ?? '');
        if (sql) assert.doesNotMatch(sql, new RegExp(store.id), 'statement text carries placeholders, not values');
        assert.equal(s.attributes['db.postgresql.values'], undefined);
      }
    }
  }
});

test('no body, token, email, phone or note in any span of a search and an edit', async () => {
  const store = await t.fx.store();
  const merchant = await t.fx.merchantToken(store.id);
  const customer = await t.fx.customer({ name: 'Grace Tracewell', email: EMAIL, phone: PHONE_STORED });
  await t.fx.membership(store.id, customer.id);
  exporter.reset();

  const byEmail = await t.app.inject({
    method: 'GET',
    url: `/api/v1/customers/search?store_id=${store.id}&q=${encodeURIComponent(EMAIL)}`,
    headers: { authorization: `Bearer ${merchant}` },
  });
  assert.equal(byEmail.statusCode, 200, byEmail.body);
  assert.equal(JSON.parse(byEmail.body).customers[0]?.id, customer.id, 'the search found the customer');
  const byPhone = await t.app.inject({
    method: 'GET',
    url: `/api/v1/customers/search?store_id=${store.id}&q=${encodeURIComponent(PHONE_TYPED)}`,
    headers: { authorization: `Bearer ${merchant}` },
  });
  assert.equal(byPhone.statusCode, 200, byPhone.body);
  const edit = await t.app.inject({
    method: 'PATCH',
    url: `/api/v1/customers/${customer.id}?store_id=${store.id}`,
    headers: { authorization: `Bearer ${merchant}` },
    payload: { email: `new.${EMAIL}`, phone: '07400 123456', merchant_note: NOTE },
  });
  assert.equal(edit.statusCode, 200, edit.body);
  // A refused request too (its error must not be recorded with its input).
  const refused = await t.app.inject({
    method: 'PATCH',
    url: `/api/v1/customers/${customer.id}?store_id=${store.id}`,
    headers: { authorization: `Bearer ${merchant}` },
    payload: { phone: 'call 07812 345678 please' },
  });
  assert.equal(refused.statusCode, 400);

  const spans = exporter.getFinishedSpans();
  // The refused edit's span says it failed (status code), without the error's message.
  const failed = spans.filter(
    (s) => s.name === 'PATCH /api/v1/customers/:customerId' && s.attributes['http.response.status_code'] === 400,
  );
  assert.equal(failed.length, 1);
  assert.equal(failed[0].status.message, undefined);
  assert.ok(spans.filter((s) => parentOf(s) === undefined).length >= 4, 'each request left its trace');
  const search = traceOfLastRequest('/api/v1/customers/search', 'GET');
  if (onPg)
    assert.ok(
      search.spans.some(
        (s) => s.attributes['db.system'] === 'postgresql' || s.attributes['db.system.name'] === 'postgresql',
      ),
      "the search's statements are traced",
    );
  const forbidden = [
    EMAIL,
    `new.${EMAIL}`,
    'grace.hopper',
    encodeURIComponent(EMAIL),
    PHONE_STORED,
    '7812345678',
    '07812',
    '345678',
    '7400123456',
    '123456',
    NOTE,
    'window seat',
    'Tracewell',
    merchant,
    merchant.split('.')[2],
  ];
  for (const span of spans) {
    const text = exportedText(span);
    for (const value of forbidden)
      assert.ok(!text.includes(value), `span "${span.name}" exports ${JSON.stringify(value)}: ${text}`);
    assert.doesNotMatch(text, /[?&]q=/, 'no query string');
    assert.doesNotMatch(text, /[Bb]earer/);
  }
});

test('OTEL_EXPORTER_OTLP_ENDPOINT turns tracing on; unset, off; anything but an http(s) URL is refused at start', () => {
  const fail = (m: string): never => {
    throw new Error(m);
  };
  assert.equal(parseTracingConfig({}, fail).endpoint, null);
  assert.deepEqual(
    {
      ...parseTracingConfig(
        { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SERVICE_NAME: 'api-eu' },
        fail,
      ),
    },
    { endpoint: 'http://collector:4318', serviceName: 'api-eu' },
  );
  assert.throws(
    () => parseTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4317' }, fail),
    /OTEL_EXPORTER_OTLP_ENDPOINT must be an http\(s\) URL/,
  );
});

test.after(() => tracing.shutdown());
