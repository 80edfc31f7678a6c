// The history search (src/bookings/appointment-search/appointment-search.repository.ts) costs the
// people its needle matches and the history of the page: not the store's bookings ahead, which grow
// with how busy the store is. Measured in shared buffers, which a plan that reads every booking
// ahead cannot keep low, whatever its shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call } from '../../support/http.ts';
import { buffersTouched } from '../../support/plan-cost.ts';
import { insertAppointment } from '../diary/fixtures.ts';
import { searchPeopleSql } from '../../../src/bookings/appointment-search/appointment-search.repository.ts';
import { searchTokens } from '../../../src/customers/roster/text-filter.ts';

const NOW = '2026-06-15T12:00:00Z';
const t = await startTestApp({ now: NOW });

test('a search for one person reads a few buffers however many bookings the store has ahead', async () => {
  const store = await t.fx.store();
  const token = await t.fx.merchantToken(store.id);
  const chair = await t.fx.unit(store.id);
  const ada = await t.fx.customer({ name: 'Ada Lovelace', email: 'ada@example.com' });
  await insertAppointment(t.db, {
    storeId: store.id,
    unitId: chair.id,
    customerId: ada.id,
    status: 'completed',
    startsAt: '2026-06-01T10:00:00Z',
    endsAt: '2026-06-01T11:00:00Z',
  } as any);
  await t.fx.membership(store.id, ada.id); // as the door that booked her would have written
  // 4,000 bookings ahead, an hour each, for the store's other account customers.
  const others = [];
  for (let i = 0; i < 20; i++)
    others.push((await t.fx.customer({ name: `Regular ${i}`, email: `regular${i}@example.com` })).id);
  await t.db.query(
    `INSERT INTO appointments (store_id, unit_id, customer_id, starts_at, ends_at, block, status, price_pence, currency)
     SELECT $1, $2, ($3::uuid[])[1 + i % 20], s, s + interval '1 hour', tstzrange(s, s + interval '1 hour'), 'confirmed', 0, 'GBP'
       FROM generate_series(1, 4000) i, LATERAL (SELECT timestamptz '2026-06-16T00:00:00Z' + i * interval '1 hour' AS s) x`,
    [store.id, chair.id, others],
  );
  await t.db.query('ANALYZE appointments');

  const found = await call(t.app, 'GET', '/api/v1/bookings/appointments/search', {
    token,
    query: { store_id: store.id, q: 'lovelace' },
  });
  assert.equal(found.status, 200);
  assert.deepEqual(
    found.body.people.map((p: any) => [p.customer_id, p.visits]),
    [[ada.id, 1]],
  );

  const buffers = await buffersTouched(t.db, searchPeopleSql(true), [
    store.id,
    '%lovelace%',
    NOW,
    20,
    12,
    searchTokens(store.id, 'lovelace'),
  ]);
  // Four probes of the (store, customer, starts_at) index for Ada and the page's history: 34 buffers
  // when measured; the statement that aggregated the store's bookings ahead first touched 118.
  assert.ok(buffers < 60, `the search touched ${buffers} buffers`);
});
