// Lifecycle stages on GET /api/v1/customers/list, at their boundaries, on a fixed clock.
// Definitions (docs/decisions/customers.md): current = a visit within 30 days; lapsed = none within 90 days.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call } from '../../support/http.ts';
import { feed } from '../activity/feed.ts';

const NOW = Date.parse('2026-06-01T09:00:00.000Z');
const { app, fx, clock } = await startTestApp({ now: new Date(NOW).toISOString() });
const DAY = 86_400_000;
const ago = (ms: number) => new Date(NOW - ms).toISOString();

const store = await fx.store();
const token = await fx.merchantToken(store.id);

async function customerWithVisits(name: string, instants: string[]) {
  const c = await fx.customer({ name });
  for (const at of instants)
    await feed(app, store.id, { kind: 'order', customer_id: c.id, amount_pence: 100, created_at: at });
  return c.id;
}

async function customerSeenAt(name: string, at: string) {
  const c = await fx.customer({ name });
  // A message is a touchpoint but not a visit: the relationship starts at `at` with no visits.
  await feed(app, store.id, { kind: 'journey_event', customer_id: c.id, type: 'message', occurred_at: at });
  return c.id;
}

const expected: Record<string, string> = {
  [await customerWithVisits('one visit exactly 30 days ago', [ago(30 * DAY)])]: 'new',
  [await customerWithVisits('one visit 30 days and 1 ms ago', [ago(30 * DAY + 1)])]: 'stale',
  [await customerWithVisits('two visits, last exactly 30 days ago', [ago(40 * DAY), ago(30 * DAY)])]: 'active',
  [await customerWithVisits('two visits, last 30 days and 1 ms ago', [ago(40 * DAY), ago(30 * DAY + 1)])]: 'stale',
  [await customerWithVisits('last visit exactly 90 days ago', [ago(100 * DAY), ago(90 * DAY)])]: 'stale',
  [await customerWithVisits('last visit 90 days and 1 ms ago', [ago(100 * DAY), ago(90 * DAY + 1)])]: 'lapsed',
  [await customerWithVisits('back after a gap of 90 days and 1 ms', [ago(91 * DAY + 1), ago(DAY)])]: 'returning',
  [await customerWithVisits('back after a gap of exactly 90 days', [ago(91 * DAY), ago(DAY)])]: 'active',
  [await customerWithVisits('back after a long gap, visiting weekly since', [
    ago(200 * DAY),
    ago(14 * DAY),
    ago(7 * DAY),
  ])]: 'active',
  [await customerSeenAt('no visit, first seen exactly 30 days ago', ago(30 * DAY))]: 'new',
  [await customerSeenAt('no visit, first seen 30 days and 1 ms ago', ago(30 * DAY + 1))]: 'stale',
  [await customerSeenAt('no visit, first seen 90 days and 1 ms ago', ago(90 * DAY + 1))]: 'lapsed',
};

async function stages(query: Record<string, string | number> = {}) {
  const res = await call(app, 'GET', '/api/v1/customers/list', {
    token,
    query: { store_id: store.id, limit: 100, ...query },
  });
  assert.equal(res.status, 200);
  return res.body;
}

describe('lifecycle stages', () => {
  it('every customer is in exactly the stage its visits give it', async () => {
    clock.set(new Date(NOW));
    const body = await stages();
    assert.equal(body.customers.length, Object.keys(expected).length);
    for (const row of body.customers) assert.equal(row.lifecycle_stage, expected[row.id], row.name);
  });

  it('the stage filter returns exactly that stage, and total_count counts it', async () => {
    clock.set(new Date(NOW));
    for (const stage of ['new', 'active', 'stale', 'lapsed', 'returning']) {
      const want = Object.entries(expected)
        .filter(([, s]) => s === stage)
        .map(([id]) => id)
        .sort();
      const body = await stages({ stage });
      assert.deepEqual(body.customers.map((r: any) => r.id).sort(), want, stage);
      assert.equal(body.pagination.total_count, want.length, stage);
    }
  });

  it('stages are measured from the clock: a millisecond later, the 30-day boundary has passed', async () => {
    clock.set(new Date(NOW + 1));
    const body = await stages({ stage: 'new' });
    assert.deepEqual(
      body.customers.map((r: any) => r.name),
      [],
    );
    const stale = await stages({ stage: 'stale' });
    assert.ok(stale.customers.some((r: any) => r.name === 'one visit exactly 30 days ago'));
    clock.set(new Date(NOW));
  });
});
