// The online-booking store: "Bench Online", 20 units with a realistic diary for the availability
// search (issue 16's "20-unit store"), kept apart from the 50 history stores so the other scenarios
// and their figures are unchanged. Reproducible like the rest: ids from pg_temp.uid, chance from
// pg_temp.rnd, all relative to the plan's "now".
//
// The diary: working hours 09:00-13:00 and 14:00-19:00 (half the units Tuesday to Saturday, half
// Monday to Friday; the even units stay until 20:00 on Thursdays). Each working interval is cut into
// hour cells shifted by 0, 15 or 30 minutes per unit and day; a cell is booked (30, 45 or 60 minutes
// of one of the store's services) with a chance that falls with distance, as diaries fill: 85% within
// a week, 60% within a month, 30% within two, 10% after. Past fortnight: completed. Each unit has a
// day off about every three weeks and a one-hour team block each week; a few customers are
// mid-checkout (live holds) in free cells over the next three days.
import { FIRST, LAST, pick, sqlArray, ts } from './core.ts';
import type { Plan } from './plan.ts';

/** Ordinals well clear of the history stores' (0..49) and units' (0..499) at any scale. */
export const ONLINE_STORE = 1000;
const UNIT0 = 100_000;
export const ONLINE_UNITS = 20;
const CUSTOMERS = 2_000;
const FROM_DAY = -14;
const TO_DAY = 120;

