// The outbox collector: how a change records its event. emit() is called inside the change's transaction; the
// rows are collected and written just before commit by inTransaction (platform/context.ts), in one
// statement with the audit rows and the idempotency record. So a rollback or a retried attempt
// leaves no event, and a committed change always has its event. Called on a handle that is not
// collecting (outside inTransaction), emit writes at once.
//
// Each row gets the store's zone and local wall time from the stores table at write time, and any
// top-level starts_at / ends_at in data gains local_starts_at / local_ends_at in that zone.
//
// The platform owns the collector so inTransaction can flush it without importing events/; features
// call emit() from events/outbox.ts, which types the event against the catalogue (event-types.ts).
import type { Tx } from './db/port.ts';
import { SYSTEM_ACTOR, type EventActor } from './audit.ts';

export interface EventInput {
  storeId: string;
  /** An event type of the catalogue (events/event-types.ts); events/outbox.ts narrows it. */
  type: string;
  /** The resource as it is after the change (plus changed_fields / previous where that helps). */
  data: Record<string, unknown>;
}

interface PendingEvent {
  store_id: string;
  type: string;
  occurred_at: string;
  data: Record<string, unknown>;
  /** Who made the change (inTransaction sets the request's); null when no request did. */
  actor?: EventActor | null;
}

const collecting = new WeakMap<Tx, PendingEvent[]>();

/** Records an event of this transaction; occurredAt comes from the request's clock. */
export async function emit(tx: Tx, event: EventInput, occurredAt: Date): Promise<void> {
  const row: PendingEvent = {
    store_id: event.storeId,
    type: event.type,
    occurred_at: occurredAt.toISOString(),
    data: event.data,
  };
  const pending = collecting.get(tx);
  if (pending) pending.push(row);
  else await writeEvents(tx, [{ ...row, actor: actorOf(row, SYSTEM_ACTOR) }]); // no request's transaction: a job's
}

/**
 * The event's actor: the request's, or the system's when no request made the change (a job) or when
 * the event is a hold lapsing (whoever's request noticed it). bbo_write_finish applies the same rule.
 */
function actorOf(row: PendingEvent, actor: EventActor | undefined): EventActor {
  return row.type === 'hold.expired' ? SYSTEM_ACTOR : (row.actor ?? actor ?? SYSTEM_ACTOR);
}

export function collectEvents(tx: Tx): void {
  collecting.set(tx, []);
}

/** The events collected on tx, in call order, each with its actor (actorOf); tx stops collecting. */
export function takeEvents(tx: Tx, actor?: EventActor): readonly PendingEvent[] {
  const rows = collecting.get(tx) ?? [];
  collecting.delete(tx);
  return rows.map((row) => ({ ...row, actor: actorOf(row, actor) }));
}

export function dropEvents(tx: Tx): void {
  collecting.delete(tx);
}

const LOCAL = `'YYYY-MM-DD"T"HH24:MI:SS'`;

/**
 * An INSERT of the events passed as one JSON array in the parameter named by param, in array order
 * (seq ascends in call order). Usable alone or as a data-modifying WITH item.
 */
export function eventsInsertSql(param: string): string {
  return `INSERT INTO events (store_id, type, occurred_at, occurred_at_local, timezone, actor, data)
     SELECT e.store_id, e.type, e.occurred_at, to_char(e.occurred_at AT TIME ZONE s.timezone, ${LOCAL}), s.timezone, e.actor,
            e.data
              || CASE WHEN jsonb_typeof(e.data->'starts_at') = 'string'
                      THEN jsonb_build_object('local_starts_at', to_char((e.data->>'starts_at')::timestamptz AT TIME ZONE s.timezone, ${LOCAL}))
                      ELSE '{}'::jsonb END
              || CASE WHEN jsonb_typeof(e.data->'ends_at') = 'string'
                      THEN jsonb_build_object('local_ends_at', to_char((e.data->>'ends_at')::timestamptz AT TIME ZONE s.timezone, ${LOCAL}))
                      ELSE '{}'::jsonb END
       FROM ROWS FROM (jsonb_to_recordset(${param}::jsonb) AS (store_id uuid, type text, occurred_at timestamptz, actor jsonb, data jsonb))
            WITH ORDINALITY AS e
       JOIN stores s ON s.id = e.store_id
      ORDER BY e.ordinality`;
}

export function eventsParam(rows: readonly PendingEvent[]): string {
  return JSON.stringify(rows);
}

export async function writeEvents(tx: Tx, rows: readonly PendingEvent[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.query(eventsInsertSql('$1'), [eventsParam(rows)]);
}
