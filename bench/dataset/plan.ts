// How big each table is at a given scale. Scale 1 is the figure: 50 stores, 500 units,
// 100,000 customers (all of them with a relationship to the one large store), 500,000 appointments
// over two years, 200,000 class bookings, 300,000 journey events, stamps and orders.
//
// Above 1 the scale multiplies the history only: stores, units and customers stay, and the extra
// appointments extend further back in time (10 = twenty years), so the density of a diary week,
// the size of the roster and the queue stay the same. That isolates how cost grows with history,
// which is what the growth check measures. Below 1 everything shrinks (the embedded engine).

export interface Plan {
  seed: number;
  scale: number;
  /** "Now" for the data: past appointments are settled history, future ones are bookable. */
  now: Date;
  stores: number;
  unitsPerStore: number;
  units: number;
  customers: number;
  /** Customers each of the other stores has a relationship with (the large store has them all). */
  smallStoreCustomers: number;
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
  const entity = Math.min(scale, 1);
  const history = Math.max(scale, 1);
  const stores = Math.max(2, Math.round(50 * entity));
  const unitsPerStore = 10;
  const plan: Plan = {
    seed,
    scale,
    now,
    stores,
    unitsPerStore,
    units: stores * unitsPerStore,
    customers: Math.max(200, Math.round(100_000 * entity)),
    smallStoreCustomers: Math.max(50, Math.round(2_000 * entity)),
    guests: Math.max(50, Math.round(20_000 * entity)),
    appointments: Math.round(500_000 * scale),
    historyDays: Math.round(730 * history),
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
  if (perUnit > (plan.historyDays + plan.futureDays) * plan.slotsPerDay) throw new Error('too many appointments per unit for the slot grid');
  return plan;
}

export function describePlan(p: Plan): string {
  const f = (n: number) => n.toLocaleString('en-GB');
  return [
    `scale ${p.scale} (seed ${p.seed}, now ${p.now.toISOString()})`,
    `${f(p.stores)} stores, ${f(p.units)} units, ${f(p.customers)} customers (large store: all; others: ${f(p.smallStoreCustomers)} each)`,
    `${f(p.appointments)} appointments over ${f(p.historyDays)} days of history + ${p.futureDays} ahead`,
    `${f(p.classBookings)} class bookings, ${f(p.journeyEvents)} journey events, ${f(p.stamps)} stamps, ${f(p.orders)} orders`,
    `${f(p.queueHistory)} past queue entries, ${p.waiting} waiting now`,
  ].join('\n  ');
}
