// Class write scenarios (issue 44): booking into a full class with a long waitlist (each booking
// locks the occurrence, counts its seats and takes the next waitlist position), and a promotion (a
// confirmed booking cancelled, the first in line confirmed in the same statement). prepare() makes
// fresh occurrences by SQL before every phase: no instructor unit, so only the seat decision is measured.
import type { Database } from '../../src/platform/db/port.ts';
import { merchant, type Call, type Env, type Scenario } from './common.ts';

const CAPACITY = 10;
/** Waitlist already waiting in each full occurrence the booking scenario books into. */
const WAITING = 1_000;

/** One class per bench store (made once), capacity 10, waitlist mode auto. */
async function benchClasses(db: Database, storeIds: string[]): Promise<Map<string, string>> {
  const res = await db.query<{ store_id: string; id: string }>(
    `INSERT INTO classes (store_id, name, duration_min, capacity, created_at, updated_at)
     SELECT s, 'Bench Spin', 45, $2, now(), now() FROM unnest($1::uuid[]) AS s
     RETURNING store_id, id`,
    [storeIds, CAPACITY],
  );
  return new Map(res.rows.map((r) => [r.store_id, r.id]));
}

/**
 * `perStore` fresh occurrences of each class in the far future, each with CAPACITY confirmed guests
 * and `waiting` waitlisted ones (positions 1..waiting, the counter set to match). Returns them by
 * store, with their confirmed bookings' ids.
 */
async function fullOccurrences(
  db: Database,
  classes: Map<string, string>,
  perStore: number,
  waiting: number,
): Promise<Array<{ store: string; id: string; confirmed: string[] }>> {
  const res = await db.query<{ store_id: string; id: string; confirmed: string[] }>(
    `WITH o AS (
       INSERT INTO class_occurrences (store_id, class_id, starts_at, ends_at, last_waitlist_position, created_at)
       SELECT c.store_id, c.id, t, t + interval '45 minutes', $3, now()
         FROM unnest($1::uuid[], $2::uuid[]) AS c(store_id, id)
        CROSS JOIN generate_series(1, $4::int) AS g
        CROSS JOIN LATERAL (SELECT timestamptz '2040-01-01' + (random() * 3650 * 24) * interval '1 hour' + g * interval '1 minute' AS t) x
       RETURNING store_id, id),
     b AS (
       INSERT INTO class_bookings (store_id, occurrence_id, status, waitlist_position, guest_name, guest_email, booking_source, class_name, created_at, updated_at)
       SELECT o.store_id, o.id, CASE WHEN n <= $5 THEN 'confirmed' ELSE 'waitlisted' END, CASE WHEN n > $5 THEN n - $5 END,
              'Bench Member ' || n, 'bench.member' || n || '@example.org', 'app', 'Bench Spin', now(), now()
         FROM o CROSS JOIN generate_series(1, $5 + $3) AS n
       RETURNING store_id, occurrence_id, id, status)
     SELECT b.store_id, b.occurrence_id AS id, array_agg(b.id) FILTER (WHERE b.status = 'confirmed') AS confirmed
       FROM b GROUP BY b.store_id, b.occurrence_id`,
    [[...classes.keys()], [...classes.values()], waiting, perStore, CAPACITY],
  );
  return res.rows.map((r) => ({ store: r.store_id, id: r.id, confirmed: r.confirmed }));
}

export function bookFullClass(): Scenario {
  let classes = new Map<string, string>();
  let targets: Array<{ store: string; id: string }> = [];
  let run = 0;
  return {
    name: 'book full class (waitlist 1,000)',
    kind: 'write',
    async setup(env: Env) {
      for (const s of env.fx.stores) await env.mint.merchant(s.id);
      classes = await benchClasses(
        env.db,
        env.fx.stores.map((s) => s.id),
      );
    },
    async prepare(env: Env) {
      targets = await fullOccurrences(env.db, classes, 4, WAITING);
      run++;
    },
    call(i): Call {
      const t = targets[i % targets.length];
      const body = {
        store_id: t.store,
        guest_name: `Bench Waiter ${run}.${i}`,
        guest_email: `bench.waiter${run}.${i}@example.org`,
        source: 'app',
      };
      return {
        method: 'POST',
        route: `/api/v1/classes/occurrences/${t.id}/bookings`,
        body,
        actor: merchant(t.store),
        idempotent: true,
      };
    },
    async service() {
      const { book } = await import('../../src/classes/class-bookings.service.ts');
      return (ctx, call) => book(ctx, call.route.split('/')[5], call.body as any);
    },
  };
}

export function promoteFromWaitlist(): Scenario {
  let classes = new Map<string, string>();
  let seats: Array<{ store: string; id: string }> = [];
  return {
    name: 'class cancel + promotion',
    kind: 'write',
    async setup(env: Env) {
      for (const s of env.fx.stores) await env.mint.merchant(s.id);
      classes = await benchClasses(
        env.db,
        env.fx.stores.map((s) => s.id),
      );
    },
    async prepare(env: Env) {
      // 10,000 confirmed seats, each with someone waiting behind it: every call frees one and promotes one.
      const made = await fullOccurrences(env.db, classes, Math.ceil(1_000 / classes.size), CAPACITY);
      seats = made.flatMap((o) => o.confirmed.map((id) => ({ store: o.store, id })));
    },
    call(i): Call {
      const s = seats[i % seats.length];
      return {
        method: 'POST',
        route: `/api/v1/classes/bookings/${s.id}/cancel`,
        body: { store_id: s.store },
        actor: merchant(s.store),
        idempotent: true,
      };
    },
    async service() {
      const { changeStatus } = await import('../../src/classes/class-bookings.service.ts');
      return (ctx, call) => changeStatus(ctx, call.route.split('/')[5], 'cancel');
    },
  };
}
