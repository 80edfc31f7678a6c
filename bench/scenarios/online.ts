// Online booking (issue 16), on "Bench Online" (bench/dataset/online.ts): 20 units with a realistic
// diary. A customer's availability search over a month and over 90 days, for one service, and a
// customer's hold then confirm of a fresh slot. All at 8 connections, the figure.
import type { CustomerActor } from '../../src/platform/auth/actor.ts';
import type { StoreFx } from '../harness/fixtures.ts';
import { contextFor } from '../harness/direct.ts';
import { configureAvailabilityCache } from '../../src/bookings/availability/availability.cache.ts';
import { DAY_MS, merchant, MIN_MS, type Call, type Env, type Scenario } from './common.ts';

const CONNECTIONS = 8;

function onlineStore(env: Env): StoreFx {
  if (!env.fx.online)
    throw new Error('No "Bench Online" store in this dataset: run `npm run bench:data -- --add-online-store` on it');
  return env.fx.online;
}

const customerActor = (customerId: string): CustomerActor => ({
  kind: 'customer',
  customerId,
  scopes: ['customer:read', 'customer:write'],
});

/** Who asks, of what: the online store, its first service, and its n-th customer (with a token minted). */
async function shopper(env: Env, n: number): Promise<{ storeId: string; serviceId: string; customerId: string }> {
  const store = onlineStore(env);
  const customerId = store.customers[n];
  await env.mint.customer(customerId);
  return { storeId: store.id, serviceId: store.services[0], customerId };
}

function availability(days: number): Scenario {
  let storeId = '';
  let serviceId = '';
  let customerId = '';
  return {
    name: `availability ${days} days (20 units)`,
    kind: 'read',
    connections: CONNECTIONS,
    async setup(env) {
      ({ storeId, serviceId, customerId } = await shopper(env, 0));
    },
    call(i): Call {
      // Starting today and on each of the next six days in turn.
      const from = new Date(Date.now() + (i % 7) * DAY_MS).toISOString().slice(0, 10);
      const to = new Date(Date.parse(from) + (days - 1) * DAY_MS).toISOString().slice(0, 10);
      const query = { store_id: storeId, service_id: serviceId, from_date: from, to_date: to };
      return {
        method: 'GET',
        route: '/api/v1/bookings/availability',
        query,
        actor: customerActor(customerId),
        idempotent: false,
      };
    },
    async service() {
      const { searchAvailability } = await import('../../src/bookings/availability/availability.service.ts');
      // Every call computes afresh: the statement's own limit, beside the service's kept answers.
      return (ctx, call) => searchAvailability(ctx, call.query as any, { cache: false });
    },
  };
}

export const availabilityMonth = () => availability(31);
export const availabilityQuarter = () => availability(90);

/**
 * The month's search while the diary keeps changing: every CHANGE_EVERY-th request is a merchant's
 * time-off block instead, a minute long, inside the searched month (on each of its days in turn) at
 * 02:00 UTC and on, outside working hours so the diary's free slots stay as generated. Each one is a
 * change to the store on that day, so the days around it are computed again: what a search costs
 * when the shop is being booked, not only browsed. Its SQL-only phase runs the service as it is.
 */
const CHANGE_EVERY = 200;

export function availabilityWhileChanging(): Scenario {
  const search = availability(31);
  let storeId = '';
  let units: string[] = [];
  let today = 0;
  return {
    ...search,
    name: `availability 31 days, a diary change every ${CHANGE_EVERY} requests`,
    async setup(env) {
      await search.setup(env);
      ({ id: storeId, units } = onlineStore(env));
      await env.mint.merchant(storeId);
      // The SQL-only phase keeps answers as the service does (the bench's own handle, the app's default size).
      configureAvailabilityCache(env.db, 32 * 1024 * 1024);
    },
    async prepare(env) {
      // Each phase's blocks count from its own day; an earlier run's (one minute long, unlike the generated ones) are cleared first.
      today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
      await env.db.query(
        `DELETE FROM time_off WHERE store_id = $1 AND kind = 'block' AND ends_at - starts_at = interval '1 minute'`,
        [storeId],
      );
    },
    call(i): Call {
      if (i % CHANGE_EVERY !== CHANGE_EVERY - 1) return search.call(i);
      const n = Math.floor(i / CHANGE_EVERY);
      const starts = today + (n % 31) * DAY_MS + 2 * 60 * MIN_MS + Math.floor(n / 31) * 2 * MIN_MS;
      const body = {
        store_id: storeId,
        unit_id: units[n % units.length],
        kind: 'block',
        starts_at: new Date(starts).toISOString(),
        ends_at: new Date(starts + MIN_MS).toISOString(),
      };
      return { method: 'POST', route: '/api/v1/bookings/time-off', body, actor: merchant(storeId), idempotent: true };
    },
    async service() {
      const { searchAvailability } = await import('../../src/bookings/availability/availability.service.ts');
      const { createTimeOff } = await import('../../src/bookings/time-off/time-off.service.ts');
      return (ctx, call) =>
        call.method === 'GET'
          ? searchAvailability(ctx, call.query as any)
          : createTimeOff(ctx as any, call.body as any);
    },
  };
}

