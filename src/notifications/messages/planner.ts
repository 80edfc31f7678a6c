// The planner: follows the event feed (src/events/) with its own cursor and turns the events that
// concern a customer into planned messages. One pass is one transaction: it locks the cursor row,
// reads the next events in feed order, plans their messages, and moves the cursor past them, so a
// crash keeps all of a pass or none of it. Planning the same event again (it cannot normally
// happen) lands on the same message keys and adds nothing.
//
// Planning decides what to say and to which address; whether it may be sent (the gate) and whether
// it still applies (the appointment still ahead and live) are decided again at send time.
import type { Database } from '../../platform/db/port.ts';
import type { Clock } from '../../platform/clock.ts';
import { readFeed, type FeedRow } from '../../events/feed.repository.ts';
import { NOT_SENT } from './message-kinds.ts';
import { HOUR_MS, messageIdFor, reminderPlan, renderFields, type Plan } from './message-plan.ts';
import * as repo from './messages.repository.ts';
import { CLASS_PLANNED_TYPES, classMessagePlans } from './class-messages.ts';
import {
  flush,
  guestPhone,
  insertPlanned,
  manageLinkFor,
  planAppointmentMessage,
  written,
  type ManageLink,
  type Pass,
} from './planner-pass.ts';

export { messageIdFor };

/** The event types the planner acts on; the feed is read filtered to these. */
export const PLANNED_TYPES = [
  'appointment.created',
  'appointment.deposit_paid',
  'appointment.rescheduled',
  'appointment.cancelled',
  'appointment.no_show',
  'appointment.completed',
  'queue.called',
  ...CLASS_PLANNED_TYPES,
] as const;

const DAY_MS = 24 * HOUR_MS;
/** Once-only kinds (one confirmation, one cancellation per appointment) share this version. */
const ONCE = 'v1';

export interface PlannerOptions {
  /** The domain of Message-IDs (MAIL_FROM's). */
  mailDomain: string;
  batch?: number;
  /** Called between events (one event-loop turn inside `npm start`: rendering is CPU, requests go first). */
  breathe?: () => Promise<void>;
  /** Mints a booking page's manage link (src/booking-page/page-deps.ts manageLinks); absent: no link. */
  manageLink?: ManageLink;
  /** The service's public origin (PUBLIC_URL): a class offer links to the shop's page there; absent: no link. */
  publicUrl?: string;
}

/** One pass over the next events; returns how many events it read (0: nothing new, or busy). */
export async function planOnce(db: Database, clock: Clock, options: PlannerOptions): Promise<number> {
  return db.transaction(async (tx) => {
    const at = await repo.lockCursor(tx);
    if (!at) return 0; // another process is planning
    const events = await readFeed(tx, { storeId: null, after: at, limit: options.batch ?? 200, types: PLANNED_TYPES });
    if (events.length === 0) return 0;
    const now = clock.now();
    const pass: Pass = {
      q: tx,
      pending: [],
      contexts: await repo.appointmentContexts(tx, appointmentIds(events)),
      now: now.toISOString(),
      manageLink: options.manageLink,
      publicUrl: options.publicUrl,
    };
    for (const event of events) {
      await planEvent(pass, event, now, options.mailDomain);
      await options.breathe?.();
    }
    await flush(pass);
    const last = events[events.length - 1];
    await repo.advanceCursor(tx, { txid: last.txid, seq: last.seq }, now.toISOString());
    return events.length;
  });
}

