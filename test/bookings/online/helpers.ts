// Shared set-up for the online booking tests: a store in a zone with units that have working
// hours, a service, a customer with a token, and short ways to search, hold and confirm.
import assert from 'node:assert/strict';
import { startTestApp, type TestApp, type TestAppOptions } from '../../support/app.ts';
import { call, type CallResult } from '../../support/http.ts';
import type { App } from '../../../src/app.ts';

export const AVAILABILITY = '/api/v1/bookings/availability';
export const HOLDS = '/api/v1/bookings/holds';

export type Week = Partial<
  Record<
    'sunday' | 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday',
    Array<{ open: string; close: string }>
  >
>;
export const ALL_WEEK = (intervals: Array<{ open: string; close: string }>): Week =>
  Object.fromEntries(
    ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].map((d) => [d, intervals]),
  );

export interface Shop {
  t: TestApp;
  storeId: string;
  merchant: string;
  units: string[];
  serviceId: string;
  customerId: string;
  customer: string;
}

/** Writes settings and service fields straight to the rows (the API for them is tested on its own). */
export async function setStore(t: TestApp, storeId: string, fields: Record<string, unknown>): Promise<void> {
  const cols = Object.keys(fields);
  if (!cols.length) return;
  await t.db.query(`UPDATE stores SET ${cols.map((c, i) => `${c} = $${i + 2}`).join(', ')} WHERE id = $1`, [
    storeId,
    ...cols.map((c) => fields[c]),
  ]);
}

export async function setService(t: TestApp, serviceId: string, fields: Record<string, unknown>): Promise<void> {
  const cols = Object.keys(fields);
  await t.db.query(`UPDATE services SET ${cols.map((c, i) => `${c} = $${i + 2}`).join(', ')} WHERE id = $1`, [
    serviceId,
    ...cols.map((c) => fields[c]),
  ]);
}

export async function putHours(
  t: TestApp,
  token: string,
  unitId: string,
  week: Week,
  exceptions: unknown[] = [],
): Promise<CallResult> {
  return call(t.app, 'PUT', `/api/v1/bookings/units/${unitId}/hours`, { token, body: { week, exceptions } });
}

export interface ShopOptions {
  app?: TestAppOptions;
  t?: TestApp;
  store?: Record<string, unknown>;
  settings?: Record<string, unknown>;
  units?: number;
  week?: Week;
  service?: Record<string, unknown>;
}

export async function shop(o: ShopOptions = {}): Promise<Shop> {
  const t = o.t ?? (await startTestApp(o.app));
  const s = await t.fx.store(o.store);
  await setStore(t, s.id, { min_notice_min: 0, ...o.settings });
  const merchant = await t.fx.merchantToken(s.id);
  const units: string[] = [];
  for (let i = 0; i < (o.units ?? 1); i++) {
    const u = await t.fx.unit(s.id, { display_name: `Chair ${i + 1}`, sort: i });
    const res = await putHours(t, merchant, u.id, o.week ?? ALL_WEEK([{ open: '09:00', close: '17:00' }]));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    units.push(u.id);
  }
  const service = await t.fx.service(s.id, { duration_min: 60, price_pence: 4000 });
  if (o.service) await setService(t, service.id, o.service);
  const c = await t.fx.customer({ name: 'Casey Customer', email: `casey-${s.id.slice(0, 8)}@example.com` });
  const customer = await t.fx.customerToken(c.id, ['customer:read', 'customer:write']);
  return { t, storeId: s.id, merchant, units, serviceId: service.id, customerId: c.id, customer };
}

/** A second customer of the shop, with a token. */
export async function anotherCustomer(w: Shop, name = 'Other'): Promise<{ id: string; token: string }> {
  const c = await w.t.fx.customer({ name });
  return { id: c.id, token: await w.t.fx.customerToken(c.id, ['customer:read', 'customer:write']) };
}

export function search(
  w: Shop,
  query: Record<string, string | number | undefined>,
  token = w.customer,
  app: App = w.t.app,
): Promise<CallResult> {
  return call(app, 'GET', AVAILABILITY, { token, query: { store_id: w.storeId, service_id: w.serviceId, ...query } });
}

/** Every offered start of a search, as "date local_time starts_at [units]". */
export function startsOf(res: CallResult): string[] {
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.days.flatMap((d: any) => d.slots.map((s: any) => s.starts_at));
}

export function localTimesOf(res: CallResult, date: string): string[] {
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.days.find((d: any) => d.date === date).slots.map((s: any) => s.local_time);
}

export function hold(
  w: Shop,
  body: Record<string, unknown>,
  token = w.customer,
  app: App = w.t.app,
): Promise<CallResult> {
  return call(app, 'POST', HOLDS, { token, body: { store_id: w.storeId, service_id: w.serviceId, ...body } });
}

export function confirm(
  w: Shop,
  holdId: string,
  token = w.customer,
  app: App = w.t.app,
  body: Record<string, unknown> = {},
): Promise<CallResult> {
  return call(app, 'POST', `${HOLDS}/${holdId}/confirm`, { token, body });
}

export async function count(t: TestApp, sql: string, params: unknown[] = []): Promise<number> {
  const res = await t.db.query<{ n: number }>(sql, params);
  return Number(res.rows[0].n);
}

export async function eventsOf(t: TestApp, storeId: string, type: string): Promise<any[]> {
  const res = await t.db.query<{ data: any }>(
    'SELECT data FROM events WHERE store_id = $1 AND type = $2 ORDER BY txid, seq',
    [storeId, type],
  );
  return res.rows.map((r) => r.data);
}
