// Audited state changes write one row here, in the same transaction as the change.
import type { RequestContext } from './context.ts';
import type { Tx } from './db/port.ts';

export interface AuditEntry {
  action: string;
  entity: string;
  entityId: string | null;
  details?: Record<string, unknown>;
}

export async function audit(tx: Tx, ctx: RequestContext, entry: AuditEntry): Promise<void> {
  const actor = ctx.actor;
  const storeId = actor.kind === 'merchant' ? actor.storeId : (entry.details?.store_id as string | undefined) ?? null;
  const actorId = actor.kind === 'merchant' ? actor.userId : actor.kind === 'customer' ? actor.customerId : null;
  const actorName = actor.kind === 'merchant' ? actor.staffName : null;
  await tx.query(
    `INSERT INTO audit_log (store_id, actor_kind, actor_id, actor_name, action, entity, entity_id, details, request_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      storeId,
      actor.kind,
      actorId,
      actorName,
      entry.action,
      entry.entity,
      entry.entityId,
      JSON.stringify(entry.details ?? {}),
      ctx.requestId,
      ctx.clock.now().toISOString(),
    ],
  );
}
