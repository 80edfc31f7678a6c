// The rest: roster aggregates made consistent with the activity rows, the walk-in queue (30 waiting
// in the diary store), notification preferences, time-off and holds around today, agreements.
import { FIRST, LAST, pick, sqlArray, ts } from './core.ts';
import type { Plan } from './plan.ts';

/** The store the diary and queue scenarios use (10 units like every store, London time). */
export const DIARY_STORE = 1;
/** The store with a relationship to every customer (roster, customer search, journey). */
export const LARGE_STORE = 0;

export function aggregates(p: Plan): string[] {
  // The same definitions the service maintains (customers/activity/activity.repository.ts,
  // refreshRelationship): a visit is a store-local day with an attended class, a non-cancelled order
  // or a stamp; net spend is non-cancelled orders net of refunds; first/last seen stretch over every
  // activity row, appointments and journey events included.
  return [
    `WITH visits AS (
       SELECT store_id, customer_id, coalesce(attended_at, created_at) AS at FROM class_bookings WHERE status = 'attended'
       UNION ALL SELECT store_id, customer_id, created_at FROM orders WHERE status <> 'cancelled'
       UNION ALL SELECT store_id, customer_id, created_at FROM stamps
     ), days AS (
       SELECT v.store_id, v.customer_id, (v.at AT TIME ZONE st.timezone)::date AS day, min(v.at) AS first_at, max(v.at) AS last_at
         FROM visits v JOIN stores st ON st.id = v.store_id GROUP BY 1, 2, 3
     ), visit_totals AS (
       SELECT store_id, customer_id, count(*)::int AS total, min(first_at) AS first_at, max(last_at) AS last_at,
              (array_agg(last_at ORDER BY day DESC))[2] AS previous_at
         FROM days GROUP BY 1, 2
     ), order_totals AS (
       SELECT store_id, customer_id, count(*)::int AS n,
              sum(CASE WHEN status = 'refunded' THEN 0 ELSE amount_pence - least(refunded_pence, amount_pence) END) AS net
         FROM orders WHERE status <> 'cancelled' GROUP BY 1, 2
     ), stamp_totals AS (
       SELECT store_id, customer_id, sum(count)::int AS n FROM stamps GROUP BY 1, 2
     ), seen AS (
       SELECT store_id, customer_id, min(at) AS first_at, max(at) AS last_at FROM (
         SELECT store_id, customer_id, at FROM visits
         UNION ALL SELECT store_id, customer_id, occurred_at FROM journey_events
         UNION ALL SELECT store_id, customer_id, starts_at FROM appointments WHERE customer_id IS NOT NULL AND starts_at <= ${ts(p.now)}
       ) a GROUP BY 1, 2
     ), rows AS (
       SELECT sc.store_id, sc.customer_id, v.total, v.first_at, v.last_at, v.previous_at, o.n AS orders, o.net, s.n AS stamps,
              seen.first_at AS seen_first, seen.last_at AS seen_last
         FROM store_customers sc
         LEFT JOIN visit_totals v ON v.store_id = sc.store_id AND v.customer_id = sc.customer_id
         LEFT JOIN order_totals o ON o.store_id = sc.store_id AND o.customer_id = sc.customer_id
         LEFT JOIN stamp_totals s ON s.store_id = sc.store_id AND s.customer_id = sc.customer_id
         LEFT JOIN seen ON seen.store_id = sc.store_id AND seen.customer_id = sc.customer_id
     )
     UPDATE store_customers sc
        SET total_visits = coalesce(r.total, 0), first_visit_at = r.first_at, last_visit_at = r.last_at,
            previous_visit_at = r.previous_at, order_count = coalesce(r.orders, 0), total_spent_pence = coalesce(r.net, 0),
            stamp_count = coalesce(r.stamps, 0),
            first_seen_at = least(sc.first_seen_at, r.seen_first), last_seen_at = greatest(sc.last_seen_at, r.seen_last)
       FROM rows r
      WHERE sc.store_id = r.store_id AND sc.customer_id = r.customer_id`,
  ];
}

