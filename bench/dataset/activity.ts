// What the rest of the platform records about customers at stores: class bookings, stamps, orders and
// journey events. Each row picks a relationship that exists: the flagship takes a fixed 70,000 per 200,000 at scale 1 (plan.ts),
// and within a store the first customers are the regulars (a power curve), so some customers have
// long timelines, as real ones do.
import { customerOf, pick, relationshipsOf, sqlArray, ts } from './core.ts';
import type { Plan } from './plan.ts';

/** A subquery of (i, s, c, at): the i-th activity row, its store and customer ordinals, and an instant. */
function pairs(p: Plan, n: number, salt: number, aheadDays = 0): string {
  const span = p.historyDays + aheadDays;
  return `SELECT i, s, ${customerOf(p, 's', `floor(${relationshipsOf(p, 's')} * power(pg_temp.rnd(i, ${salt + 2}), 1.5))::bigint`)} AS c,
                 ${ts(p.now)} - make_interval(days => ${p.historyDays}) + make_interval(secs => pg_temp.rnd(i, ${salt + 3}) * ${span * 86_400}) AS at
            FROM (SELECT i, CASE WHEN pg_temp.rnd(i, ${salt}) < ${p.flagshipShare} THEN 0 ELSE 1 + floor(pg_temp.rnd(i, ${salt + 1}) * ${p.stores - 1})::int END AS s
                    FROM generate_series(0, ${n - 1}) i) x`;
}

const CLASSES = ['Yoga Flow', 'Spin', 'HIIT', 'Pilates', 'Boxfit', 'Barre', 'Zumba', 'Body Pump'];
const CATEGORIES = ['Mind and body', 'Cardio', 'Cardio', 'Mind and body', 'Combat', 'Strength', 'Dance', 'Strength'];
const INSTRUCTORS = ['Jess', 'Marcus', 'Priya', 'Tom', 'Aisha', 'Ben'];

