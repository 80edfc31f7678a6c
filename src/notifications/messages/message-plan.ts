// What the planner (planner.ts) decides for one message, as plain functions of an appointment and
// its event: the appointment as its messages name it, the plan (kind, version, when, what to render),
// the recipient's address, and the Message-ID.
import { createHash } from 'node:crypto';
import { KIND_RULES, NOT_SENT, type MessageChannel, type MessageKind } from './message-kinds.ts';
import type { RenderInput } from './render.ts';

export const HOUR_MS = 3_600_000;

/** An appointment with everything its messages name, as it is now (names, contacts, settings). */
export interface AppointmentContext {
  id: string;
  store_id: string;
  customer_id: string | null;
  guest_email: string | null;
  guest_phone: string | null;
  source: string;
  store_name: string;
  timezone: string;
  reminder_lead_hours: number;
  service_name: string | null;
  rebook_interval_days: number | null;
  unit_name: string | null;
  email: string | null;
  phone: string | null;
  /** The store's booking page slug while the page is on (null otherwise). */
  page_slug: string | null;
}

export interface Plan {
  kind: MessageKind;
  version: string;
  dueAt: Date;
  render: Omit<RenderInput, 'kind' | 'stampedAt'>;
  plannedStart: string | null;
  suppressReason?: string;
}

/** The recipient's address on the first of the kind's channels they have one for. */
export function address(
  kind: MessageKind,
  contacts: { email: string | null; phone: string | null },
): { channel: MessageChannel; to: string | null } {
  const channels = KIND_RULES[kind].channels;
  for (const channel of channels) {
    const to = channel === 'email' ? contacts.email : contacts.phone;
    if (to) return { channel, to };
  }
  return { channel: channels[0], to: null };
}

/** Message-ID from the message key: a resend after a crash carries the same one. */
export function messageIdFor(key: string, domain: string): string {
  return `<${createHash('sha256').update(key).digest('hex').slice(0, 40)}@${domain}>`;
}

export function reminderPlan(a: AppointmentContext, data: Record<string, any>, version: string, now: Date): Plan {
  const dueAt = new Date(Date.parse(data.starts_at) - a.reminder_lead_hours * HOUR_MS);
  return {
    kind: 'reminder',
    version,
    dueAt,
    plannedStart: data.starts_at,
    render: renderFields(a, data),
    // Booked after the reminder's time: the confirmation just sent serves as the reminder.
    suppressReason: dueAt.getTime() <= now.getTime() ? NOT_SENT.insideLead : undefined,
  };
}

export function renderFields(a: AppointmentContext, data: Record<string, any>): Plan['render'] {
  return {
    storeName: a.store_name,
    timezone: a.timezone,
    serviceName: a.service_name,
    unitName: a.unit_name,
    appointmentId: a.id,
    startsAt: data.starts_at,
    endsAt: data.ends_at,
  };
}
