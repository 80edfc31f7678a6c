// Shared set-up for the class tests: a store with an instructor unit and a merchant token, and short
// ways to make a class, schedule it, book it and read rows straight from the database.
import assert from 'node:assert/strict';
import { startTestApp, type TestApp, type TestAppOptions } from '../support/app.ts';
import { call, type CallResult } from '../support/http.ts';
import type { App } from '../../src/app.ts';

export const BASE = '/api/v1/classes';

export interface ClassWorld {
  t: TestApp;
  storeId: string;
  unitId: string;
  token: string;
}

export async function classWorld(options: TestAppOptions = {}): Promise<ClassWorld> {
  const t = await startTestApp(options);
  const s = await t.fx.store();
  const unit = await t.fx.unit(s.id, { display_name: 'Coach Kim' });
  const token = await t.fx.merchantToken(s.id);
  return { t, storeId: s.id, unitId: unit.id, token };
}

export function api(
  w: ClassWorld,
  method: string,
  path: string,
  body?: unknown,
  options: { app?: App; token?: string; query?: Record<string, string> } = {},
): Promise<CallResult> {
  return call(options.app ?? w.t.app, method, `${BASE}${path}`, {
    token: options.token ?? w.token,
    body,
    query: options.query,
  });
}

export async function ok(res: Promise<CallResult>): Promise<any> {
  const r = await res;
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return r.body;
}

/** A class with the instructor unit, and one occurrence of it at startsAt; returns both ids. */
export async function scheduled(
  w: ClassWorld,
  fields: Record<string, unknown> = {},
  startsAt = '2026-06-02T18:00:00.000Z',
): Promise<{ classId: string; occurrenceId: string }> {
  const { class: c } = await ok(
    api(w, 'POST', '', {
      name: 'Spin',
      category: 'Cardio',
      duration_min: 45,
      capacity: 10,
      instructor_unit_id: w.unitId,
      ...fields,
    }),
  );
  const { occurrence } = await ok(api(w, 'POST', `/${c.id}/occurrences`, { starts_at: startsAt }));
  return { classId: c.id, occurrenceId: occurrence.id };
}

export function bookGuest(w: ClassWorld, occurrenceId: string, i: number, app?: App): Promise<CallResult> {
  return api(
    w,
    'POST',
    `/occurrences/${occurrenceId}/bookings`,
    { guest_name: `Guest ${i}`, guest_email: `guest${i}@example.com`, source: 'app' },
    { app },
  );
}

export async function rows<T = any>(w: ClassWorld, sql: string, params: unknown[] = []): Promise<T[]> {
  return (await w.t.db.query<any>(sql, params)).rows;
}
