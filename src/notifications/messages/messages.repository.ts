// SQL of planning messages (planner.ts): the planner's cursor, what it reads about the subjects of
// its events, and the planned rows. The message key (kind, subject, version, channel) is unique:
// planning the same message twice, by a restart or a second process, lands on the same row. The
// sender's SQL is in sender.repository.ts.
import type { Queryable } from '../../platform/db/port.ts';
import type { FeedPosition } from '../../events/feed-cursor.ts';
import type { MessageChannel, MessageKind } from './message-kinds.ts';
import type { AppointmentContext } from './message-plan.ts';

export interface NewMessage {
  storeId: string;
  kind: MessageKind;
  subjectId: string;
  version: string;
  channel: MessageChannel;
  category: string;
  customerId: string | null;
  toAddress: string;
  appointmentId: string | null;
  queueEntryId: string | null;
  plannedStart: string | null;
  subject: string;
  bodyText: string;
  bodyHtml: string;
  ics: string | null;
  icsSequence: number | null;
  messageId: string;
  dueAt: string;
  /** Planned already decided: suppressed with a reason (for instance no address). */
  status?: 'pending' | 'suppressed';
  reason?: string | null;
}

// ---- the planner's cursor -------------------------------------------------------------------

/** Locks the planner's cursor row; null when another planner holds it (it is at work already). */
export async function lockCursor(tx: Queryable): Promise<FeedPosition | null> {
  const res = await tx.query<FeedPosition>(
    `SELECT txid::text AS txid, seq::text AS seq FROM message_planner_cursor WHERE name = 'messages' FOR UPDATE SKIP LOCKED`,
  );
  return res.rows[0] ?? null;
}

export async function advanceCursor(tx: Queryable, to: FeedPosition, now: string): Promise<void> {
  await tx.query(
    `UPDATE message_planner_cursor SET txid = $1::xid8, seq = $2::bigint, updated_at = $3 WHERE name = 'messages'`,
    [to.txid, to.seq, now],
  );
}

// ---- what planning reads about its events' subjects -----------------------------------------

/** The appointments these ids name, keyed by store and id (an event names an appointment of its own store only). */
export async function appointmentContexts(
  tx: Queryable,
  ids: readonly string[],
): Promise<Map<string, AppointmentContext>> {
  if (ids.length === 0) return new Map();
  const res = await tx.query<AppointmentContext>(
    `SELECT a.id, a.store_id, a.customer_id, a.guest_email, a.guest_phone, a.source,
            s.name AS store_name, s.timezone, s.reminder_lead_hours,
            sv.name AS service_name, sv.rebook_interval_days, u.display_name AS unit_name, c.email, c.phone,
            CASE WHEN s.booking_page_enabled THEN s.booking_page_slug END AS page_slug
       FROM appointments a
       JOIN stores s ON s.id = a.store_id
       LEFT JOIN services sv ON sv.id = a.service_id
       LEFT JOIN units u ON u.id = a.unit_id
       LEFT JOIN customers c ON c.id = a.customer_id
      WHERE a.id = ANY($1::uuid[])`,
    [ids],
  );
  return new Map(res.rows.map((r) => [`${r.store_id}:${r.id}`, r]));
}

export interface QueueCalledContext {
  store_name: string;
  timezone: string;
  service_name: string | null;
  unit_name: string | null;
  email: string | null;
  phone: string | null;
  customer_id: string | null;
  guest_phone: string | null;
}

/** What a called queue entry's message names, or null when the store has no such entry. */
export async function queueCalledContext(
  q: Queryable,
  storeId: string,
  entryId: string,
): Promise<QueueCalledContext | null> {
  const res = await q.query<QueueCalledContext>(
    `SELECT s.name AS store_name, s.timezone, sv.name AS service_name, u.display_name AS unit_name,
            c.email, c.phone, q.customer_id, q.guest_phone
       FROM queue_entries q
       JOIN stores s ON s.id = q.store_id
       LEFT JOIN services sv ON sv.id = q.service_id
       LEFT JOIN units u ON u.id = q.preferred_unit_id
       LEFT JOIN customers c ON c.id = q.customer_id
      WHERE q.id = $1 AND q.store_id = $2`,
    [entryId, storeId],
  );
  return res.rows[0] ?? null;
}