export function onlineStore(p: Plan): string[] {
  const now = ts(p.now);
  const today = `DATE '${p.now.toISOString().slice(0, 10)}'`;
  const opened = `${now} - interval '400 days'`;
  const store = `pg_temp.uid('S', ${ONLINE_STORE})`;
  const cells = `
    SELECT u.k, u.id AS unit_id, d, (${today} + d) AS day, c.start_wall, c.closes, c.n,
           (${today} + d + c.start_wall) AT TIME ZONE 'Europe/London' AS starts_at,
           c.key, pg_temp.rnd(c.key, 90) AS r
      FROM (SELECT k, pg_temp.uid('U', ${UNIT0} + k) AS id FROM generate_series(0, ${ONLINE_UNITS - 1}) k) u
      CROSS JOIN generate_series(${FROM_DAY}, ${TO_DAY}) d
      JOIN unit_hours h ON h.unit_id = u.id AND h.weekday = extract(dow FROM ${today} + d)
      CROSS JOIN LATERAL (
        SELECT n, ((u.k * 200 + d + 14) * 2 + (h.opens >= time '12:00')::int) * 8 + n AS key, h.opens + make_interval(mins => (15 * floor(pg_temp.rnd(u.k * 200 + d + 14, 91) * 3))::int + 60 * n) AS start_wall,
               h.closes
          FROM generate_series(0, 5) n) c
     WHERE c.start_wall + interval '30 minutes' <= c.closes`;
  const chance = `CASE WHEN d < 0 THEN 0.8 WHEN d <= 7 THEN 0.85 WHEN d <= 30 THEN 0.6 WHEN d <= 60 THEN 0.3 ELSE 0.1 END`;
  return [
    // Bookings open a year ahead: the hold + confirm scenario books beyond the diary (bench/scenarios/online.ts).
    `INSERT INTO stores (id, name, timezone, currency, walkin_mode, called_hold_minutes, cancellation_window_min, booking_horizon_days,
                         created_at, updated_at)
     VALUES (${store}, 'Bench Online', 'Europe/London', 'GBP', 'mixed', 10, 0, 365, ${opened}, ${opened})`,
    `INSERT INTO units (id, store_id, display_name, kind, unit_type, user_id, colour, sort, hours_set_at, created_at, updated_at)
     SELECT pg_temp.uid('U', ${UNIT0} + k), ${store}, 'Chair ' || (k + 1), 'staff', 'stylist', 'staff-online-' || k, '#64b5f6', k,
            ${opened}, ${opened}, ${opened}
       FROM generate_series(0, ${ONLINE_UNITS - 1}) k`,
    `INSERT INTO services (id, store_id, category, name, duration_min, price_pence, currency, sort, created_at, updated_at)
     SELECT pg_temp.uid('V', ${ONLINE_STORE} * 6 + k), ${store}, (${sqlArray(['Hair', 'Hair', 'Colour', 'Barber', 'Advice', 'Spa'])})[k + 1],
            (${sqlArray(['Cut', 'Cut and finish', 'Colour', 'Beard trim', 'Consultation', 'Treatment'])})[k + 1],
            (${sqlArray([30, 45, 60, 30, 30, 60])})[k + 1], (${sqlArray([2500, 4000, 7500, 1500, 0, 6000])})[k + 1], 'GBP', k, ${opened}, ${opened}
       FROM generate_series(0, 5) k`,
    `INSERT INTO unit_hours (store_id, unit_id, weekday, opens, closes)
     SELECT ${store}, pg_temp.uid('U', ${UNIT0} + k), wd, v.o, CASE WHEN v.o = time '14:00' AND wd = 4 AND k % 2 = 0 THEN time '20:00' ELSE v.c END
       FROM generate_series(0, ${ONLINE_UNITS - 1}) k
       CROSS JOIN generate_series(1, 6) wd
       CROSS JOIN (VALUES (time '09:00', time '13:00'), (time '14:00', time '19:00')) v (o, c)
      WHERE (k < ${ONLINE_UNITS / 2} AND wd BETWEEN 2 AND 6) OR (k >= ${ONLINE_UNITS / 2} AND wd BETWEEN 1 AND 5)`,
    `INSERT INTO store_customers (store_id, customer_id, first_seen_at, last_seen_at, updated_at)
     SELECT ${store}, pg_temp.uid('C', (c * 37) % ${p.customers}), ${opened}, ${opened}, ${opened}
       FROM generate_series(0, ${Math.min(CUSTOMERS, p.customers) - 1}) c
     ON CONFLICT DO NOTHING`,
    `INSERT INTO appointments (id, store_id, unit_id, service_id, customer_id, guest_name, starts_at, ends_at, block, status, payment_status,
                               price_pence, currency, party_size, source, completed_at, created_by, created_at, updated_at)
     SELECT pg_temp.uid('A', ${UNIT0} * 1000 + key), ${store}, unit_id, pg_temp.uid('V', ${ONLINE_STORE} * 6 + svc),
            CASE WHEN pg_temp.rnd(key, 98) < 0.7 THEN pg_temp.uid('C', (floor(pg_temp.rnd(key, 99) * ${Math.min(CUSTOMERS, p.customers)})::int * 37) % ${p.customers}) END,
            CASE WHEN pg_temp.rnd(key, 98) >= 0.7 THEN ${pick(sqlArray(FIRST), 'pg_temp.rnd(key, 92)')} || ' ' || ${pick(sqlArray(LAST), 'pg_temp.rnd(key, 93)')} END,
            starts_at, starts_at + make_interval(mins => dur), tstzrange(starts_at, starts_at + make_interval(mins => dur)),
            CASE WHEN d < 0 THEN 'completed' WHEN pg_temp.rnd(key, 94) < 0.05 THEN 'cancelled' ELSE 'confirmed' END,
            CASE WHEN d < 0 THEN 'paid' ELSE 'none' END, price, 'GBP', 1,
            CASE WHEN pg_temp.rnd(key, 95) < 0.5 THEN 'online' ELSE 'merchant' END,
            CASE WHEN d < 0 THEN starts_at + make_interval(mins => dur) END, 'staff-1',
            LEAST(${now}, starts_at) - interval '3 days', LEAST(${now}, starts_at) - interval '3 days'
       FROM (SELECT x.*, svc, (${sqlArray([30, 45, 60, 30, 30, 60])})[svc + 1] AS dur, (${sqlArray([2500, 4000, 7500, 1500, 0, 6000])})[svc + 1] AS price
               FROM (${cells}) x
               CROSS JOIN LATERAL (SELECT floor(pg_temp.rnd(key, 96) * 6)::int AS svc) s
              WHERE x.r < ${chance}) b
      WHERE start_wall + make_interval(mins => dur) <= closes`,
    // A day off about every three weeks and a one-hour team block each week, per unit.
    `INSERT INTO time_off (store_id, unit_id, starts_at, ends_at, kind, reason, created_by, created_at)
     SELECT ${store}, pg_temp.uid('U', ${UNIT0} + k), (${today} + d + time '09:00') AT TIME ZONE 'Europe/London',
            (${today} + d + time '20:00') AT TIME ZONE 'Europe/London', 'time_off', 'Day off', 'staff-1', ${opened}
       FROM generate_series(0, ${ONLINE_UNITS - 1}) k, generate_series(${FROM_DAY}, ${TO_DAY}) d
      WHERE (d + k * 5) % 21 = 0`,
    `INSERT INTO time_off (store_id, unit_id, starts_at, ends_at, kind, reason, created_by, created_at)
     SELECT ${store}, pg_temp.uid('U', ${UNIT0} + k), (${today} + d + time '13:00') AT TIME ZONE 'Europe/London',
            (${today} + d + time '14:00') AT TIME ZONE 'Europe/London', 'block', 'Team meeting', 'staff-1', ${opened}
       FROM generate_series(0, ${ONLINE_UNITS - 1}) k, generate_series(${FROM_DAY}, ${TO_DAY}) d
      WHERE (d + k) % 7 = 0 AND (d + k * 5) % 21 <> 0`,
    // Customers mid-checkout: live holds in cells the diary left free, over the next three days.
    `INSERT INTO holds (store_id, unit_id, starts_at, ends_at, block, expires_at, created_at)
     SELECT ${store}, unit_id, starts_at, starts_at + interval '30 minutes', tstzrange(starts_at, starts_at + interval '30 minutes'),
            ${now} + interval '3 days', ${now}
       FROM (${cells}) x
      WHERE d BETWEEN 0 AND 3 AND x.r >= ${chance} AND pg_temp.rnd(key, 97) < 0.15
        AND starts_at > ${now} + interval '2 hours'`,
  ];
}