/**
 * Hold then confirm, each pair on a fresh slot: a 30-minute service on one named unit, every 30
 * minutes of working time, from day FIRST_DAY on (after the generated diary, which ends at day 120,
 * and beyond the days the availability scenarios search; the store's horizon is a year). A run
 * never reuses a slot; its first setup deletes what an earlier run booked there, so runs repeat.
 */
const FIRST_DAY = 121;
const LAST_DAY = 364;

export function holdAndConfirm(): Scenario {
  let storeId = '';
  let serviceId = '';
  let customerId = '';
  let slots: { unit_id: string; at: string }[] = [];
  return {
    name: 'hold + confirm (20 units)',
    kind: 'write',
    connections: CONNECTIONS,
    async setup(env) {
      ({ storeId, serviceId, customerId } = await shopper(env, 1));
      const res = await env.db.query<{ unit_id: string; at: string }>(
        // day::date + interval is a wall-clock timestamp, which AT TIME ZONE turns into the store's
        // instant (generate_series over dates yields UTC-midnight timestamptz: read directly, every
        // start after the spring change would be an hour off, and those at a day's edges refused).
        `SELECT u.id AS unit_id, (day::date + make_interval(mins => m)) AT TIME ZONE s.timezone AS at
           FROM stores s JOIN units u ON u.store_id = s.id
           CROSS JOIN LATERAL generate_series((now() AT TIME ZONE s.timezone)::date + ${FIRST_DAY}, (now() AT TIME ZONE s.timezone)::date + ${LAST_DAY}, interval '1 day') day
           JOIN unit_hours h ON h.unit_id = u.id AND h.weekday = extract(dow FROM day)
           CROSS JOIN LATERAL generate_series((extract(epoch FROM h.opens) / 60)::int, (extract(epoch FROM h.closes) / 60)::int - 30, 30) m
          WHERE s.id = $1
          ORDER BY day, m, u.sort`,
        [storeId],
      );
      slots = res.rows;
      const first = new Date(Date.now() + (FIRST_DAY - 1) * DAY_MS).toISOString();
      await env.db.query('DELETE FROM holds WHERE store_id = $1 AND starts_at >= $2', [storeId, first]);
      await env.db.query('DELETE FROM appointments WHERE store_id = $1 AND starts_at >= $2', [storeId, first]);
    },
    call(i): Call {
      if (i >= slots.length) throw new Error(`hold + confirm ran out of fresh slots (${slots.length})`);
      const slot = slots[i];
      const actor = customerActor(customerId);
      const body = { store_id: storeId, service_id: serviceId, unit_id: slot.unit_id, starts_at: slot.at };
      return {
        method: 'POST',
        route: '/api/v1/bookings/holds',
        body,
        actor,
        idempotent: true,
        then: (answer: { hold: { id: string } }) => ({
          method: 'POST',
          route: `/api/v1/bookings/holds/${answer.hold.id}/confirm`,
          body: {},
          actor,
          idempotent: true,
        }),
      };
    },
    async service() {
      const { createHold, confirmHold } = await import('../../src/bookings/holds/holds.service.ts');
      // Both steps, each with its own request context and Idempotency-Key, as the two HTTP requests have.
      return async (ctx, call) => {
        // The caps on live holds (hold-caps.ts) are the HTTP runs' to raise (HOLDS_PER_* in their server's env).
        const { hold } = await createHold(ctx as any, call.body as any, {
          addressHash: 'bench',
          perAddress: 1_000_000,
          perCustomer: 1_000_000,
        });
        const next = call.then!({ hold });
        const key = ctx.idempotency ? `${ctx.idempotency.key}-then` : undefined;
        const confirmCtx = contextFor(ctx.db as any, {
          actor: next.actor,
          method: next.method,
          url: next.route,
          body: next.body,
          idempotencyKey: key,
        });
        return confirmHold(confirmCtx as any, hold.id, {});
      };
    },
  };
}
