// SQL of sending planned messages (sender.ts): claiming the due ones under a lease, recording what
// became of each, and what the send-time checks read about their appointments, entries and bookings.
import type { Queryable } from '../../platform/db/port.ts';
import type { MessageChannel, MessageKind } from './message-kinds.ts';

export interface MessageRow {
  id: string;
  store_id: string;
  kind: MessageKind;
  subject_id: string;
  version: string;
  channel: MessageChannel;
  category: string;
  customer_id: string | null;
  to_address: string;
  appointment_id: string | null;
  queue_entry_id: string | null;
  planned_start: string | null;
  subject: string;
  body_text: string;
  body_html: string;
  ics: string | null;
  ics_sequence: number | null;
  message_id: string;
  status: string;
  reason: string | null;
  due_at: string;
  lease_token: string | null;
  attempts: number;
  last_error: string | null;
  provider_id: string | null;
  sent_at: string | null;
  created_at: string;
}

/**
 * Claims up to `limit` due messages for this sender: pending ones, and sends whose lease ran out
 * (their sender died). SKIP LOCKED lets several senders claim side by side without waiting on or
 * taking each other's rows; the lease keeps a claimed row from being claimed again until it ends.
 */
export async function claimDue(
  db: Queryable,
  now: string,
  leaseUntil: string,
  token: string,
  limit: number,
): Promise<MessageRow[]> {
  const res = await db.query<MessageRow>(
    `UPDATE messages m
        SET status = 'sending', lease_until = $2, lease_token = $3, attempts = m.attempts + 1, updated_at = $1
      WHERE m.id IN (SELECT id FROM messages
                      WHERE status IN ('pending', 'sending') AND due_at <= $1
                        AND (status = 'pending' OR lease_until < $1)
                      ORDER BY due_at
                      LIMIT $4
                        FOR UPDATE SKIP LOCKED)
    RETURNING m.*`,
    [now, leaseUntil, token, limit],
  );
  return res.rows;
}

export type Outcome =
  | { status: 'sent'; providerId: string | null }
  | { status: 'mailbox' }
  | { status: 'suppressed' | 'failed'; reason: string; error?: string | null }
  | { status: 'retry'; dueAt: string; error: string };

/** Records what became of a claimed message; only while this sender still holds the claim. */
export async function recordOutcome(
  db: Queryable,
  id: string,
  token: string,
  outcome: Outcome,
  now: string,
): Promise<boolean> {
  const reason = 'reason' in outcome ? outcome.reason : null;
  const error = 'error' in outcome ? (outcome.error ?? null) : null;
  const res = await db.query(
    `UPDATE messages
        SET status = CASE WHEN $3 = 'retry' THEN 'pending' ELSE $3 END,
            reason = $4,
            last_error = COALESCE($5, last_error),
            provider_id = $6,
            sent_at = CASE WHEN $3 = 'sent' THEN $7::timestamptz END,
            due_at = COALESCE($8::timestamptz, due_at),
            lease_until = NULL, lease_token = NULL, updated_at = $7
      WHERE id = $1 AND lease_token = $2 AND status = 'sending'`,
    [
      id,
      token,
      outcome.status,
      reason,
      error,
      outcome.status === 'sent' ? outcome.providerId : null,
      now,
      outcome.status === 'retry' ? outcome.dueAt : null,
    ],
  );
  return res.rowCount > 0;
}

/**
 * Records many outcomes that reached no one outside (mailbox, suppressed) in one statement, each only
 * while this sender still holds its claim; returns the ids recorded. A send that reached a provider is
 * recorded on its own, at once (recordOutcome), so a crash never widens the window for a duplicate.
 */
export async function recordQuietOutcomes(
  db: Queryable,
  token: string,
  items: readonly { id: string; status: 'mailbox' | 'suppressed'; reason: string | null }[],
  now: string,
): Promise<Set<string>> {
  if (items.length === 0) return new Set();
  const res = await db.query<{ id: string }>(
    `UPDATE messages m
        SET status = o.status, reason = o.reason, provider_id = NULL, sent_at = NULL,
            lease_until = NULL, lease_token = NULL, updated_at = $3
       FROM jsonb_to_recordset($1::jsonb) AS o (id uuid, status text, reason text)
      WHERE m.id = o.id AND m.lease_token = $2 AND m.status = 'sending'
    RETURNING m.id`,
    [JSON.stringify(items), token, now],
  );
  return new Set(res.rows.map((r) => r.id));
}

