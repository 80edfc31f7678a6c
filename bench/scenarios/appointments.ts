// Write scenarios on appointments: create (one in ten aimed at an occupied slot), reschedule,
// check-in/complete and settle. Creates and moves land in fresh time after every existing
// appointment; check-in and settle work through pools that prepare() resets before each phase.
import { freshDay, generated, pool, poolClass, type PoolRow, type StoreFx } from '../harness/fixtures.ts';
import { DAY_MS, merchant, MIN_MS, type Call, type Env, type Scenario } from './common.ts';

const BASE = '/api/v1/bookings/appointments';
const FUTURE = "starts_at > now() + interval '2 hours'";

function storeMap(env: Env): Map<string, StoreFx> {
  return new Map(env.fx.stores.map((s) => [s.id, s]));
}

async function mintAll(env: Env) {
  for (const s of env.fx.stores) await env.mint.merchant(s.id);
}

/**
 * The k-th fresh slot of a store: 10 units side by side, eight 75-minute slots a day from 09:00 UTC
 * (creates) or from 21:00 UTC (moves, `evening`), so creates and moves never take each other's time
 * even when both start from the same fresh day (on the embedded engine every scenario is prepared
 * before the server starts, so they do).
 */
function freshSlot(
  base: Date,
  store: StoreFx,
  k: number,
  minutes = 45,
  evening = false,
): { unit: string; start: string; end: string } {
  const units = store.units.length;
  const m = Math.floor(k / units);
  const start = base.getTime() + Math.floor(m / 8) * DAY_MS + ((evening ? 21 : 9) * 60 + (m % 8) * 75) * MIN_MS;
  return {
    unit: store.units[k % units],
    start: new Date(start).toISOString(),
    end: new Date(start + minutes * MIN_MS).toISOString(),
  };
}

export function createAppointment(): Scenario {
  let base = new Date();
  let conflicts: PoolRow[] = [];
  let stores: StoreFx[] = [];
  let byId = new Map<string, StoreFx>();
  return {
    name: 'create appointment',
    kind: 'write',
    expected: ['409 SLOT_TAKEN'],
    async setup(env) {
      await mintAll(env);
      stores = env.fx.stores;
      byId = storeMap(env);
    },
    async prepare(env) {
      base = await freshDay(env.db);
      conflicts = await pool(env.db, 3, "status = 'confirmed'", 5_000);
    },
    call(i): Call {
      const guest = { guest_name: `Bench Guest ${i}`, guest_email: `bench.guest${i}@example.org` };
      if (i % 10 === 9 && conflicts.length) {
        // About one in ten aims at a slot that is already booked: the authority must refuse it.
        const t = conflicts[Math.floor(i / 10) % conflicts.length];
        const body = { store_id: t.store_id, unit_id: t.unit_id, starts_at: t.starts_at, ends_at: t.ends_at, ...guest };
        return { method: 'POST', route: BASE, body, actor: merchant(byId.get(t.store_id)!.id), idempotent: true };
      }
      const k = i - Math.floor(i / 10);
      const store = stores[k % stores.length];
      const slot = freshSlot(base, store, Math.floor(k / stores.length));
      const who =
        k % 2 === 0 && store.customers.length ? { customer_id: store.customers[k % store.customers.length] } : guest;
      const body = {
        store_id: store.id,
        unit_id: slot.unit,
        service_id: store.services[k % store.services.length] ?? null,
        starts_at: slot.start,
        ends_at: slot.end,
        ...who,
      };
      return { method: 'POST', route: BASE, body, actor: merchant(store.id), idempotent: true };
    },
    async service() {
      const { createAppointment } = await import('../../src/bookings/appointments/appointments.service.ts');
      return (ctx, call) => createAppointment(ctx, call.body as any);
    },
  };
}

export function rescheduleAppointment(): Scenario {
  let base = new Date();
  let rows: PoolRow[] = [];
  let byId = new Map<string, StoreFx>();
  return {
    name: 'reschedule',
    kind: 'write',
    async setup(env) {
      await mintAll(env);
      byId = storeMap(env);
    },
    async prepare(env) {
      base = await freshDay(env.db);
      rows = await pool(env.db, 0, "status = 'confirmed'");
    },
    call(i): Call {
      const a = rows[i % rows.length];
      const store = byId.get(a.store_id)!;
      const slot = freshSlot(base, store, i, 45, true);
      const body = {
        store_id: store.id,
        appointment_id: a.id,
        unit_id: slot.unit,
        starts_at: slot.start,
        ends_at: slot.end,
      };
      return { method: 'POST', route: `${BASE}/reschedule`, body, actor: merchant(store.id), idempotent: true };
    },
    async service() {
      const { rescheduleAppointment } = await import('../../src/bookings/appointments/appointments.service.ts');
      return (ctx, call) => rescheduleAppointment(ctx, call.body as any);
    },
  };
}

export function checkInComplete(): Scenario {
  let checkIns: PoolRow[] = [];
  let completes: PoolRow[] = [];
  return {
    name: 'check-in/complete',
    kind: 'write',
    setup: mintAll,
    async prepare(env) {
      await env.db.query(
        `UPDATE appointments SET status = 'confirmed', checked_in_at = NULL, completed_at = NULL
          WHERE ${poolClass(1)} AND ${generated} AND ${FUTURE} AND status IN ('checked_in', 'completed')`,
      );
      const rows = await pool(env.db, 1, "status = 'confirmed'");
      checkIns = rows.filter((_, n) => n % 2 === 0);
      completes = rows.filter((_, n) => n % 2 === 1);
    },
    call(i): Call {
      // Alternate: even requests check a guest in, odd ones complete another appointment.
      const list = i % 2 === 0 ? checkIns : completes;
      const a = list[Math.floor(i / 2) % list.length];
      const route = `${BASE}/${i % 2 === 0 ? 'check-in' : 'complete'}`;
      return {
        method: 'POST',
        route,
        body: { store_id: a.store_id, appointment_id: a.id },
        actor: merchant(a.store_id),
        idempotent: true,
      };
    },
    async service() {
      const { checkIn, complete } = await import('../../src/bookings/appointments/appointment-status.service.ts');
      return (ctx, call) => (call.route.endsWith('check-in') ? checkIn : complete)(ctx, call.body as any);
    },
  };
}

export function settleAppointment(): Scenario {
  let rows: PoolRow[] = [];
  const reset = `${poolClass(2)} AND ${generated} AND ${FUTURE}`;
  return {
    name: 'settle',
    kind: 'write',
    setup: mintAll,
    async prepare(env) {
      await env.db.query(
        `DELETE FROM settlements WHERE appointment_id IN (SELECT id FROM appointments WHERE ${reset})`,
      );
      await env.db.query(
        `UPDATE appointments SET status = 'confirmed', settled_pence = 0, completed_at = NULL,
                payment_status = CASE WHEN deposit_pence > 0 THEN 'deposit_paid' ELSE 'none' END
          WHERE ${reset} AND status = 'completed'`,
      );
      rows = await pool(env.db, 2, "status = 'confirmed' AND price_pence > deposit_pence");
    },
    call(i): Call {
      const a = rows[i % rows.length];
      const body = { store_id: a.store_id, appointment_id: a.id, method: i % 3 === 0 ? 'cash' : 'card_machine' };
      return { method: 'POST', route: `${BASE}/settle`, body, actor: merchant(a.store_id), idempotent: true };
    },
    async service() {
      const { settle } = await import('../../src/bookings/appointments/settle.service.ts');
      return (ctx, call) => settle(ctx, call.body as any);
    },
  };
}