async function planEvent(pass: Pass, event: FeedRow, now: Date, domain: string): Promise<void> {
  const data = event.data as Record<string, any>;
  const nowIso = now.toISOString();
  if (event.type === 'queue.called') return planQueueCalled(pass, event, now, domain);
  if (event.type.startsWith('class.booking.')) {
    for (const m of await classMessagePlans(pass.q, event, now, pass.publicUrl ?? null))
      insertPlanned(pass, { ...m, appointmentId: null, queueEntryId: null, now, domain });
    return;
  }

  const a = pass.contexts.get(`${event.store_id}:${data.id}`);
  // A seated walk-in is happening now: nothing to confirm or remind. An imported appointment was
  // confirmed by the system it came from: an import sends no messages (src/imports/).
  if (!a || a.source === 'walk_in' || (a.source === 'import' && event.type === 'appointment.created')) return;

  /** An appointment's message of this kind, naming the appointment as the event left it. */
  const plan = (kind: Plan['kind'], version: string, dueAt: Date, render: Partial<Plan['render']>) =>
    planAppointmentMessage(
      pass,
      a,
      { kind, version, dueAt, plannedStart: data.starts_at, render: { ...renderFields(a, data), ...render } },
      now,
      domain,
    );

  switch (event.type) {
    case 'appointment.created':
    case 'appointment.deposit_paid':
      // Confirmed only once any payment is in; a pending booking is confirmed by deposit_paid.
      if (data.status !== 'confirmed') return;
      plan('confirmation', ONCE, now, { sequence: 0, manageUrl: await manageLinkFor(pass, a, data) });
      planAppointmentMessage(pass, a, reminderPlan(a, data, event.id, now), now, domain);
      return;
    case 'appointment.rescheduled': {
      const sequence = await withdrawForChange(pass, a.id, NOT_SENT.rescheduled, nowIso);
      if (sequence === null) return;
      const previousStartsAt = data.previous?.starts_at ?? null;
      plan('change', event.id, now, { sequence, previousStartsAt, manageUrl: await manageLinkFor(pass, a, data) });
      planAppointmentMessage(pass, a, reminderPlan(a, data, event.id, now), now, domain);
      return;
    }
    case 'appointment.cancelled': {
      const sequence = await withdrawForChange(pass, a.id, NOT_SENT.cancelled, nowIso);
      if (sequence !== null) plan('cancellation', ONCE, now, { sequence });
      return;
    }
    case 'appointment.no_show':
      await repo.withdrawReminders(await written(pass), a.id, NOT_SENT.noShow, nowIso);
      return;
    case 'appointment.completed':
      if (!a.rebook_interval_days) return;
      plan('rebook_nudge', ONCE, new Date(Date.parse(event.occurred_at) + a.rebook_interval_days * DAY_MS), {
        intervalDays: a.rebook_interval_days,
      });
      return;
  }
}

/**
 * A rescheduled or cancelled appointment: withdraws its reminders not yet sent, and returns the
 * .ics SEQUENCE of the notice to send, or null when it was never confirmed to the customer.
 */
async function withdrawForChange(pass: Pass, appointmentId: string, reason: string, nowIso: string) {
  const q = await written(pass);
  await repo.withdrawReminders(q, appointmentId, reason, nowIso);
  if (!(await repo.hasConfirmation(q, appointmentId))) return null;
  return (await repo.changeCount(q, appointmentId)) + 1;
}

/** The appointments the events name, each once. */
function appointmentIds(events: readonly FeedRow[]): string[] {
  const ids = events
    .filter((e) => e.type.startsWith('appointment.'))
    .map((e) => (e.data as any).id as string)
    .filter(Boolean);
  return [...new Set(ids)];
}

async function planQueueCalled(pass: Pass, event: FeedRow, now: Date, domain: string): Promise<void> {
  const data = event.data as Record<string, any>;
  const q = await repo.queueCalledContext(pass.q, event.store_id, data.entry_id);
  if (!q) return;
  insertPlanned(pass, {
    storeId: event.store_id,
    customerId: q.customer_id,
    subjectId: data.entry_id,
    appointmentId: null,
    queueEntryId: data.entry_id,
    contacts: q.customer_id ? { email: q.email, phone: q.phone } : { email: null, phone: guestPhone(q.guest_phone) },
    plan: {
      kind: 'queue_called',
      version: ONCE,
      dueAt: now,
      plannedStart: null,
      render: {
        storeName: q.store_name,
        timezone: q.timezone,
        serviceName: q.service_name,
        unitName: q.unit_name,
        appointmentId: null,
        startsAt: null,
        endsAt: null,
        holdMinutes: data.hold_minutes ?? null,
      },
    },
    now,
    domain,
  });
}
