// Property: walking the journey page by page with nextCursor yields exactly the full feed, in order,
// however many events share a timestamp and whatever the page size.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startTestApp } from '../../support/app.ts';
import { call } from '../../support/http.ts';
import { feed } from '../activity/feed.ts';

const { app, fx } = await startTestApp({ now: '2026-06-01T09:00:00Z' });
const store = await fx.store();
const token = await fx.merchantToken(store.id);

// Three instants only, so most events tie with others.
const INSTANTS = ['2026-05-01T10:00:00Z', '2026-05-01T10:00:00.001Z', '2026-05-02T10:00:00Z'];
const KINDS = ['stamp', 'order', 'journey_event', 'class_booking'] as const;

function body(kind: (typeof KINDS)[number], customerId: string, at: string) {
  switch (kind) {
    case 'stamp':
      return { kind, customer_id: customerId, created_at: at };
    case 'order':
      return { kind, customer_id: customerId, amount_pence: 100, created_at: at };
    case 'journey_event':
      return { kind, customer_id: customerId, type: 'message', occurred_at: at };
    case 'class_booking':
      return { kind, customer_id: customerId, status: 'confirmed', created_at: at };
  }
}

async function page(customerId: string, limit: number, before?: string) {
  const res = await call(app, 'GET', `/api/v1/customers/${customerId}/journey`, {
    token,
    query: { store_id: store.id, limit, before },
  });
  assert.equal(res.status, 200);
  return res.body;
}

describe('journey cursor', () => {
  it('walking with nextCursor repeats nothing and skips nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ kind: fc.constantFrom(...KINDS), at: fc.constantFrom(...INSTANTS) }), {
          minLength: 1,
          maxLength: 12,
        }),
        fc.integer({ min: 1, max: 5 }),
        async (events, limit) => {
          const c = await fx.customer();
          for (const e of events) await feed(app, store.id, body(e.kind, c.id, e.at));
          const full = (await page(c.id, 50)).events;
          assert.equal(full.length, events.length + 1, 'every event and the joined event');
          const walked: string[] = [];
          let before: string | undefined;
          for (;;) {
            const p = await page(c.id, limit, before);
            assert.ok(p.events.length <= limit);
            walked.push(...p.events.map((e: any) => e.id));
            if (!p.pagination.hasMore) break;
            before = p.pagination.nextCursor;
          }
          assert.deepEqual(
            walked,
            full.map((e: any) => e.id),
          );
          const times = full.map((e: any) => Date.parse(e.timestamp));
          assert.deepEqual(
            times,
            [...times].sort((a, b) => b - a),
            'newest first',
          );
        },
      ),
      { numRuns: 15 },
    );
  });
});
