// Appointments laid out on a per-unit slot grid so live blocks never overlap: the j-th appointment of a
// unit takes grid position floor(j * P / n) of P = days x slots, shifted per unit, so every unit's
// history is spread evenly from historyDays ago to futureDays ahead. Status follows time: the past is
// mostly completed (with some cancelled, no-show and unresolved), the future confirmed.
import { customerOf, relationshipsOf, SERVICE_MINUTES, SERVICE_PENCE, sqlArray, ts } from './core.ts';
import type { Plan } from './plan.ts';

function firstDay(p: Plan): string {
  const d = new Date(p.now.getTime() - p.historyDays * 86_400_000);
  return `DATE '${d.toISOString().slice(0, 10)}'`;
}

export function appointments(p: Plan): string[] {
  const U = p.units;
  const perUnit = Math.ceil(p.appointments / U);
  const P = (p.historyDays + p.futureDays) * p.slotsPerDay;
  const now = ts(p.now);
  const grid = `SELECT i, u.id AS unit_id, u.store_id, u.store_ord, u.tz, u.currency,
                       (floor((i / ${U}) * ${P}::float8 / ${perUnit})::bigint + u.ord * 3) % ${P} AS pos,
                       floor(pg_temp.rnd(i, 1) * 6)::int AS k
                  FROM generate_series(0, ${p.appointments - 1}) i JOIN bench_units u ON u.ord = i % ${U}`;
  const timed = `SELECT g.*,
                        ((${firstDay(p)} + (pos / ${p.slotsPerDay})::int) + make_interval(mins => 540 + (pos % ${p.slotsPerDay})::int * 75))
                          AT TIME ZONE tz AS starts_at,
                        (${sqlArray(SERVICE_MINUTES)})[k + 1] AS dur, (${sqlArray(SERVICE_PENCE)})[k + 1] AS price,
                        pg_temp.rnd(i, 3) AS r3, pg_temp.rnd(i, 4) < 0.7 AS account, pg_temp.rnd(i, 5) AS r5,
                        floor(pg_temp.rnd(i, 5) * ${p.guests})::bigint AS g
                   FROM (${grid}) g`;
  const statused = `SELECT t.*,
                           CASE WHEN starts_at < ${now}
                                THEN CASE WHEN r3 < 0.82 THEN 'completed' WHEN r3 < 0.90 THEN 'cancelled' WHEN r3 < 0.95 THEN 'no_show' ELSE 'confirmed' END
                                ELSE CASE WHEN r3 < 0.90 THEN 'confirmed' WHEN r3 < 0.95 THEN 'cancelled' ELSE 'pending_payment' END
                           END AS status,
                           CASE WHEN price > 0 AND pg_temp.rnd(i, 6) < 0.3 THEN price / 5 ELSE 0 END AS deposit,
                           least(starts_at - make_interval(days => 2 + floor(pg_temp.rnd(i, 7) * 30)::int),
                                 ${now} - make_interval(hours => 1 + floor(pg_temp.rnd(i, 7) * 48)::int)) AS created
                      FROM (${timed}) t`;
  const source = `CASE WHEN pg_temp.rnd(i, 9) < 0.35 THEN 'online' WHEN pg_temp.rnd(i, 9) < 0.40 THEN 'walk_in' ELSE 'merchant' END`;
  return [
    `INSERT INTO appointments (id, store_id, unit_id, service_id, customer_id, guest_name, guest_email, guest_phone, starts_at, ends_at,
                               block, status, payment_status, price_pence, deposit_pence, settled_pence, currency, party_size, source,
                               cancel_reason, checked_in_at, completed_at, cancelled_at, no_show_at, created_by, created_at, updated_at)
     SELECT pg_temp.uid('A', i), store_id, unit_id, pg_temp.uid('V', store_ord * 6 + k),
            CASE WHEN account THEN pg_temp.uid('C', ${customerOf(p, 'store_ord', `floor(r5 * ${relationshipsOf(p, 'store_ord')})::bigint`)}) END,
            CASE WHEN NOT account THEN pg_temp.forename(g, 31) || ' ' || pg_temp.surname(g, 32) END,
            CASE WHEN NOT account THEN lower(pg_temp.forename(g, 31) || '.' || pg_temp.surname(g, 32) || '.g' || g || '@example.net') END,
            CASE WHEN NOT account AND pg_temp.rnd(g, 33) < 0.6 THEN '+4478' || lpad(g::text, 8, '0') END,
            starts_at, starts_at + make_interval(mins => dur),
            tstzrange(starts_at, starts_at + make_interval(mins => dur + CASE WHEN pg_temp.rnd(i, 2) < 0.1 THEN 10 ELSE 0 END)),
            status,
            CASE WHEN status = 'completed' THEN 'paid' WHEN deposit > 0 THEN 'deposit_paid' ELSE 'none' END,
            price, deposit, CASE WHEN status = 'completed' THEN price - deposit ELSE 0 END, currency,
            CASE WHEN pg_temp.rnd(i, 8) < 0.1 THEN 2 ELSE 1 END, ${source},
            CASE WHEN status = 'cancelled' THEN 'Customer cancelled' END,
            CASE WHEN status = 'completed' THEN starts_at - interval '5 minutes' END,
            CASE WHEN status = 'completed' THEN starts_at + make_interval(mins => dur) END,
            CASE WHEN status = 'cancelled' THEN least(${now}, starts_at - interval '1 day') END,
            CASE WHEN status = 'no_show' THEN starts_at + interval '30 minutes' END,
            CASE WHEN pg_temp.rnd(i, 9) >= 0.40 THEN 'staff-1' END,
            created,
            CASE status WHEN 'completed' THEN starts_at + make_interval(mins => dur)
                        WHEN 'cancelled' THEN least(${now}, starts_at - interval '1 day')
                        WHEN 'no_show' THEN starts_at + interval '30 minutes' ELSE created END
       FROM (${statused}) s`,
    // Balances taken in the shop: one settlement row per completed appointment with something to pay.
    `INSERT INTO settlements (store_id, appointment_id, amount_pence, currency, method, settled_by_user_id, settled_by_name, settled_at)
     SELECT store_id, id, settled_pence, currency,
            CASE WHEN hashtextextended(id::text, ${p.seed}) % 3 = 0 THEN 'cash' ELSE 'card_machine' END, 'staff-1', 'Sam Staff', completed_at
       FROM appointments WHERE settled_pence > 0`,
  ];
}