export function activity(p: Plan): string[] {
  const now = ts(p.now);
  const currency = `CASE WHEN s % 10 >= 8 THEN 'EUR' ELSE 'GBP' END`;
  return [
    `INSERT INTO class_bookings (id, store_id, customer_id, status, booking_date, booking_source, class_name, class_category,
                                 class_instructor_name, occurrence_instructor_name, scheduled_date, start_time, end_time,
                                 attended_at, no_show_marked_at, cancelled_at, created_at)
     SELECT pg_temp.uid('K', i), pg_temp.uid('S', s), pg_temp.uid('C', c), status, (at - interval '3 days')::date,
            ${pick(sqlArray(['app', 'app', 'app', 'staff', 'drop-in']), 'pg_temp.rnd(i, 44)')},
            (${sqlArray(CLASSES)})[ci + 1], (${sqlArray(CATEGORIES)})[ci + 1], (${sqlArray(INSTRUCTORS)})[ci % 6 + 1],
            CASE WHEN pg_temp.rnd(i, 45) < 0.3 THEN ${pick(sqlArray(INSTRUCTORS), 'pg_temp.rnd(i, 46)')} END,
            at::date, time '06:00' + make_interval(hours => hr), time '06:45' + make_interval(hours => hr),
            CASE WHEN status = 'attended' THEN at::date + time '06:00' + make_interval(hours => hr) - interval '5 minutes' END,
            CASE WHEN status = 'no_show' THEN at::date + time '07:00' + make_interval(hours => hr) END,
            CASE WHEN status = 'cancelled' THEN at - interval '1 day' END,
            least(at - interval '3 days', ${now})
       FROM (SELECT x.*, floor(pg_temp.rnd(i, 41) * 8)::int AS ci, floor(pg_temp.rnd(i, 42) * 14)::int AS hr,
                    CASE WHEN at < ${now}
                         THEN CASE WHEN r < 0.72 THEN 'attended' WHEN r < 0.80 THEN 'no_show' WHEN r < 0.96 THEN 'cancelled' ELSE 'promotion_expired' END
                         ELSE CASE WHEN r < 0.80 THEN 'confirmed' WHEN r < 0.90 THEN 'waitlisted' WHEN r < 0.95 THEN 'promotion_pending' ELSE 'cancelled' END
                    END AS status
               FROM (SELECT y.*, pg_temp.rnd(i, 43) AS r FROM (${pairs(p, p.classBookings, 36, 14)}) y) x) z`,
    `INSERT INTO stamps (id, store_id, customer_id, count, title, created_at)
     SELECT pg_temp.uid('T', i), pg_temp.uid('S', s), pg_temp.uid('C', c), CASE WHEN pg_temp.rnd(i, 51) < 0.1 THEN 2 ELSE 1 END,
            'Loyalty stamp', at
       FROM (${pairs(p, p.stamps, 46)}) x`,
    `INSERT INTO orders (id, store_id, customer_id, status, amount_pence, refunded_pence, promo_discount_pence, applied_promo_code,
                         currency, title, created_at)
     SELECT pg_temp.uid('O', i), pg_temp.uid('S', s), pg_temp.uid('C', c), status, amount,
            CASE status WHEN 'refunded' THEN amount WHEN 'partially_refunded' THEN amount / 3 ELSE 0 END,
            CASE WHEN promo THEN amount / 10 ELSE 0 END, CASE WHEN promo THEN 'WELCOME10' END, ${currency},
            ${pick(sqlArray(['Shampoo', 'Gift card', 'Conditioner', 'Class pack', 'Styling wax', 'Membership']), 'pg_temp.rnd(i, 62)')}, at
       FROM (SELECT x.*, 300 + floor(pg_temp.rnd(i, 61) * 8700)::int AS amount, pg_temp.rnd(i, 63) < 0.1 AS promo,
                    CASE WHEN pg_temp.rnd(i, 64) < 0.90 THEN 'paid' WHEN pg_temp.rnd(i, 64) < 0.93 THEN 'refunded'
                         WHEN pg_temp.rnd(i, 64) < 0.96 THEN 'partially_refunded' ELSE 'cancelled' END AS status
               FROM (${pairs(p, p.orders, 56)}) x) y`,
    `INSERT INTO journey_events (id, store_id, customer_id, type, channel, occurred_at, title, subtitle, status, detail, campaign_name,
                                 opened, clicked, returning_visit_at, return_days, amount_pence, currency, auto_sent, result_kind,
                                 result_at, result_value_pence)
     SELECT pg_temp.uid('J', i), pg_temp.uid('S', s), pg_temp.uid('C', c), type,
            CASE type WHEN 'message' THEN 'in_app' WHEN 'email' THEN 'email' WHEN 'journey' THEN 'journey' WHEN 'moment' THEN 'moment'
                      WHEN 'membership' THEN 'gym' ELSE 'in_store' END,
            at, initcap(replace(type, '_', ' ')), CASE WHEN type = 'email' THEN 'We miss you' END,
            CASE WHEN type IN ('message', 'email') THEN 'delivered' END, NULL,
            CASE WHEN type IN ('email', 'journey') THEN 'Win-back autumn' END,
            CASE WHEN type = 'email' THEN pg_temp.rnd(i, 72) < 0.4 END, CASE WHEN type = 'email' THEN pg_temp.rnd(i, 73) < 0.1 END,
            CASE WHEN returned THEN at + interval '6 days' END, CASE WHEN returned THEN 6 END,
            CASE WHEN type = 'voucher_redeemed' THEN 500 END, CASE WHEN type = 'voucher_redeemed' THEN ${currency} END,
            CASE WHEN type IN ('email', 'message', 'journey') THEN pg_temp.rnd(i, 74) < 0.7 END,
            CASE WHEN returned THEN 'visit' END, CASE WHEN returned THEN at + interval '6 days' END, CASE WHEN returned THEN 2500 END
       FROM (SELECT x.*, ${pick(sqlArray(['message', 'message', 'email', 'email', 'email', 'voucher_earned', 'voucher_redeemed', 'journey', 'moment', 'membership', 'joined']), 'pg_temp.rnd(i, 71)')} AS type,
                    pg_temp.rnd(i, 75) < 0.05 AS returned
               FROM (${pairs(p, p.journeyEvents, 66)}) x) y`,
  ];
}
