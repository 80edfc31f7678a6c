// What one statement costs PostgreSQL, in shared buffers (EXPLAIN (ANALYZE, BUFFERS)): a measure a
// plan cannot keep low while it walks rows it does not return, whatever its shape. The statement
// runs inside a transaction that is rolled back, so a write leaves nothing behind. Used to pin the
// background statements that must not grow with what is kept (docs/performance/history/round-12.md).
import type { Database } from '../../src/platform/db/port.ts';

interface PlanRoot {
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
}

class RolledBack extends Error {
  readonly buffers: number;
  constructor(buffers: number) {
    super('rolled back');
    this.buffers = buffers;
  }
}

export async function buffersTouched(db: Database, sql: string, params: readonly unknown[]): Promise<number> {
  try {
    await db.transaction(async (tx) => {
      const r = await tx.query<{ 'QUERY PLAN': [{ Plan: PlanRoot }] }>(
        `EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`,
        params,
      );
      const plan = r.rows[0]['QUERY PLAN'][0].Plan;
      throw new RolledBack(plan['Shared Hit Blocks'] + plan['Shared Read Blocks']);
    });
  } catch (err) {
    if (err instanceof RolledBack) return err.buffers;
    throw err;
  }
  throw new Error('unreachable: the transaction always rolls back');
}
