// The pg adapter asks for its session settings in the connection's startup packet (pg.adapter.ts,
// SESSION_OPTIONS). Behind PgBouncer in transaction mode that packet never reaches PostgreSQL: the
// pooler refuses the `options` parameter unless told to ignore it, and then the settings are lost.
// The server then has to carry them itself (the role's or the database's defaults: see
// docs/operations.md). This check runs once at start and refuses to run on a session that is not in
// UTC (instants would come back in another shape); the planner settings only cost speed, so a
// difference is logged.
import type { Database } from './port.ts';

const UTC_NAMES = /^(Etc\/)?(UTC|UCT|Universal|Zulu)$/i;
const WANTED: Record<string, string> = { random_page_cost: '1.1', max_parallel_workers_per_gather: '0', jit: 'off' };

export interface SessionReport {
  ok: boolean;
  timezone: string;
  differences: string[];
}

export async function checkSessionSettings(db: Database): Promise<SessionReport> {
  if (db.engine !== 'pg') return { ok: true, timezone: 'UTC', differences: [] };
  const { rows } = await db.query<Record<string, string>>(
    `SELECT current_setting('TimeZone') AS timezone, current_setting('random_page_cost') AS random_page_cost,
            current_setting('max_parallel_workers_per_gather') AS max_parallel_workers_per_gather, current_setting('jit') AS jit`,
  );
  const row = rows[0];
  const differences = Object.entries(WANTED)
    .filter(([k, v]) => row[k] !== v)
    .map(([k, v]) => `${k} is ${row[k]} (wanted ${v})`);
  return { ok: UTC_NAMES.test(row.timezone), timezone: row.timezone, differences };
}

/** The message for a session that is not in UTC. */
export function notUtcMessage(timezone: string): string {
  return `the database session's TimeZone is ${timezone}, not UTC: behind a pooler that drops the startup options (PgBouncer), set it on the server: ALTER ROLE <user> SET TimeZone = 'UTC' (docs/operations.md)`;
}