// ---- planning -------------------------------------------------------------------------------

/** Plans a message; a message with this key already planned is left as it is. */
export async function insertMessage(tx: Queryable, m: NewMessage, now: string): Promise<boolean> {
  return (await insertMessages(tx, [m], now)) > 0;
}

/** Plans many messages in one statement, in order; a key already planned is left as it is. Returns how many were new. */
export async function insertMessages(tx: Queryable, ms: readonly NewMessage[], now: string): Promise<number> {
  const rows = ms.map((m) => ({
    store_id: m.storeId,
    kind: m.kind,
    subject_id: m.subjectId,
    version: m.version,
    channel: m.channel,
    category: m.category,
    customer_id: m.customerId,
    to_address: m.toAddress,
    appointment_id: m.appointmentId,
    queue_entry_id: m.queueEntryId,
    planned_start: m.plannedStart,
    subject: m.subject,
    body_text: m.bodyText,
    body_html: m.bodyHtml,
    ics: m.ics,
    ics_sequence: m.icsSequence,
    message_id: m.messageId,
    status: m.status ?? 'pending',
    reason: m.reason ?? null,
    due_at: m.dueAt,
  }));
  const res = await tx.query(
    `INSERT INTO messages (store_id, kind, subject_id, version, channel, category, customer_id, to_address, appointment_id,
                           queue_entry_id, planned_start, subject, body_text, body_html, ics, ics_sequence, message_id,
                           status, reason, due_at, created_at, updated_at)
     SELECT store_id, kind, subject_id, version, channel, category, customer_id, to_address, appointment_id,
            queue_entry_id, planned_start, subject, body_text, body_html, ics, ics_sequence, message_id,
            status, reason, due_at, $2, $2
       FROM jsonb_to_recordset($1::jsonb) AS m (store_id uuid, kind text, subject_id uuid, version text, channel text,
            category text, customer_id uuid, to_address text, appointment_id uuid, queue_entry_id uuid, planned_start timestamptz,
            subject text, body_text text, body_html text, ics text, ics_sequence int, message_id text, status text, reason text,
            due_at timestamptz)
     ON CONFLICT ON CONSTRAINT messages_key DO NOTHING`,
    [JSON.stringify(rows), now],
  );
  return res.rowCount;
}

/** Withdraws an appointment's reminders not yet sent (a send in flight finishes and is re-checked). */
export async function withdrawReminders(
  tx: Queryable,
  appointmentId: string,
  reason: string,
  now: string,
): Promise<number> {
  const res = await tx.query(
    `UPDATE messages SET status = 'withdrawn', reason = $2, updated_at = $3
      WHERE appointment_id = $1 AND kind = 'reminder' AND status = 'pending'`,
    [appointmentId, reason, now],
  );
  return res.rowCount;
}

/** How many change notices this appointment has had: the next .ics SEQUENCE builds on it. */
export async function changeCount(tx: Queryable, appointmentId: string): Promise<number> {
  const res = await tx.query<{ n: number }>(
    `SELECT count(DISTINCT version)::int AS n FROM messages WHERE appointment_id = $1 AND kind = 'change'`,
    [appointmentId],
  );
  return res.rows[0].n;
}

export async function hasConfirmation(tx: Queryable, appointmentId: string): Promise<boolean> {
  const res = await tx.query(`SELECT 1 FROM messages WHERE appointment_id = $1 AND kind = 'confirmation' LIMIT 1`, [
    appointmentId,
  ]);
  return res.rowCount > 0;
}
