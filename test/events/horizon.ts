// On the server engine the feed shows an event once every older transaction (of the whole cluster,
// other test databases included) has finished. Tests that read right after writing wait for that.
import type { Database } from '../../src/platform/db/port.ts';

export async function feedSettled(db: Database, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM events WHERE txid >= pg_snapshot_xmin(pg_current_snapshot())',
    );
    if (res.rows[0].n === 0) return;
    if (Date.now() > deadline) throw new Error('the feed horizon did not pass the latest events in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
