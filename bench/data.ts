// npm run bench:data -- --scale S [--seed N] [--now ISO] [--database-url URL] [--reset] [--keep-indexes] [--add-online-store]
// Generates the benchmark dataset with set-based SQL (INSERT ... SELECT over generate_series with a
// seeded hash for randomness): no request per row, reproducible for a given seed and "now".
// Without --database-url (or DATABASE_URL) it writes the embedded engine under DATA_DIR.
import { migrate } from '../src/platform/db/migrate.ts';
import { num, parseArgs, str } from './lib/args.ts';
import { ensureDatabase, openTarget, type Target } from './lib/target.ts';
import { describePlan, makePlan } from './dataset/plan.ts';
import { customers, functions, stores } from './dataset/core.ts';
import { appointments } from './dataset/appointments.ts';
import { activity } from './dataset/activity.ts';
import { aggregates, extras, queue } from './dataset/extras.ts';
import { dropForBulk, restoreDropped } from './dataset/bulk.ts';
import { onlineStore } from './dataset/online.ts';

const args = parseArgs();
const scale = num(args, 'scale', 1);
const seed = Math.trunc(num(args, 'seed', 42));
// Whole minutes, so two runs started in the same minute produce identical rows.
const now = new Date(str(args, 'now') ?? new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString());
if (Number.isNaN(now.getTime())) throw new Error('--now must be an ISO instant');
const databaseUrl = str(args, 'database-url') ?? process.env.DATABASE_URL ?? null;

const plan = makePlan(scale, seed, now);
if (databaseUrl) await ensureDatabase(databaseUrl);
const db = await openTarget(databaseUrl);
console.log(`target: ${db.label}${databaseUrl ? '' : ' (DATABASE_URL not set: embedded engine)'}`);
console.log(`plan:\n  ${describePlan(plan)}`);

const started = performance.now();
const migration = await migrate(db);
if (migration.applied.length) console.log(`migrated: ${migration.applied.length} migrations applied`);
if (migration.unowned.length)
  console.log(`warning: functions no db/functions/ file defines: ${migration.unowned.join(', ')}`);

