// SQL for an endpoint's delivery log and for sending deliveries again (one, or every failed one
// since a time). The caller has already checked that the endpoint is the store's.
import type { Queryable } from '../platform/db/port.ts';

export interface AttemptRow {
  id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  attempted_at: string;
  succeeded: boolean;
  http_status: number | null;
  error: string | null;
  duration_ms: number;
  response_body: string | null;
  next_retry_at: string | null;
  delivery_status: string;
}

/** The endpoint's attempts, newest first, before the cursor (an attempt id). */
export async function listAttempts(
  db: Queryable,
  endpointId: string,
  before: string | null,
  limit: number,
): Promise<AttemptRow[]> {
  const res = await db.query<AttemptRow>(
    `SELECT a.id::text AS id, a.event_id, a.event_type, a.attempt, a.attempted_at, a.succeeded, a.http_status, a.error,
            a.duration_ms, a.response_body, a.next_retry_at, d.status AS delivery_status
       FROM webhook_attempts a
       JOIN webhook_deliveries d ON d.id = a.delivery_id
      WHERE a.endpoint_id = $1 AND ($2::bigint IS NULL OR a.id < $2::bigint)
      ORDER BY a.id DESC
      LIMIT $3`,
    [endpointId, before, limit],
  );
  return res.rows;
}

export interface DeliveryRow {
  event_id: string;
  event_type: string;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
}

const DELIVERY = `event_id, event_type, status, attempts, CASE WHEN status = 'pending' THEN next_attempt_at END AS next_attempt_at`;

/**
 * Makes the delivery of this event to this endpoint due now, whatever its state (a delivered one is
 * sent again), unless an attempt is in flight (it is being made right now: it is returned as it is).
 * The conditional UPDATE decides; the SELECT answers when it did not. Null: no such delivery.
 */
export async function retryDelivery(
  db: Queryable,
  endpointId: string,
  eventId: string,
  now: string,
): Promise<DeliveryRow | null> {
  const res = await db.query<DeliveryRow>(
    `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $3, updated_at = $3
      WHERE endpoint_id = $1 AND event_id = $2 AND NOT (status = 'pending' AND coalesce(locked_until > $3, false))
      RETURNING ${DELIVERY}`,
    [endpointId, eventId, now],
  );
  if (res.rows[0]) return res.rows[0];
  const current = await db.query<DeliveryRow>(
    `SELECT ${DELIVERY} FROM webhook_deliveries WHERE endpoint_id = $1 AND event_id = $2`,
    [endpointId, eventId],
  );
  return current.rows[0] ?? null;
}

/**
 * Every delivery of this endpoint dispatched since `since` whose last attempt failed (given up, or
 * waiting for its next retry) becomes due now. Returns how many.
 */
export async function replayFailed(db: Queryable, endpointId: string, since: string, now: string): Promise<number> {
  const res = await db.query(
    `UPDATE webhook_deliveries
        SET status = 'pending', next_attempt_at = $3, updated_at = $3
      WHERE endpoint_id = $1 AND created_at >= $2
        AND (status = 'failed' OR (status = 'pending' AND attempts > 0 AND (locked_until IS NULL OR locked_until <= $3)))`,
    [endpointId, since, now],
  );
  return res.rowCount;
}
