// What the scenarios need from the generated dataset, read once at start: the stores and their
// units, services and customers, and the pools of appointments each write scenario works through.
// Pools are disjoint by a byte of the id, so one scenario never consumes another's rows, and only
// generated rows qualify (the bench's own bookings are created_by 'bench-staff').
import type { Database } from '../../src/platform/db/port.ts';

export interface StoreFx {
  ord: number;
  id: string;
  timezone: string;
  units: string[];
  services: string[];
  customers: string[];
}

export interface Fixtures {
  stores: StoreFx[];
  large: StoreFx;
  diary: StoreFx;
  /** "Bench Online": the 20-unit online-booking store (bench/dataset/online.ts), not in `stores`; null in a dataset made before it. */
  online: StoreFx | null;
  appointments: number;
}

export const BENCH_USER = 'bench-staff';
export const poolClass = (n: number) => `get_byte(uuid_send(id), 15) % 4 = ${n}`;
/** "Bench Online" is the online-booking scenarios' own: the write scenarios' pools and fresh time leave it alone. */
const notOnline = `store_id <> ALL (SELECT id FROM stores WHERE name = 'Bench Online')`;
export const generated = `coalesce(created_by, '') <> '${BENCH_USER}' AND ${notOnline}`;

export async function loadFixtures(db: Database): Promise<Fixtures> {
  const stores = await db.query<{ id: string; name: string; timezone: string; units: string[]; services: string[] }>(
    `SELECT s.id, s.name, s.timezone,
            (SELECT array_agg(u.id ORDER BY u.sort, u.id) FROM units u WHERE u.store_id = s.id AND u.is_active AND u.bookable) AS units,
            (SELECT array_agg(v.id ORDER BY v.sort) FROM services v WHERE v.store_id = s.id AND v.is_active) AS services
       FROM stores s WHERE s.name LIKE 'Bench %'`,
  );
  if (stores.rows.length === 0) throw new Error('No bench dataset here: run `npm run bench:data -- --scale 1` first');
  const customers = await db.query<{ store_id: string; ids: string[] }>(
    `SELECT store_id, array_agg(customer_id) AS ids FROM (
       SELECT sc.store_id, sc.customer_id, row_number() OVER (PARTITION BY sc.store_id ORDER BY sc.customer_id) AS rn
         FROM store_customers sc JOIN customers c ON c.id = sc.customer_id
        WHERE c.erased_at IS NULL AND NOT sc.archived AND NOT sc.blocked) x
      WHERE rn <= 200 GROUP BY store_id`,
  );
  const byStore = new Map(customers.rows.map((r) => [r.store_id, r.ids]));
  const list: StoreFx[] = stores.rows
    .map((s) => ({
      ord:
        s.name === 'Bench Flagship' ? 0 : s.name === 'Bench Online' ? -1 : Number(s.name.replace('Bench Store ', '')),
      id: s.id,
      timezone: s.timezone,
      units: s.units ?? [],
      services: s.services ?? [],
      customers: byStore.get(s.id) ?? [],
    }))
    .sort((a, b) => a.ord - b.ord);
  const online = list.find((s) => s.ord === -1) ?? null;
  const history = list.filter((s) => s.ord !== -1);
  const count = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM appointments');
  return { stores: history, large: history[0], diary: history[1], online, appointments: count.rows[0].n };
}

/** The first day after every appointment in the table: fresh, empty time for creates and moves. */
export async function freshDay(db: Database): Promise<Date> {
  const res = await db.query<{ day: string }>(
    `SELECT (date_trunc('day', max(starts_at)) + interval '2 days')::timestamptz AS day FROM appointments WHERE ${notOnline}`,
  );
  return new Date(res.rows[0].day);
}

export interface PoolRow {
  id: string;
  store_id: string;
  unit_id: string;
  starts_at: string;
  ends_at: string;
}

export async function pool(db: Database, cls: number, where: string, limit = 30_000): Promise<PoolRow[]> {
  const res = await db.query<PoolRow>(
    `SELECT id, store_id, unit_id, starts_at, ends_at FROM appointments
      WHERE ${poolClass(cls)} AND ${generated} AND starts_at > now() + interval '2 hours' AND ${where}
      ORDER BY starts_at, id LIMIT ${limit}`,
  );
  return res.rows;
}
