// Queue test data: diary rows written with direct SQL (the queue only reads them), and a store
// with units, a service and a token, ready to queue into.
import type { Database } from '../../../src/platform/db/port.ts';
import type { TestApp } from '../../support/app.ts';
import { call } from '../../support/http.ts';

export const NOW = '2026-06-01T09:00:00.000Z';
export const at = (minutesFromNow: number) => new Date(Date.parse(NOW) + minutesFromNow * 60_000).toISOString();

export async function appointment(
  db: Database,
  storeId: string,
  unitId: string,
  start: string,
  end: string,
  status = 'confirmed',
) {
  const res = await db.query<{ id: string }>(
    `INSERT INTO appointments (store_id, unit_id, starts_at, ends_at, block, status, currency)
     VALUES ($1, $2, $3, $4, tstzrange($3::timestamptz, $4::timestamptz), $5, 'GBP') RETURNING id`,
    [storeId, unitId, start, end, status],
  );
  return res.rows[0];
}

export async function timeOff(db: Database, storeId: string, unitId: string, start: string, end: string) {
  await db.query(
    `INSERT INTO time_off (store_id, unit_id, starts_at, ends_at, kind) VALUES ($1, $2, $3, $4, 'time_off')`,
    [storeId, unitId, start, end],
  );
}

export async function hold(
  db: Database,
  storeId: string,
  unitId: string,
  start: string,
  end: string,
  expiresAt: string | null,
) {
  await db.query(`INSERT INTO holds (store_id, unit_id, starts_at, ends_at, expires_at) VALUES ($1, $2, $3, $4, $5)`, [
    storeId,
    unitId,
    start,
    end,
    expiresAt,
  ]);
}

export interface QueueWorld {
  t: TestApp;
  storeId: string;
  token: string;
  unitA: string;
  unitB: string;
  /** 45 minutes, 3000 pence, parties of 1 to 6. */
  serviceId: string;
}

/**
 * A store (mixed walk-ins, 10 minute hold) with two chairs and a 45-minute haircut (parties of 1 to 6), on the file's
 * shared app; each test works in its own store. Sets the clock back to NOW.
 */
export async function queueWorld(t: TestApp, storeFields: Record<string, unknown> = {}): Promise<QueueWorld> {
  t.clock.set(NOW);
  const store = await t.fx.store(storeFields);
  const unitA = (await t.fx.unit(store.id, { display_name: 'Chair A', sort: 1 })).id;
  const unitB = (await t.fx.unit(store.id, { display_name: 'Chair B', sort: 2 })).id;
  const serviceId = (await t.fx.service(store.id, { duration_min: 45, price_pence: 3000, party_max: 6 })).id;
  const token = await t.fx.merchantToken(store.id);
  return { t, storeId: store.id, token, unitA, unitB, serviceId };
}

/** Joins the queue and returns the entry; fails the test on anything but 200. */
export async function join(w: QueueWorld, body: Record<string, unknown> = {}) {
  const res = await call(w.t.app, 'POST', '/api/v1/bookings/queue/join', {
    token: w.token,
    body: { store_id: w.storeId, guest_name: 'Walk In', ...body },
  });
  if (res.status !== 200) throw new Error(`join failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.entry;
}

export async function list(w: QueueWorld) {
  const res = await call(w.t.app, 'GET', '/api/v1/bookings/queue', { token: w.token, query: { store_id: w.storeId } });
  if (res.status !== 200) throw new Error(`list failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

export const post = (
  w: QueueWorld,
  action: 'call' | 'assign' | 'remove',
  body: Record<string, unknown>,
  token = w.token,
) => call(w.t.app, 'POST', `/api/v1/bookings/queue/${action}`, { token, body: { store_id: w.storeId, ...body } });

export async function entryRow(db: Database, entryId: string) {
  const res = await db.query(
    'SELECT status, called_at, appointment_id, ended_at, quoted_wait_min FROM queue_entries WHERE id = $1',
    [entryId],
  );
  return res.rows[0];
}
