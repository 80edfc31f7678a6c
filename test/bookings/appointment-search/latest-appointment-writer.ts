// A second operating-system process writing appointments, for latest-appointment.test.ts's race:
// `node latest-appointment-writer.ts <url> <store_id> <unit_id> <seed> <customer_id>...` writes, for
// every customer in order, a first booking whose relationship comes after the appointment (as
// bbo_touch_store_customer does), then a mix of bookings, moves later and earlier, cancels and
// deletes of the same customers, each transaction held open a few milliseconds so the other process's
// transactions interleave with it. Prints one JSON line: how many transactions it committed.
import { fileURLToPath } from 'node:url';
import { runNodeScript } from '../../support/db-process.ts';
import { openPg } from '../../../src/platform/db/pg.adapter.ts';
import type { Queryable } from '../../../src/platform/db/port.ts';

const SELF = fileURLToPath(import.meta.url);

/** Runs this file as a child process; resolves with the JSON it printed. */
export function runWriter(args: string[]): Promise<{ committed: number }> {
  return runNodeScript<{ committed: number }>(SELF, args, 'writer');
}

// A small deterministic generator, so a failing run can be repeated with its seed.
function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

async function insert(tx: Queryable, store: string, unit: string, customer: string, day: number): Promise<void> {
  const starts = new Date(Date.UTC(2026, 0, 1) + day * 3_600_000).toISOString();
  const ends = new Date(Date.UTC(2026, 0, 1) + day * 3_600_000 + 1_800_000).toISOString();
  // An override occupies no time, so the two processes never collide on the unit.
  await tx.query(
    `INSERT INTO appointments (store_id, unit_id, customer_id, starts_at, ends_at, block, status, currency, is_override)
     VALUES ($1, $2, $3, $4, $5, tstzrange($4::timestamptz, $5::timestamptz), 'confirmed', 'GBP', true)`,
    [store, unit, customer, starts, ends],
  );
}

const touch = (tx: Queryable, store: string, customer: string) =>
  tx.query(
    `INSERT INTO store_customers (store_id, customer_id, first_seen_at, last_seen_at, updated_at)
     VALUES ($1, $2, now(), now(), now())
     ON CONFLICT (store_id, customer_id) DO UPDATE SET last_seen_at = GREATEST(store_customers.last_seen_at, EXCLUDED.last_seen_at)`,
    [store, customer],
  );

async function main(url: string, store: string, unit: string, seed: number, customers: string[]): Promise<unknown> {
  const db = openPg({ connectionString: url, poolSize: 2 });
  const next = random(seed);
  const hold = (tx: Queryable) => tx.query('SELECT pg_sleep($1)', [next() * 0.02]);
  let committed = 0;
  try {
    // First bookings: the appointment, a pause, then the relationship, as the booking doors write them.
    for (const customer of customers) {
      await db.transaction(async (tx) => {
        await insert(tx, store, unit, customer, Math.floor(next() * 2000));
        await hold(tx);
        await touch(tx, store, customer);
      });
      committed++;
    }
    // Then three of them, so most transactions meet another on the same relationship.
    const few = customers.slice(0, 3);
    for (let i = 0; i < 120; i++) {
      const customer = few[Math.floor(next() * few.length)];
      const op = next();
      await db.transaction(async (tx) => {
        if (op < 0.3) {
          // Often later than every other, the start a concurrent recompute must not miss.
          await insert(tx, store, unit, customer, Math.floor(next() * 4000));
          await hold(tx);
          await touch(tx, store, customer);
          return;
        }
        // One of the customer's appointments, mostly the latest (the case a recompute decides).
        const pick = await tx.query<{ id: string }>(
          `SELECT id FROM appointments WHERE store_id = $1 AND customer_id = $2
            ORDER BY CASE WHEN $3 THEN starts_at END DESC NULLS LAST, id LIMIT 1`,
          [store, customer, next() < 0.8],
        );
        if (!pick.rows[0]) return;
        const id = pick.rows[0].id;
        if (op < 0.5) {
          await tx.query(
            `UPDATE appointments SET starts_at = starts_at + make_interval(hours => $2), ends_at = ends_at + make_interval(hours => $2),
                    block = tstzrange(lower(block) + make_interval(hours => $2), upper(block) + make_interval(hours => $2))
              WHERE id = $1`,
            [id, Math.floor(next() * 400) + 1],
          );
        } else if (op < 0.7) {
          await tx.query(
            `UPDATE appointments SET starts_at = starts_at - make_interval(hours => $2), ends_at = ends_at - make_interval(hours => $2),
                    block = tstzrange(lower(block) - make_interval(hours => $2), upper(block) - make_interval(hours => $2))
              WHERE id = $1`,
            [id, Math.floor(next() * 400) + 1],
          );
        } else if (op < 0.8) {
          await tx.query(`UPDATE appointments SET status = 'cancelled', cancelled_at = now() WHERE id = $1`, [id]);
        } else {
          await tx.query('DELETE FROM appointments WHERE id = $1', [id]);
        }
        await hold(tx);
      });
      committed++;
    }
    return { committed };
  } finally {
    await db.close();
  }
}

if (process.argv[1] === SELF) {
  const [url, store, unit, seed, ...customers] = process.argv.slice(2);
  process.stdout.write(`${JSON.stringify(await main(url, store, unit, Number(seed), customers))}\n`);
}