// --add-online-store: add only the 20-unit online-booking store to a dataset generated before it
// existed (triggers on, so its appointments and holds enter the occupancy table as they are written).
if (args['add-online-store'] === true) {
  const exists = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM stores WHERE name = 'Bench Online'");
  if (exists.rows[0].n > 0) console.log('Bench Online is already there: nothing to add');
  else {
    await db.transaction(async (tx) => {
      for (const sql of [...functions(plan), ...onlineStore(plan)]) await tx.query(sql);
    });
    await db.query('VACUUM ANALYZE');
    console.log(`added Bench Online in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  await db.close();
  process.exit(0);
}

const restored = await restoreDropped(db);
if (restored) console.log(`restored ${restored} indexes and constraints an interrupted run had dropped`);
await emptyOrReset(db, args.reset === true);
const bulk = args['keep-indexes'] !== true;
if (bulk)
  console.log(`bulk mode: dropped ${await dropForBulk(db)} secondary indexes and constraints; rebuilt after loading`);
await bestEffort(db, [
  // Bulk-load settings for this session only. Foreign keys are not checked row by row (the generator
  // derives every reference from rows it wrote); the exclusion constraint and unique indexes still are.
  "SET session_replication_role = 'replica'",
  'SET synchronous_commit = off',
  "SET work_mem = '128MB'",
  "SET maintenance_work_mem = '256MB'",
]);

const steps: [string, string[]][] = [
  ['functions', functions(plan)],
  ['stores, units, services', stores(plan)],
  ['customers and relationships', customers(plan)],
  ['appointments and settlements', appointments(plan)],
  ['class bookings, stamps, orders, journey events', activity(plan)],
  ['roster aggregates', aggregates(plan)],
  ['queue', queue(plan)],
  ['preferences, agreements, time-off, holds', extras(plan)],
  ['online-booking store (20 units)', onlineStore(plan)],
];
for (const [name, statements] of steps) {
  const t0 = performance.now();
  let rows = 0;
  for (const sql of statements) rows += (await db.query(sql)).rowCount;
  console.log(
    `  ${name.padEnd(48)} ${String(rows).padStart(10)} rows  ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}
if (bulk) {
  const t = performance.now();
  const n = await restoreDropped(db);
  console.log(
    `  ${('rebuild ' + n + ' indexes and constraints').padEnd(48)} ${''.padStart(10)}       ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );
}
const t0 = performance.now();
await db.query("SET session_replication_role = 'origin'").catch(() => undefined);
// Online booking (migration 080). The bulk load ran as 'replica', which fires no triggers, so the
// occupancy rows of the generated appointments and holds, and the deposits pending (migration 170),
// are written here as the migrations would (a generated hold that collides with an appointment is
// released as superseded); and every unit
// gets working hours (Tuesday to Saturday, 09:00-13:00 and 14:00-19:00) so the availability search has
// a week to search.
for (const sql of [
  `UPDATE holds SET block = tstzrange(starts_at, ends_at) WHERE block IS NULL`,
  `INSERT INTO unit_occupancy (store_id, unit_id, block, appointment_id)
   SELECT store_id, unit_id, block, id FROM appointments WHERE status NOT IN ('cancelled', 'no_show') AND NOT is_override
   ON CONFLICT DO NOTHING`,
  `INSERT INTO unit_occupancy (store_id, unit_id, block, hold_id)
   SELECT store_id, unit_id, block, id FROM holds WHERE released_at IS NULL ORDER BY created_at, id ON CONFLICT DO NOTHING`,
  // The bookings waiting for a deposit (migration 170), as its trigger would have listed them.
  `INSERT INTO pending_deposits (store_id, appointment_id)
   SELECT store_id, id FROM appointments WHERE status = 'pending_payment' ON CONFLICT DO NOTHING`,
  `UPDATE holds h SET released_at = now(), release_reason = 'superseded'
    WHERE h.released_at IS NULL AND NOT EXISTS (SELECT 1 FROM unit_occupancy o WHERE o.hold_id = h.id)`,
  `INSERT INTO unit_hours (store_id, unit_id, weekday, opens, closes)
   SELECT u.store_id, u.id, d, o, c FROM units u, generate_series(2, 6) d, (VALUES (time '09:00', time '13:00'), (time '14:00', time '19:00')) v (o, c)
    WHERE NOT EXISTS (SELECT 1 FROM unit_hours x WHERE x.unit_id = u.id)`,
  `UPDATE units SET hours_set_at = now() WHERE hours_set_at IS NULL`,
  // The per-store search keys (migration 280), as the relationship's trigger would have copied them.
  `UPDATE store_customers sc SET search_name = v[1], search_email = v[2], search_phone = v[3],
          search_tokens = bbo_search_tokens(sc.store_id, v)
     FROM (SELECT id, bbo_customer_search_values(name, email, phone, erased_at) AS v FROM customers) c
    WHERE c.id = sc.customer_id`,
  // Each relationship's latest appointment (migration 290), as db/functions/latest-appointment.sql keeps it.
  `UPDATE store_customers sc SET latest_appointment_at = m.latest, booked_here = true
     FROM (SELECT store_id, customer_id, max(starts_at) AS latest FROM appointments
            WHERE customer_id IS NOT NULL GROUP BY store_id, customer_id) m
    WHERE sc.store_id = m.store_id AND sc.customer_id = m.customer_id`,
])
  await db.query(sql);
// VACUUM as well: a bulk-loaded table has no visibility map yet, so index-only scans would still visit
// the heap for every row, which a database in steady state (autovacuum) does not.
await db.query('VACUUM ANALYZE');
console.log(
  `  ${'vacuum analyze'.padEnd(48)} ${''.padStart(10)}       ${((performance.now() - t0) / 1000).toFixed(1)} s`,
);

const counts = await db.query<{ t: string; n: number }>(
  `SELECT t, n FROM (VALUES ('stores', (SELECT count(*) FROM stores)), ('units', (SELECT count(*) FROM units)),
     ('customers', (SELECT count(*) FROM customers)), ('store_customers', (SELECT count(*) FROM store_customers)),
     ('appointments', (SELECT count(*) FROM appointments)), ('class_bookings', (SELECT count(*) FROM class_bookings)),
     ('journey_events', (SELECT count(*) FROM journey_events)), ('stamps', (SELECT count(*) FROM stamps)),
     ('orders', (SELECT count(*) FROM orders)), ('queue_entries', (SELECT count(*) FROM queue_entries))) v(t, n)`,
);
console.log(counts.rows.map((r) => `  ${r.t}: ${Number(r.n).toLocaleString('en-GB')}`).join('\n'));
console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
await db.close();

async function emptyOrReset(target: Target, reset: boolean) {
  const existing = await target.query<{ n: number }>('SELECT count(*)::int AS n FROM stores');
  if (existing.rows[0].n === 0) return;
  if (!reset) {
    console.error(
      'The target already holds data. Pass --reset to empty every table first (never point this at real data).',
    );
    process.exit(2);
  }
  const tables = await target.query<{ name: string }>(
    "SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations'",
  );
  await target.query(`TRUNCATE ${tables.rows.map((t) => t.name).join(', ')} CASCADE`);
  console.log(`reset: emptied ${tables.rows.length} tables`);
}

async function bestEffort(target: Target, statements: string[]) {
  for (const sql of statements) await target.query(sql).catch(() => undefined);
}
