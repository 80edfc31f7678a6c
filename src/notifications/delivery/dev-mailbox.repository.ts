// SQL of the development mailbox (table dev_mailbox, migration 200) and the console's view of it:
// the sign-in codes and staff invitations kept there until they expire, beside the customer messages held for want of a
// channel (messages with status 'mailbox'), newest first.
import type { Queryable } from '../../platform/db/port.ts';

export interface KeptCode {
  /** A booking page's sign-in code (the default), or a staff invitation's link. */
  kind?: 'sign_in_code' | 'staff_invitation';
  storeId: string;
  channel: 'email' | 'sms';
  to: string;
  subject: string;
  text: string;
  expiresAt: string;
  createdAt: string;
}

export interface MailboxRow {
  id: string;
  source: 'sign_in_code' | 'staff_invitation' | 'message';
  kind: string;
  channel: string;
  to: string;
  subject: string;
  text: string;
  created_at: string;
  expires_at: string | null;
}

export async function keepCode(q: Queryable, c: KeptCode): Promise<void> {
  await q.query(
    `INSERT INTO dev_mailbox (kind, store_id, channel, to_address, subject, body_text, expires_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [c.kind ?? 'sign_in_code', c.storeId, c.channel, c.to, c.subject, c.text, c.expiresAt, c.createdAt],
  );
}

/** A staff invitation replaced by a newer one to the same address: its dead link goes with it. */
export async function dropReplacedInvitations(q: Queryable, storeId: string, to: string): Promise<void> {
  await q.query("DELETE FROM dev_mailbox WHERE kind = 'staff_invitation' AND store_id = $1 AND to_address = $2", [
    storeId,
    to,
  ]);
}

/** A code is kept only as long as it works: rows past their expiry are deleted. */
export async function dropExpiredCodes(q: Queryable, now: string): Promise<void> {
  await q.query('DELETE FROM dev_mailbox WHERE expires_at <= $1', [now]);
}

/** The store's mailbox, newest first: live codes (never an expired one) and held messages. */
export async function listMailbox(q: Queryable, storeId: string, now: string, limit: number): Promise<MailboxRow[]> {
  const res = await q.query<MailboxRow>(
    `SELECT * FROM (
       SELECT id, kind AS source, kind, channel, to_address AS "to", subject, body_text AS text,
              created_at, expires_at
         FROM dev_mailbox WHERE store_id = $1 AND expires_at > $2
       UNION ALL
       SELECT id, 'message' AS source, kind, channel, to_address AS "to", subject, body_text AS text, created_at, NULL::timestamptz AS expires_at
         FROM messages WHERE store_id = $1 AND status = 'mailbox'
     ) m
     ORDER BY created_at DESC, id DESC
     LIMIT $3`,
    [storeId, now, limit],
  );
  return res.rows;
}