export function queue(p: Plan): string[] {
  const now = ts(p.now);
  const store = `pg_temp.uid('S', ${DIARY_STORE})`;
  const guest = `${pick(sqlArray(FIRST), 'pg_temp.rnd(i, 81)')} || ' ' || left(${pick(sqlArray(LAST), 'pg_temp.rnd(i, 82)')}, 1) || '.'`;
  return [
    // The live queue: 30 waiting (one every 3 minutes) and 3 already called.
    `INSERT INTO queue_entries (id, store_id, guest_name, guest_phone, service_id, preferred_unit_id, party_size, status, joined_at,
                                called_at, quoted_wait_min)
     SELECT pg_temp.uid('Q', i), ${store}, ${guest}, '+4479' || lpad(i::text, 8, '0'),
            pg_temp.uid('V', ${DIARY_STORE} * 6 + i % 3),
            CASE WHEN i % 4 = 0 THEN pg_temp.uid('U', ${DIARY_STORE * p.unitsPerStore} + i % ${p.unitsPerStore}) END,
            1 + (i % 5 = 0)::int, CASE WHEN i < 3 THEN 'called' ELSE 'waiting' END,
            ${now} - make_interval(mins => ${(p.waiting + 3) * 3} - i * 3),
            CASE WHEN i < 3 THEN ${now} - interval '2 minutes' END, 5 + i * 3
       FROM generate_series(0, ${p.waiting + 2}) i`,
    // History: ended entries across every store.
    `INSERT INTO queue_entries (id, store_id, guest_name, party_size, status, joined_at, called_at, ended_at, quoted_wait_min)
     SELECT pg_temp.uid('Q', 1000000 + i), pg_temp.uid('S', i % ${p.stores}), ${guest}, 1,
            ${pick(sqlArray(['completed', 'completed', 'completed', 'left', 'no_show']), 'pg_temp.rnd(i, 83)')}, at, at + interval '20 minutes',
            at + interval '70 minutes', 15
       FROM (SELECT i, ${now} - make_interval(days => 1) - make_interval(secs => pg_temp.rnd(i, 84) * ${p.historyDays * 86_400}) AS at
               FROM generate_series(0, ${p.queueHistory - 1}) i) x`,
  ];
}

export function extras(p: Plan): string[] {
  const now = ts(p.now);
  const today = `DATE '${p.now.toISOString().slice(0, 10)}'`;
  return [
    `INSERT INTO notification_preferences (customer_id, store_id, messages_muted, class_reminders, marketing_enabled, updated_at)
     SELECT customer_id, store_id, h % 10 = 0, h % 7 <> 0, h % 3 = 0, ${now}
       FROM (SELECT customer_id, store_id, abs(hashtextextended(store_id::text || customer_id::text, ${p.seed})) AS h FROM store_customers) x
      WHERE h % 100 < 15`,
    `INSERT INTO customer_agreements (store_id, customer_id, kind, accepted_at)
     SELECT store_id, customer_id, 'waiver', first_seen_at FROM store_customers
      WHERE abs(hashtextextended(customer_id::text || store_id::text, ${p.seed})) % 10 = 0`,
    // A short admin block every evening after the last slot (19:00 store-local) for the weeks around today.
    `INSERT INTO time_off (store_id, unit_id, starts_at, ends_at, kind, reason, created_by, created_at)
     SELECT u.store_id, u.id, ((${today} + d) + time '19:00') AT TIME ZONE u.tz, ((${today} + d) + time '19:30') AT TIME ZONE u.tz,
            CASE WHEN d % 7 = 0 THEN 'time_off' ELSE 'block' END, 'Admin', 'staff-1', ${now} - interval '30 days'
       FROM bench_units u, generate_series(-14, 28) d`,
    // Two live holds per store tomorrow evening, as if customers were mid-checkout.
    `INSERT INTO holds (store_id, unit_id, starts_at, ends_at, expires_at, created_at)
     SELECT u.store_id, u.id, ((${today} + 1) + time '20:00') AT TIME ZONE u.tz, ((${today} + 1) + time '20:30') AT TIME ZONE u.tz,
            ${now} + interval '2 days', ${now}
       FROM bench_units u WHERE u.ord % ${p.unitsPerStore} < 2`,
  ];
}
