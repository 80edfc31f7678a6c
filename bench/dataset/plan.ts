// How big each table is at a given scale. Scale 1 is the figure: 50 stores, 500 units,
// 100,000 customers (all of them with a relationship to the one large store), 500,000 appointments
// over two years, 200,000 class bookings, 300,000 journey events, stamps and orders.
//
// The scale multiplies the platform, as a platform grows (issue 46): scale 10 is 500 stores, 5,000
// units and 1,000,000 customers over the same two years. Each store keeps its own size at every
// scale, so a per-store read should cost the same at 1 and 10 while anything global grows tenfold:
// - store 0, the flagship, has 100,000 customers (everyone at scale 1) and a fixed 70,000 of each
//   kind of activity row per 200,000 (35% at scale 1, 3.5% at scale 10);
// - the others follow a long tail: store s has max(50, 16,000 / s^0.8) customers (store 1: 16,000,
//   store 10: 2,540, store 100: 400, store 499: 111), so a few are large and most are small;
// - names follow a realistic distribution (core.ts): 30% from a frequency-ordered list, skewed so
//   about 1.7% are Smiths, the rest from a long tail of 600 rarer surnames.
// Before issue 46 the scale multiplied only the history (scale 10 = twenty years of the same 50
// stores); the growth rounds before it measured that. Below 1 everything shrinks (the embedded engine).

export interface Plan {
  seed: number;
  scale: number;
  /** "Now" for the data: past appointments are settled history, future ones are bookable. */
  now: Date;
  stores: number;
  unitsPerStore: number;
  units: number;
  customers: number;
  /** Customers the flagship (store 0) has a relationship with: its first ones. */
  flagshipCustomers: number;
  /** Customers store 1 has; store s has max(minStoreCustomers, topStoreCustomers / s^0.8). */
  topStoreCustomers: number;
  minStoreCustomers: number;
  /** The flagship's share of the activity rows (class bookings, stamps, orders, journey events). */
  flagshipShare: number;
  guests: number;
  appointments: number;
  historyDays: number;
  futureDays: number;
  slotsPerDay: number;
  classBookings: number;
  journeyEvents: number;
  stamps: number;
  orders: number;
  queueHistory: number;
  waiting: number;
}

export function makePlan(scale: number, seed: number, now: Date): Plan {
  if (!(scale > 0)) throw new Error('--scale must be a positive number');
  const shrink = Math.min(scale, 1);
  const stores = Math.max(2, Math.round(50 * scale));
  const customers = Math.max(200, Math.round(100_000 * scale));
  const unitsPerStore = 10;
  const plan: Plan = {
    seed,
    scale,
    now,
    stores,
    unitsPerStore,
    units: stores * unitsPerStore,
    customers,
    flagshipCustomers: Math.min(customers, Math.max(200, Math.round(100_000 * shrink))),
    topStoreCustomers: Math.max(50, Math.round(16_000 * shrink)),
    minStoreCustomers: Math.min(50, customers),
    flagshipShare: 0.35 / Math.max(scale, 1),
    guests: Math.max(50, Math.round(20_000 * scale)),
    appointments: Math.round(500_000 * scale),
    historyDays: 730,
    futureDays: 60,
    // Store-local slots 09:00, 10:15 ... 17:45: 75 minutes apart, longer than any appointment plus its
    // buffer, so two appointments of one unit never overlap and the exclusion constraint accepts them.
    slotsPerDay: 8,
    classBookings: Math.round(200_000 * scale),
    journeyEvents: Math.round(300_000 * scale),
    stamps: Math.round(200_000 * scale),
    orders: Math.round(100_000 * scale),
    queueHistory: Math.round(20_000 * scale),
    waiting: 30,
  };
  const perUnit = Math.ceil(plan.appointments / plan.units);
  if (perUnit > (plan.historyDays + plan.futureDays) * plan.slotsPerDay)
    throw new Error('too many appointments per unit for the slot grid');
  return plan;
}

export function describePlan(p: Plan): string {
  const f = (n: number) => n.toLocaleString('en-GB');
  return [
    `scale ${p.scale} (seed ${p.seed}, now ${p.now.toISOString()})`,
    `${f(p.stores)} stores, ${f(p.units)} units, ${f(p.customers)} customers (flagship: ${f(p.flagshipCustomers)}; store s: max(${p.minStoreCustomers}, ${f(p.topStoreCustomers)} / s^0.8))`,
    `${f(p.appointments)} appointments over ${f(p.historyDays)} days of history + ${p.futureDays} ahead`,
    `${f(p.classBookings)} class bookings, ${f(p.journeyEvents)} journey events, ${f(p.stamps)} stamps, ${f(p.orders)} orders`,
    `${f(p.queueHistory)} past queue entries, ${p.waiting} waiting now`,
  ].join('\n  ');
}
