// The offer sweep: offered seats not accepted by offer_expires_at become promotion_expired and the
// next in line is offered (bbo_class_expire_offers, db/functions/class-expire-offers.sql, under each
// occurrence's lock). Started beside the deposit sweep (src/server.ts); the state is in the rows, so
// a restart loses nothing, and every write to an occurrence settles its lapsed offers first too.
import type { Database } from '../platform/db/port.ts';
import { every } from '../platform/background/every.ts';

/** Occurrences settled per run: a backlog drains over a few runs without one long statement. */
const MAX_OCCURRENCES = 200;

/** Runs one sweep at `now`; returns how many occurrences had offers settled. */
export async function expireClassOffers(db: Database, now: Date): Promise<number> {
  const res = await db.query<{ n: number }>('SELECT bbo_class_expire_offers($1::timestamptz, $2) AS n', [
    now.toISOString(),
    MAX_OCCURRENCES,
  ]);
  return res.rows[0].n;
}

/** Runs the sweep every intervalMs on the clock given (never two at once); stop() ends it. */
export function startOfferSweep(
  db: Database,
  clock: { now(): Date },
  intervalMs: number,
  onError: (err: Error) => void,
): { stop(): void } {
  return every(intervalMs, () => expireClassOffers(db, clock.now()), onError);
}
