// A booking costs at most 3 round trips to the database, BEGIN and COMMIT included (issue 18): the
// merchant's create is one statement (bbo_merchant_book), whatever the path: a first booking with an
// Idempotency-Key and an account customer, its replay, a reused client token, a refusal.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../../../src/app.ts';
import { fixedClock } from '../../../src/platform/clock.ts';
import { createTokenService } from '../../../src/platform/auth/tokens.ts';
import { openTestDatabase } from '../../support/engine.ts';
import { Fixtures } from '../../support/fixtures.ts';
import { testConfig } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';
import { countingDatabase } from '../../support/round-trips.ts';
import { BASE } from './helpers.ts';

const MAX_TRIPS = 3;
const config = testConfig();
const clock = fixedClock('2026-06-01T09:00:00Z');
const tokens = createTokenService(config);
const testDb = await openTestDatabase();
const counting = countingDatabase(testDb.db);
const app = await buildApp({ config, db: counting.db, clock, tokens, logger: false });
after(async () => {
  await app.close();
  await testDb.close();
});
const fx = new Fixtures(testDb.db, tokens, clock);
const store = await fx.store();
const unit = await fx.unit(store.id);
const token = await fx.merchantToken(store.id);
const customer = await fx.customer({ name: 'Casey Customer' });
await fx.membership(store.id, customer.id);
const service = await fx.service(store.id, { price_pence: 2500 });

async function createCosts(body: Record<string, unknown>, idempotencyKey?: string) {
  counting.take();
  const res = await call(app, 'POST', BASE, { token, idempotencyKey, body: { store_id: store.id, unit_id: unit.id, ...body } });
  return { res, ...counting.take() };
}

test(`a merchant create takes at most ${MAX_TRIPS} round trips: first booking, replay, reused client token, refusal`, async () => {
  const body = { customer_id: customer.id, service_id: service.id, starts_at: '2026-06-02T10:00:00Z', ends_at: '2026-06-02T11:00:00Z', client_token: 'rt-1' };
  const first = await createCosts(body, 'rt-key-1');
  assert.equal(first.res.status, 200, JSON.stringify(first.res.body));
  assert.ok(first.trips <= MAX_TRIPS, `create took ${first.trips}: ${first.statements.join(' | ')}`);
  const replay = await createCosts(body, 'rt-key-1');
  assert.equal(replay.res.headers['idempotent-replayed'], 'true');
  assert.ok(replay.trips <= MAX_TRIPS, `replay took ${replay.trips}`);
  const reused = await createCosts(body, 'rt-key-2');
  assert.equal(reused.res.body.reused, true);
  assert.ok(reused.trips <= MAX_TRIPS, `reuse took ${reused.trips}`);
  const refused = await createCosts({ guest_email: 'g@example.com', starts_at: '2026-06-02T10:30:00Z', ends_at: '2026-06-02T11:30:00Z' }, 'rt-key-3');
  assert.equal(errorCode(refused.res), 'SLOT_TAKEN');
  assert.ok(refused.trips <= MAX_TRIPS, `refusal took ${refused.trips}`);
  // Today it is exactly one statement in its own implicit transaction.
  assert.deepEqual(first.statements.length, 1, first.statements.join(' | '));
});
