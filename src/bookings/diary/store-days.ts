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

/** [00:00 on fromDate, 00:00 on the day after toDate) in the zone; dates are YYYY-MM-DD. */
export async function localDayRange(q: Queryable, timezone: string, fromDate: string, toDate: string): Promise<LocalDayRange> {
  const res = await q.query<LocalDayRange>(
    `SELECT ($2::date::timestamp AT TIME ZONE $1::text) AS "from",
            (($3::date + 1)::timestamp AT TIME ZONE $1::text) AS "to",
            ($3::date - $2::date + 1) AS days`,
    [timezone, fromDate, toDate],
  );
  return res.rows[0];
}
