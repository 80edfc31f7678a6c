// One planning pass (planner.ts): its transaction, the messages planned and not yet written (written
// together, in one statement, before anything reads them back), the appointments its events name
// (read at once), and how one plan becomes a message row: its address, rendering and key.
import type { Queryable } from '../../platform/db/port.ts';
import { ukMobileE164 } from '../../platform/uk-mobile.ts';
import { KIND_RULES } from './message-kinds.ts';
import { renderMessage } from './render.ts';
import { address, messageIdFor, type AppointmentContext, type Plan } from './message-plan.ts';
import * as repo from './messages.repository.ts';

/** Mints a booking page's manage link (src/booking-page/page-deps.ts manageLinks). */
export type ManageLink = (input: {
  appointmentId: string;
  storeId: string;
  slug: string;
  endsAt: string;
}) => Promise<string>;

export interface Pass {
  q: Queryable;
  pending: repo.NewMessage[];
  contexts: Map<string, AppointmentContext>;
  now: string;
  manageLink?: ManageLink;
  publicUrl?: string;
}

/** A guest's phone as typed: UK mobile spellings become E.164; anything else is kept and refused at send. */
export const guestPhone = (raw: string | null) => (raw ? (ukMobileE164(raw) ?? raw.trim()) : null);

/** The pass's handle, once what it planned so far is written (for statements that read messages). */
export async function written(pass: Pass): Promise<Queryable> {
  await flush(pass);
  return pass.q;
}

export async function flush(pass: Pass): Promise<void> {
  if (pass.pending.length === 0) return;
  await repo.insertMessages(pass.q, pass.pending, pass.now);
  pass.pending = [];
}

export interface PlannedMessage {
  storeId: string;
  customerId: string | null;
  subjectId: string;
  appointmentId: string | null;
  queueEntryId: string | null;
  contacts: { email: string | null; phone: string | null };
  plan: Plan;
  now: Date;
  domain: string;
}

/** Adds one planned message to the pass (written at the next flush). */
export function insertPlanned(pass: Pass, p: PlannedMessage): void {
  const { plan } = p;
  const { channel, to } = address(plan.kind, p.contacts);
  const rendered = renderMessage({ ...plan.render, kind: plan.kind, stampedAt: p.now.toISOString() });
  const key = `${plan.kind}:${p.subjectId}:${plan.version}:${channel}`;
  // No address is decided at send time, after the gate (an erased customer reads as erased).
  const suppress = plan.suppressReason;
  pass.pending.push({
    storeId: p.storeId,
    kind: plan.kind,
    subjectId: p.subjectId,
    version: plan.version,
    channel,
    category: KIND_RULES[plan.kind].category,
    customerId: p.customerId,
    toAddress: to ?? '',
    appointmentId: p.appointmentId,
    queueEntryId: p.queueEntryId,
    plannedStart: plan.plannedStart,
    subject: rendered.subject,
    bodyText: rendered.text,
    bodyHtml: rendered.html,
    ics: rendered.ics,
    icsSequence: rendered.ics ? (plan.render.sequence ?? 0) : null,
    messageId: messageIdFor(key, p.domain),
    dueAt: plan.dueAt.toISOString(),
    status: suppress ? 'suppressed' : 'pending',
    reason: suppress ?? null,
  });
}

/** An appointment's message, to the account's contacts, else the guest's. */
export function planAppointmentMessage(pass: Pass, a: AppointmentContext, plan: Plan, now: Date, domain: string): void {
  const contacts = a.customer_id
    ? { email: a.email, phone: a.phone }
    : { email: a.guest_email, phone: guestPhone(a.guest_phone) };
  insertPlanned(pass, {
    storeId: a.store_id,
    customerId: a.customer_id,
    subjectId: a.id,
    appointmentId: a.id,
    queueEntryId: null,
    contacts,
    plan,
    now,
    domain,
  });
}

/** A booking of a customer made online at a store with its page on gets the page's manage link (valid to its end). */
export async function manageLinkFor(pass: Pass, a: AppointmentContext, data: Record<string, any>) {
  return pass.manageLink && a.page_slug && a.customer_id && a.source === 'online'
    ? pass.manageLink({ appointmentId: a.id, storeId: a.store_id, slug: a.page_slug, endsAt: data.ends_at })
    : null;
}
