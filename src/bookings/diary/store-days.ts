// Store-local days. The one place that turns a store's calendar dates into instants: PostgreSQL's
// time-zone database does the arithmetic (timestamp AT TIME ZONE zone), so a 23-hour spring-forward
// day and a 25-hour fall-back day come out right without any offset maths here.
import type { Queryable } from '../../platform/db/port.ts';
import { notFound } from '../../platform/errors/app-error.ts';

export interface StoreZone {
  id: string;
  timezone: string;
  currency: string;
}

export async function findStoreZone(q: Queryable, storeId: string): Promise<StoreZone> {
  const res = await q.query<StoreZone>('SELECT id, timezone, currency FROM stores WHERE id = $1', [storeId]);
  if (!res.rows[0]) throw notFound('Store');
  return res.rows[0];
}

export interface LocalDayRange {
  /** 00:00 store-local on the first day. */
  from: string;
  /** 00:00 store-local on the day after the last day (exclusive). */
  to: string;
  /** Calendar days in the range, counting both ends. */
  days: number;
}

/**
 * The store, and [00:00 on fromDate, 00:00 on the day after toDate) in its zone (dates are
 * YYYY-MM-DD), in one statement; 404 when there is no such store.
 */
export async function storeDayRange(q: Queryable, storeId: string, fromDate: string, toDate: string): Promise<{ store: StoreZone; range: LocalDayRange }> {
  const res = await q.query<StoreZone & LocalDayRange>(
    `SELECT s.id, s.timezone, s.currency,
            ($2::date::timestamp AT TIME ZONE s.timezone) AS "from",
            (($3::date + 1)::timestamp AT TIME ZONE s.timezone) AS "to",
            ($3::date - $2::date + 1) AS days
       FROM stores s WHERE s.id = $1`,
    [storeId, fromDate, toDate],
  );
  const row = res.rows[0];
  if (!row) throw notFound('Store');
  return { store: { id: row.id, timezone: row.timezone, currency: row.currency }, range: { from: row.from, to: row.to, days: row.days } };
}
