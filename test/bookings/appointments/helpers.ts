// Shared set-up for the appointment tests: a store with a unit and a merchant token, and short
// ways to book and to read an appointment's row straight from the database.
import assert from 'node:assert/strict';
import { startTestApp, type TestApp, type TestAppOptions } from '../../support/app.ts';
import { call, type CallResult } from '../../support/http.ts';
import type { App } from '../../../src/app.ts';

export const BASE = '/api/v1/bookings/appointments';

export interface World {
  t: TestApp;
  storeId: string;
  unitId: string;
  token: string;
}

export async function world(options: TestAppOptions = {}, store: Record<string, unknown> = {}): Promise<World> {
  const t = await startTestApp(options);
  const s = await t.fx.store(store);
  const unit = await t.fx.unit(s.id);
  const token = await t.fx.merchantToken(s.id);
  return { t, storeId: s.id, unitId: unit.id, token };
}

/** Books through the API and returns the response; body fields override the defaults. */
export function create(
  w: World,
  body: Record<string, unknown> = {},
  options: { app?: App; token?: string; idempotencyKey?: string } = {},
): Promise<CallResult> {
  return call(options.app ?? w.t.app, 'POST', BASE, {
    token: options.token ?? w.token,
    idempotencyKey: options.idempotencyKey,
    body: {
      store_id: w.storeId,
      unit_id: w.unitId,
      starts_at: '2026-06-02T10:00:00.000Z',
      ends_at: '2026-06-02T11:00:00.000Z',
      guest_name: 'Gail Guest',
      guest_email: 'gail@example.com',
      ...body,
    },
  });
}

/** Books and asserts success; returns the appointment id. */
export async function booked(w: World, body: Record<string, unknown> = {}): Promise<string> {
  const res = await create(w, body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.appointment.id;
}

export function post(
  w: World,
  action: string,
  body: Record<string, unknown>,
  options: { token?: string; app?: App } = {},
): Promise<CallResult> {
  return call(options.app ?? w.t.app, 'POST', `${BASE}/${action}`, {
    token: options.token ?? w.token,
    body: { store_id: w.storeId, ...body },
  });
}

export interface Row {
  id: string;
  unit_id: string;
  status: string;
  starts_at: string;
  ends_at: string;
  block_starts_at: string;
  block_ends_at: string;
  payment_status: string;
  price_pence: number;
  deposit_pence: number;
  settled_pence: number;
  is_override: boolean;
  cancel_reason: string | null;
  checked_in_at: string | null;
  completed_at: string | null;
  cancelled_at: string | null;
  no_show_at: string | null;
  updated_at: string;
}

export async function row(w: World, id: string): Promise<Row> {
  const res = await w.t.db.query<Row>(
    `SELECT id, unit_id, status, starts_at, ends_at, lower(block) AS block_starts_at, upper(block) AS block_ends_at,
            payment_status, price_pence, deposit_pence, settled_pence, is_override, cancel_reason,
            checked_in_at, completed_at, cancelled_at, no_show_at, updated_at
       FROM appointments WHERE id = $1`,
    [id],
  );
  assert.ok(res.rows[0], `appointment ${id} exists`);
  return res.rows[0];
}

export async function count(w: World, sql: string, params: unknown[] = []): Promise<number> {
  const res = await w.t.db.query<{ n: number }>(sql, params);
  return Number(res.rows[0].n);
}

export function auditCount(w: World, id: string, action?: string): Promise<number> {
  return action
    ? count(w, 'SELECT count(*) AS n FROM audit_log WHERE entity_id = $1 AND action = $2', [id, action])
    : count(w, 'SELECT count(*) AS n FROM audit_log WHERE entity_id = $1', [id]);
}

/** Live (guarded) blocks on one unit that overlap each other: must always be zero. */
export function overlappingLiveBlocks(w: World, unitId = w.unitId): Promise<number> {
  return count(
    w,
    `SELECT count(*) AS n FROM appointments a JOIN appointments b
        ON a.store_id = b.store_id AND a.unit_id = b.unit_id AND a.id < b.id AND a.block && b.block
      WHERE a.unit_id = $1
        AND a.status NOT IN ('cancelled', 'no_show') AND NOT a.is_override
        AND b.status NOT IN ('cancelled', 'no_show') AND NOT b.is_override`,
    [unitId],
  );
}

/** Puts an appointment straight into a status (for rows of the table the API cannot reach directly). */
export async function forceStatus(w: World, id: string, status: string): Promise<void> {
  await w.t.db.query('UPDATE appointments SET status = $2 WHERE id = $1', [id, status]);
}
