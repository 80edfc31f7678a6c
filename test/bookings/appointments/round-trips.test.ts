// A booking costs at most 3 round trips to the database, BEGIN and COMMIT included (issue 18): the
// merchant's create, reschedule, check-in, complete, no-show, cancel and settle are one statement
// each (docs/architecture.md, "One-statement writes"), whatever the path: a first change with an
// Idempotency-Key, its replay, a noop repeat, a refusal.
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

async function costs(path: string, body: Record<string, unknown>, idempotencyKey?: string) {
  counting.take();
  const res = await call(app, 'POST', path, { token, idempotencyKey, body: { store_id: store.id, ...body } });
  return { res, ...counting.take() };
}
const createCosts = (body: Record<string, unknown>, idempotencyKey?: string) =>
  costs(BASE, { unit_id: unit.id, ...body }, idempotencyKey);

function within(what: string, c: { trips: number; statements: string[] }) {
  assert.ok(c.trips <= MAX_TRIPS, `${what} took ${c.trips} round trips: ${c.statements.join(' | ')}`);
}

test(`a merchant create takes at most ${MAX_TRIPS} round trips: first booking, replay, reused client token, refusal`, async () => {
  const body = {
    customer_id: customer.id,
    service_id: service.id,
    starts_at: '2026-06-02T10:00:00Z',
    ends_at: '2026-06-02T11:00:00Z',
    client_token: 'rt-1',
  };
  const first = await createCosts(body, 'rt-key-1');
  assert.equal(first.res.status, 200, JSON.stringify(first.res.body));
  assert.ok(first.trips <= MAX_TRIPS, `create took ${first.trips}: ${first.statements.join(' | ')}`);
  const replay = await createCosts(body, 'rt-key-1');
  assert.equal(replay.res.headers['idempotent-replayed'], 'true');
  assert.ok(replay.trips <= MAX_TRIPS, `replay took ${replay.trips}`);
  const reused = await createCosts(body, 'rt-key-2');
  assert.equal(reused.res.body.reused, true);
  assert.ok(reused.trips <= MAX_TRIPS, `reuse took ${reused.trips}`);
  const refused = await createCosts(
    { guest_email: 'g@example.com', starts_at: '2026-06-02T10:30:00Z', ends_at: '2026-06-02T11:30:00Z' },
    'rt-key-3',
  );
  assert.equal(errorCode(refused.res), 'SLOT_TAKEN');
  assert.ok(refused.trips <= MAX_TRIPS, `refusal took ${refused.trips}`);
  // Today it is exactly one statement in its own implicit transaction.
  assert.deepEqual(first.statements.length, 1, first.statements.join(' | '));
});

test(`reschedule, check-in, complete, no-show, cancel and settle take at most ${MAX_TRIPS} round trips each`, async () => {
  const book = async (day: string) => {
    const res = await createCosts({
      guest_email: 'g@example.com',
      service_id: service.id,
      starts_at: `2026-06-${day}T10:00:00Z`,
      ends_at: `2026-06-${day}T11:00:00Z`,
    });
    assert.equal(res.res.status, 200, JSON.stringify(res.res.body));
    return res.res.body.appointment.id as string;
  };
  const a = await book('10');
  const moved = await costs(
    `${BASE}/reschedule`,
    { appointment_id: a, unit_id: unit.id, starts_at: '2026-06-11T10:00:00Z', ends_at: '2026-06-11T11:00:00Z' },
    'rt-move-1',
  );
  assert.equal(moved.res.status, 200, JSON.stringify(moved.res.body));
  within('reschedule', moved);
  within(
    'reschedule replay',
    await costs(
      `${BASE}/reschedule`,
      { appointment_id: a, unit_id: unit.id, starts_at: '2026-06-11T10:00:00Z', ends_at: '2026-06-11T11:00:00Z' },
      'rt-move-1',
    ),
  );
  for (const action of ['check-in', 'complete']) {
    const first = await costs(`${BASE}/${action}`, { appointment_id: a }, `rt-${action}`);
    assert.equal(first.res.status, 200, JSON.stringify(first.res.body));
    within(action, first);
    const repeat = await costs(`${BASE}/${action}`, { appointment_id: a });
    assert.equal(repeat.res.body.noop, true);
    within(`${action} repeat`, repeat);
  }
  const settled = await costs(`${BASE}/settle`, { appointment_id: a, method: 'cash' }, 'rt-settle');
  assert.equal(settled.res.body.outcome, 'settled', JSON.stringify(settled.res.body));
  within('settle', settled);
  const again = await costs(`${BASE}/settle`, { appointment_id: a, method: 'cash' });
  assert.equal(again.res.body.outcome, 'already_settled');
  within('settle repeat', again);
  const refused = await costs(`${BASE}/reschedule`, {
    appointment_id: a,
    unit_id: unit.id,
    starts_at: '2026-06-12T10:00:00Z',
    ends_at: '2026-06-12T11:00:00Z',
  });
  assert.equal(errorCode(refused.res), 'INVALID_TRANSITION');
  within('refused reschedule', refused);

  const b = await book('13');
  const cancelled = await costs(`${BASE}/cancel`, { appointment_id: b, reason: 'rain' }, 'rt-cancel');
  assert.equal(cancelled.res.body.cancelled, true, JSON.stringify(cancelled.res.body));
  within('cancel', cancelled);
  const c = await book('01');
  clock.set('2026-06-01T10:30:00Z');
  const noShow = await costs(`${BASE}/no-show`, { appointment_id: c }, 'rt-no-show');
  assert.equal(noShow.res.body.status, 'no_show', JSON.stringify(noShow.res.body));
  within('no-show', noShow);
  clock.set('2026-06-01T09:00:00Z');
});
