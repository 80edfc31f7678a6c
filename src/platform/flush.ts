// What a transaction collected while it ran (audit rows, outbox events) is written in ONE statement
// just before commit: as data-modifying WITH items in front of a main statement (the idempotency
// record) when there is one, alone otherwise. One round trip, and all of it commits with the effect.
import type { Tx } from './db/port.ts';
import { auditInsertSql, auditParam, type AuditRow } from './audit.ts';
import { eventsInsertSql, eventsParam, type takeEvents } from './outbox.ts';

export interface Collected {
  audit: readonly AuditRow[];
  events: ReturnType<typeof takeEvents>;
}

/**
 * Prefixes main (whose parameters are params) with a WITH item per non-empty collection; with no
 * main statement, the last item becomes the statement. Returns null when there is nothing to run.
 */
export function withCollected(
  main: string | null,
  params: unknown[],
  collected: Collected,
): { sql: string; params: unknown[] } | null {
  const items: string[] = [];
  const all = [...params];
  if (collected.audit.length) {
    all.push(auditParam(collected.audit));
    items.push(auditInsertSql(`$${all.length}`));
  }
  if (collected.events.length) {
    all.push(eventsParam(collected.events));
    items.push(eventsInsertSql(`$${all.length}`));
  }
  if (main === null) {
    if (items.length === 0) return null;
    main = items.pop()!;
  }
  if (items.length === 0) return { sql: main, params: all };
  // A data-modifying WITH item always runs to completion, whether or not the main statement reads it.
  return { sql: `WITH ${items.map((sql, i) => `collected_${i} AS (${sql})`).join(',\n')}\n${main}`, params: all };
}

export async function writeCollected(tx: Tx, collected: Collected): Promise<void> {
  const statement = withCollected(null, [], collected);
  if (statement) await tx.query(statement.sql, statement.params);
}
