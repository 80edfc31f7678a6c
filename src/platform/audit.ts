// Audited state changes write one row each here, committed together with the change.
//
// Inside inTransaction the rows are collected rather than written one by one: the transaction
// writes them all in one statement at its end, together with the idempotency record when the
// request has an Idempotency-Key (see context.ts). So a transaction that rolls back, and an
// attempt that is retried, leave no audit row, and the rows commit atomically with the effect.
// Called on a handle that is not collecting (outside inTransaction), audit writes at once.
import type { Actor } from './auth/actor.ts';
import type { Clock } from './clock.ts';
import type { Tx } from './db/port.ts';

export interface AuditEntry {
  action: string;
  entity: string;
  entityId: string | null;
  details?: Record<string, unknown>;
}

/** One audit_log row as written; field names are the table's columns. */
export interface AuditRow {
  store_id: string | null;
  actor_kind: string;
  actor_id: string | null;
  actor_name: string | null;
  action: string;
  entity: string;
  entity_id: string | null;
  details: Record<string, unknown>;
  request_id: string;
  /** ISO instant: when audit was called, not when the row was flushed. */
  created_at: string;
}

/**
 * Who acts, for the row: a RequestContext is one. Named here so this module never imports the
 * context: the transaction (context.ts) collects, flush.ts writes, and neither is imported back.
 */
export interface AuditSource {
  readonly actor: Actor;
  readonly requestId: string;
  readonly clock: Clock;
}

/** Rows waiting for the end of their transaction, by the transaction's handle. */
const collecting = new WeakMap<Tx, AuditRow[]>();

/**
 * The actor's part of a merchant's audit row, for writes done by a database function
 * (one-statement.ts): the function adds action, entity, details and created_at.
 */
export function auditActor(
  ctx: AuditSource,
): Pick<AuditRow, 'store_id' | 'actor_kind' | 'actor_id' | 'actor_name' | 'request_id'> {
  const { store_id, actor_kind, actor_id, actor_name, request_id } = rowOf(ctx, {
    action: '',
    entity: '',
    entityId: null,
  });
  return { store_id, actor_kind, actor_id, actor_name, request_id };
}

/**
 * Who made a change, as its events carry it (the events' actor column, issue 43): the same person or
 * key the audit row names, never an email or a phone. A customer and a booking page visitor are
 * named by type only (a visitor has no id yet).
 */
export interface EventActor {
  type: 'staff' | 'api_key' | 'merchant_token' | 'customer' | 'admin' | 'system';
  id: string | null;
  name: string | null;
}

/** The service itself: a background job (deposit sweep, webhook worker, import run), or a hold lapsing. */
export const SYSTEM_ACTOR: EventActor = { type: 'system', id: null, name: null };

export function eventActor(actor: Actor): EventActor {
  switch (actor.kind) {
    case 'merchant':
      if (actor.staff?.via === 'session') return { type: 'staff', id: actor.staff.id, name: actor.staffName };
      if (actor.staff?.via === 'api_key') return { type: 'api_key', id: actor.staff.id, name: actor.staffName };
      return { type: 'merchant_token', id: actor.userId, name: actor.staffName };
    case 'customer':
      return { type: 'customer', id: actor.customerId, name: null };
    case 'guest':
      return { type: 'customer', id: null, name: null };
    case 'admin':
      return { type: 'admin', id: null, name: null };
  }
}

function rowOf(ctx: AuditSource, entry: AuditEntry): AuditRow {
  const actor = ctx.actor;
  return {
    store_id: actor.kind === 'merchant' ? actor.storeId : ((entry.details?.store_id as string | undefined) ?? null),
    actor_kind: actor.kind,
    actor_id: actor.kind === 'merchant' ? actor.userId : actor.kind === 'customer' ? actor.customerId : null,
    actor_name: actor.kind === 'merchant' ? actor.staffName : null,
    action: entry.action,
    entity: entry.entity,
    entity_id: entry.entityId,
    details: entry.details ?? {},
    request_id: ctx.requestId,
    created_at: ctx.clock.now().toISOString(),
  };
}

export async function audit(tx: Tx, ctx: AuditSource, entry: AuditEntry): Promise<void> {
  const row = rowOf(ctx, entry);
  const pending = collecting.get(tx);
  if (pending) pending.push(row);
  else await writeAuditRows(tx, [row]);
}

/** From now on audit calls on tx are collected until takeAudit or dropAudit. */
export function collectAudit(tx: Tx): void {
  collecting.set(tx, []);
}

/** The rows collected on tx, in call order; tx stops collecting. */
export function takeAudit(tx: Tx): AuditRow[] {
  const rows = collecting.get(tx) ?? [];
  collecting.delete(tx);
  return rows;
}

/** Forgets whatever tx collected: its transaction did not commit them. */
export function dropAudit(tx: Tx): void {
  collecting.delete(tx);
}

/**
 * An INSERT of the rows passed as one JSON array in the parameter named by param ('$1'), in array
 * order (ids ascend in call order). Usable alone or as a data-modifying WITH item.
 */
export function auditInsertSql(param: string): string {
  return `INSERT INTO audit_log (store_id, actor_kind, actor_id, actor_name, action, entity, entity_id, details, request_id, created_at)
     SELECT r.store_id, r.actor_kind, r.actor_id, r.actor_name, r.action, r.entity, r.entity_id, r.details, r.request_id, r.created_at
       FROM ROWS FROM (jsonb_to_recordset(${param}::jsonb) AS (store_id uuid, actor_kind text, actor_id text, actor_name text,
              action text, entity text, entity_id text, details jsonb, request_id text, created_at timestamptz))
            WITH ORDINALITY AS r
      ORDER BY r.ordinality`;
}

/** The parameter value for auditInsertSql. */
export function auditParam(rows: readonly AuditRow[]): string {
  return JSON.stringify(rows);
}

/** Writes the rows in one statement; nothing when there are none. */
export async function writeAuditRows(tx: Tx, rows: readonly AuditRow[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(auditInsertSql('$1'), [auditParam(rows)]);
}
