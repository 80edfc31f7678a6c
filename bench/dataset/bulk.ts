// Bulk-load mode: building an index once over all rows is several times faster than maintaining it
// row by row (the appointments table carries a GiST exclusion constraint, GiST and GIN trigram
// indexes). Before loading, the secondary indexes and the exclusion constraint of the big tables are
// dropped, their exact definitions kept in bench_dropped_ddl inside the same database; afterwards
// they are recreated from there, which also re-validates the no-overlap rule over every row.
// If a run dies half-way, the next run restores them first.
import type { Queryable } from '../../src/platform/db/port.ts';

const TABLES = [
  'appointments',
  'settlements',
  'class_bookings',
  'stamps',
  'orders',
  'journey_events',
  'store_customers',
  'customers',
];

export async function restoreDropped(db: Queryable): Promise<number> {
  const exists = await db.query(
    "SELECT 1 FROM pg_tables WHERE schemaname = 'public' AND tablename = 'bench_dropped_ddl'",
  );
  if (exists.rowCount === 0) return 0;
  const ddl = await db.query<{ ddl: string }>('SELECT ddl FROM bench_dropped_ddl ORDER BY ord');
  for (const row of ddl.rows) await db.query(row.ddl);
  await db.query('DROP TABLE bench_dropped_ddl');
  return ddl.rows.length;
}

export async function dropForBulk(db: Queryable): Promise<number> {
  await db.query('CREATE TABLE bench_dropped_ddl (ord serial PRIMARY KEY, ddl text NOT NULL)');
  // Exclusion constraints first (they own an index); then indexes that back no constraint.
  const constraints = await db.query<{ tbl: string; name: string; def: string }>(
    `SELECT c.conrelid::regclass::text AS tbl, c.conname AS name, pg_get_constraintdef(c.oid) AS def
       FROM pg_constraint c WHERE c.contype = 'x' AND c.conrelid::regclass::text = ANY($1)`,
    [TABLES],
  );
  const indexes = await db.query<{ name: string; def: string }>(
    `SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def
       FROM pg_index i
      WHERE i.indrelid::regclass::text = ANY($1)
        AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
    [TABLES],
  );
  for (const c of constraints.rows) {
    await db.query('INSERT INTO bench_dropped_ddl (ddl) VALUES ($1)', [
      `ALTER TABLE ${c.tbl} ADD CONSTRAINT ${c.name} ${c.def}`,
    ]);
  }
  for (const i of indexes.rows) await db.query('INSERT INTO bench_dropped_ddl (ddl) VALUES ($1)', [i.def]);
  for (const c of constraints.rows) await db.query(`ALTER TABLE ${c.tbl} DROP CONSTRAINT ${c.name}`);
  for (const i of indexes.rows) await db.query(`DROP INDEX ${i.name}`);
  return constraints.rows.length + indexes.rows.length;
}