/** Hands a claimed message back unsent (not attempted: the attempt is not counted). */
export async function releaseClaim(db: Queryable, id: string, token: string): Promise<void> {
  await db.query(
    `UPDATE messages SET status = 'pending', lease_until = NULL, lease_token = NULL, attempts = attempts - 1
      WHERE id = $1 AND lease_token = $2 AND status = 'sending'`,
    [id, token],
  );
}

// ---- what the send-time checks read ---------------------------------------------------------

export interface Liveness {
  status: string;
  starts_at: string;
  /** Rebooking nudge: a later booking by the same person at the store. */
  booked_again: boolean | null;
}

/** What the send-time checks need about a batch's appointments and queue entries, in two statements. */
export async function livenessOf(
  db: Queryable,
  batch: readonly MessageRow[],
): Promise<{
  appointments: Map<string, Liveness>;
  entries: Map<string, string>;
  classBookings: Map<string, { status: string; starts_at: string; offer_expires_at: string | null }>;
}> {
  const appointmentIds = [...new Set(batch.filter((m) => m.appointment_id).map((m) => m.appointment_id!))];
  const nudged = [...new Set(batch.filter((m) => m.kind === 'rebook_nudge').map((m) => m.appointment_id!))];
  const entryIds = [...new Set(batch.filter((m) => m.queue_entry_id).map((m) => m.queue_entry_id!))];
  const [a, q] = await Promise.all([
    appointmentIds.length
      ? db.query<Liveness & { id: string; store_id: string }>(
          `SELECT a.id, a.store_id, a.status, a.starts_at,
                CASE WHEN a.id = ANY($2::uuid[]) THEN EXISTS (
                  SELECT 1 FROM appointments b
                   WHERE b.store_id = a.store_id AND b.id <> a.id AND b.starts_at > a.starts_at
                     AND bbo_live(b.status)
                     AND ((a.customer_id IS NOT NULL AND b.customer_id = a.customer_id)
                          OR (a.customer_id IS NULL AND lower(b.guest_email) = lower(a.guest_email)))) END AS booked_again
           FROM appointments a
          WHERE a.id = ANY($1::uuid[])`,
          [appointmentIds, nudged],
        )
      : Promise.resolve({ rows: [] as Array<Liveness & { id: string; store_id: string }> }),
    entryIds.length
      ? db.query<{ id: string; store_id: string; status: string }>(
          'SELECT id, store_id, status FROM queue_entries WHERE id = ANY($1::uuid[])',
          [entryIds],
        )
      : Promise.resolve({ rows: [] as Array<{ id: string; store_id: string; status: string }> }),
  ]);
  const classIds = [...new Set(batch.filter((m) => m.kind.startsWith('class_')).map((m) => m.subject_id))];
  const cb = classIds.length
    ? await db.query<{
        id: string;
        store_id: string;
        status: string;
        starts_at: string;
        offer_expires_at: string | null;
      }>(
        `SELECT b.id, b.store_id, b.status, o.starts_at, b.offer_expires_at
         FROM class_bookings b JOIN class_occurrences o ON o.id = b.occurrence_id WHERE b.id = ANY($1::uuid[])`,
        [classIds],
      )
    : {
        rows: [] as Array<{
          id: string;
          store_id: string;
          status: string;
          starts_at: string;
          offer_expires_at: string | null;
        }>,
      };
  // Keyed by store and id: a record of another store is not this message's.
  return {
    appointments: new Map(a.rows.map((r) => [`${r.store_id}:${r.id}`, r])),
    entries: new Map(q.rows.map((r) => [`${r.store_id}:${r.id}`, r.status])),
    classBookings: new Map(cb.rows.map((r) => [`${r.store_id}:${r.id}`, r])),
  };
}
