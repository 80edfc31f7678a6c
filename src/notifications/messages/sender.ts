// The sender: claims due messages, decides at send time whether each still applies and may be
// sent, hands it to its channel, and records the outcome.
//
// At most once at a time: a message is claimed (FOR UPDATE SKIP LOCKED, then a lease) before it is
// sent, so two senders never hold it together; it is recorded only by the sender holding the claim.
// At least once overall: a sender that dies after claiming leaves the lease to run out, and the
// message is claimed again. The one duplicate possible is a crash between the provider's accept and
// the record; the resend then carries the same Message-ID (derived from the message key), so the
// receiving side can tell it is the same message.
import { randomUUID } from 'node:crypto';
import type { Database } from '../../platform/db/port.ts';
import type { Clock } from '../../platform/clock.ts';
import { maySendMany, type SendDecision } from '../may-send.ts';
import { SendFailure, type Transport } from '../channels/transport.ts';
import { CLASS_KIND_STATUS, KIND_RULES, LIVE_APPOINTMENT, NOT_SENT, type MessageChannel } from './message-kinds.ts';
import * as repo from './sender.repository.ts';
import type { MessageRow, Outcome } from './sender.repository.ts';

export interface SenderLog {
  debug(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface SenderOptions {
  db: Database;
  clock: Clock;
  /** Configured channels; a message for a channel that is not configured goes to the mailbox. */
  transports: Partial<Record<MessageChannel, Transport>>;
  leaseMs: number;
  batch: number;
  concurrency: number;
  maxAttempts: number;
  retryBaseMs: number;
  log?: SenderLog;
}

export interface SendTally {
  claimed: number;
  sent: number;
  mailbox: number;
  suppressed: number;
  failed: number;
  retried: number;
}

/** Retry n (1-based) waits base * 2^(n-1), at most an hour. */
export function backoffMs(attempt: number, baseMs: number): number {
  return Math.min(baseMs * 2 ** Math.max(0, attempt - 1), 3_600_000);
}

interface BatchFacts {
  live: Awaited<ReturnType<typeof repo.livenessOf>>;
  gate: Map<string, SendDecision>;
}

/** Does the message still apply? A reason when it does not (re-checked here, not only at plan). */
function staleReason(facts: BatchFacts, m: MessageRow, now: Date): string | null {
  if (m.kind === 'queue_called')
    return facts.live.entries.get(`${m.store_id}:${m.queue_entry_id}`) === 'called' ? null : NOT_SENT.queueNotCalled;
  if (m.kind in CLASS_KIND_STATUS) return classStaleReason(facts, m, now);
  const live = facts.live.appointments.get(`${m.store_id}:${m.appointment_id}`);
  if (!live) return NOT_SENT.appointmentGone;
  if (m.kind === 'rebook_nudge') return live.booked_again ? NOT_SENT.rebooked : null;
  if (m.kind === 'cancellation') return Date.parse(live.starts_at) <= now.getTime() ? NOT_SENT.appointmentPast : null;
  if (KIND_RULES[m.kind].needsLiveFuture) {
    if (!LIVE_APPOINTMENT.has(live.status)) return NOT_SENT.appointmentGone;
    if (Date.parse(live.starts_at) <= now.getTime()) return NOT_SENT.appointmentPast;
    if (m.planned_start && Date.parse(m.planned_start) !== Date.parse(live.starts_at)) return NOT_SENT.superseded;
  }
  return null;
}

/** A class message still applies while its booking has the status it was about and the class is ahead. */
function classStaleReason(facts: BatchFacts, m: MessageRow, now: Date): string | null {
  const live = facts.live.classBookings.get(`${m.store_id}:${m.subject_id}`);
  if (!live) return NOT_SENT.appointmentGone;
  if (Date.parse(live.starts_at) <= now.getTime()) return NOT_SENT.appointmentPast;
  const wanted = CLASS_KIND_STATUS[m.kind];
  if (wanted && live.status !== wanted) return NOT_SENT.appointmentGone;
  if (m.kind === 'class_offer' && live.offer_expires_at && Date.parse(live.offer_expires_at) <= now.getTime())
    return NOT_SENT.appointmentGone;
  return null;
}

/** The send-time facts for a whole claimed batch: liveness and the gate, in three statements. */
async function loadFacts(o: SenderOptions, batch: readonly MessageRow[]): Promise<BatchFacts> {
  const [live, decisions] = await Promise.all([
    repo.livenessOf(o.db, batch),
    // The one gate: preferences, mute, the store's block and muted channels, erasure, consent.
    maySendMany(
      o.db,
      batch.map((m) => ({
        storeId: m.store_id,
        customerId: m.customer_id,
        category: KIND_RULES[m.kind].category,
        channel: m.channel,
        guestAddress: m.to_address,
      })),
    ),
  ]);
  return { live, gate: new Map(batch.map((m, i) => [m.id, decisions[i]])) };
}

async function decide(o: SenderOptions, facts: BatchFacts, m: MessageRow): Promise<Outcome> {
  const now = o.clock.now();
  const stale = staleReason(facts, m, now);
  if (stale) return { status: 'suppressed', reason: stale };
  const gate = facts.gate.get(m.id)!;
  if (!gate.allowed) return { status: 'suppressed', reason: gate.reason };
  if (!m.to_address) return { status: 'suppressed', reason: NOT_SENT.noAddress };
  const transport = o.transports[m.channel];
  if (!transport) return { status: 'mailbox' };
  try {
    const { providerId } = await transport.send({
      channel: m.channel,
      to: m.to_address,
      subject: m.subject,
      text: m.body_text,
      html: m.body_html,
      ics: m.ics,
      icsMethod: m.ics ? (m.kind === 'cancellation' ? 'CANCEL' : 'REQUEST') : null,
      messageId: m.message_id,
    });
    return { status: 'sent', providerId };
  } catch (err) {
    const failure = err instanceof SendFailure ? err : new SendFailure('internal_error', false);
    if (failure.permanent)
      return {
        status: 'failed',
        reason: failure.code === 'invalid_number' ? NOT_SENT.invalidNumber : NOT_SENT.refused,
        error: failure.code,
      };
    if (m.attempts >= o.maxAttempts) return { status: 'failed', reason: NOT_SENT.exhausted, error: failure.code };
    const dueAt = new Date(o.clock.now().getTime() + backoffMs(m.attempts, o.retryBaseMs)).toISOString();
    return { status: 'retry', dueAt, error: failure.code };
  }
}

/** One pass: claims a batch of due messages and settles each. */
export async function sendDue(o: SenderOptions): Promise<SendTally> {
  const tally: SendTally = { claimed: 0, sent: 0, mailbox: 0, suppressed: 0, failed: 0, retried: 0 };
  const now = o.clock.now();
  const token = randomUUID();
  const claimed = await repo.claimDue(
    o.db,
    now.toISOString(),
    new Date(now.getTime() + o.leaseMs).toISOString(),
    token,
    o.batch,
  );
  tally.claimed = claimed.length;
  // A message not started within half the lease is handed back: its send (bounded by the SMTP and
  // HTTP timeouts, well under half a lease) must finish while the claim is still this sender's.
  const startBy = now.getTime() + o.leaseMs / 2;
  if (claimed.length === 0) return tally;
  let facts: BatchFacts;
  try {
    facts = await loadFacts(o, claimed);
  } catch (err: any) {
    // The database went away: leave the claims to run out and be taken again.
    o.log?.warn({ err: { message: err?.message, code: err?.code } }, 'message checks failed; will retry');
    return tally;
  }
  let next = 0;
  const worker = async () => {
    while (next < claimed.length) {
      const m = claimed[next++];
      if (o.clock.now().getTime() > startBy) {
        await repo.releaseClaim(o.db, m.id, token).catch(() => {});
        continue;
      }
      let outcome: Outcome;
      try {
        outcome = await decide(o, facts, m);
      } catch (err: any) {
        // The database went away mid-check: leave the claim to run out and be taken again.
        o.log?.warn(
          { message: m.id, err: { message: err?.message, code: err?.code } },
          'message check failed; will retry',
        );
        continue;
      }
      // What reached no one outside (the mailbox, a suppression) is recorded with the batch's others, in one statement.
      if (outcome.status === 'mailbox' || outcome.status === 'suppressed') {
        quiet.push({ m, outcome, status: outcome.status });
        continue;
      }
      const recorded = await repo
        .recordOutcome(o.db, m.id, token, outcome, o.clock.now().toISOString())
        .catch((err) => {
          o.log?.warn(
            { message: m.id, err: { message: err?.message, code: err?.code } },
            'message outcome not recorded; the lease will run out',
          );
          return false;
        });
      if (recorded) settled(m, outcome);
    }
  };
  const quiet: { m: MessageRow; outcome: Outcome; status: 'mailbox' | 'suppressed' }[] = [];
  const settled = (m: MessageRow, outcome: Outcome) => {
    if (outcome.status === 'retry') tally.retried++;
    else tally[outcome.status]++;
    // Ids, kinds and codes only: never an address, a phone number or a body.
    const line = {
      message: m.id,
      kind: m.kind,
      channel: m.channel,
      status: outcome.status,
      attempt: m.attempts,
      ...('reason' in outcome ? { reason: outcome.reason } : {}),
      ...('error' in outcome && outcome.error ? { error: outcome.error } : {}),
    };
    if (outcome.status === 'failed' || outcome.status === 'retry') o.log?.warn(line, 'message not delivered');
    else o.log?.debug(line, 'message settled');
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(o.concurrency, claimed.length)) }, worker));
  if (quiet.length) {
    const items = quiet.map(({ m, outcome, status }) => ({
      id: m.id,
      status,
      reason: 'reason' in outcome ? outcome.reason : null,
    }));
    const recorded = await repo.recordQuietOutcomes(o.db, token, items, o.clock.now().toISOString()).catch((err) => {
      o.log?.warn(
        { messages: quiet.length, err: { message: err?.message, code: err?.code } },
        'message outcomes not recorded; the leases will run out',
      );
      return new Set<string>();
    });
    for (const { m, outcome } of quiet) if (recorded.has(m.id)) settled(m, outcome);
  }
  return tally;
}
