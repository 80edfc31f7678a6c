// The planner: follows the event feed (src/events/) with its own cursor and turns the events that
// concern a customer into planned messages. One pass is one transaction: it locks the cursor row,
// reads the next events in feed order, plans their messages, and moves the cursor past them, so a
// crash keeps all of a pass or none of it. Planning the same event again (it cannot normally
// happen) lands on the same message keys and adds nothing.
//
// Planning decides what to say and to which address; whether it may be sent (the gate) and whether
// it still applies (the appointment still ahead and live) are decided again at send time.
import type { Database, Queryable } from '../../platform/db/port.ts';
import type { Clock } from '../../platform/clock.ts';
import { readFeed, type FeedRow } from '../../events/feed.repository.ts';
import { KIND_RULES, NOT_SENT } from './message-kinds.ts';
import { renderMessage } from './render.ts';
import {
  address,
  HOUR_MS,
  messageIdFor,
  reminderPlan,
  renderFields,
  type AppointmentContext,
  type Plan,
} from './message-plan.ts';
import * as repo from './messages.repository.ts';
import { ukMobileE164 } from '../../platform/uk-mobile.ts';
import { CLASS_PLANNED_TYPES, classMessagePlans } from './class-messages.ts';

export { messageIdFor };

/** A guest's phone as typed: UK mobile spellings become E.164; anything else is kept and refused at send. */
const guestPhone = (raw: string | null) => (raw ? (ukMobileE164(raw) ?? raw.trim()) : null);

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
  manageLink?: (input: { appointmentId: string; storeId: string; slug: string; endsAt: string }) => Promise<string>;
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
      contexts: await appointmentContexts(tx, events),
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

/**
 * One planning pass: its transaction, the messages planned and not yet written (written together, in
 * one statement, before anything reads them back), and the appointments its events name, read at once.
 */
interface Pass {
  q: Queryable;
  pending: repo.NewMessage[];
  contexts: Map<string, AppointmentContext>;
  now: string;
  manageLink?: PlannerOptions['manageLink'];
  publicUrl?: string;
}

/** The pass's handle, once what it planned so far is written (for statements that read messages). */
async function written(pass: Pass): Promise<Queryable> {
  await flush(pass);
  return pass.q;
}

async function flush(pass: Pass): Promise<void> {
  if (pass.pending.length === 0) return;
  await repo.insertMessages(pass.q, pass.pending, pass.now);
  pass.pending = [];
}

async function appointmentContexts(
  tx: Queryable,
  events: readonly FeedRow[],
): Promise<Map<string, AppointmentContext>> {
  const ids = [
    ...new Set(
      events
        .filter((e) => e.type.startsWith('appointment.'))
        .map((e) => (e.data as any).id as string)
        .filter(Boolean),
    ),
  ];
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
  // Keyed by store and id: an event names an appointment of its own store only.
  return new Map(res.rows.map((r) => [`${r.store_id}:${r.id}`, r]));
}

async function planAppointmentMessage(
  pass: Pass,
  a: AppointmentContext,
  plan: Plan,
  now: Date,
  domain: string,
): Promise<void> {
  // Who it is for: the account's contacts, else the guest's.
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

function insertPlanned(
  pass: Pass,
  p: {
    storeId: string;
    customerId: string | null;
    subjectId: string;
    appointmentId: string | null;
    queueEntryId: string | null;
    contacts: { email: string | null; phone: string | null };
    plan: Plan;
    now: Date;
    domain: string;
  },
): void {
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

/** A booking of a customer made online at a store with its page on gets the page's manage link (valid to its end). */
async function manageLinkFor(
  pass: Pass,
  a: { id: string; store_id: string; page_slug: string | null; customer_id: string | null; source: string },
  data: Record<string, any>,
) {
  return pass.manageLink && a.page_slug && a.customer_id && a.source === 'online'
    ? pass.manageLink({ appointmentId: a.id, storeId: a.store_id, slug: a.page_slug, endsAt: data.ends_at })
    : null;
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

  switch (event.type) {
    case 'appointment.created':
    case 'appointment.deposit_paid': {
      // Confirmed only once any payment is in; a pending booking is confirmed by deposit_paid.
      if (data.status !== 'confirmed') return;
      // A booking of a customer made online at a store with its page on: the page's manage link.
      const manageUrl = await manageLinkFor(pass, a, data);
      await planAppointmentMessage(
        pass,
        a,
        {
          kind: 'confirmation',
          version: ONCE,
          dueAt: now,
          plannedStart: data.starts_at,
          render: { ...renderFields(a, data), sequence: 0, manageUrl },
        },
        now,
        domain,
      );
      await planAppointmentMessage(pass, a, reminderPlan(a, data, event.id, now), now, domain);
      return;
    }
    case 'appointment.rescheduled': {
      await repo.withdrawReminders(await written(pass), a.id, NOT_SENT.rescheduled, nowIso);
      if (!(await repo.hasConfirmation(await written(pass), a.id))) return; // never confirmed to the customer
      const sequence = (await repo.changeCount(await written(pass), a.id)) + 1;
      await planAppointmentMessage(
        pass,
        a,
        {
          kind: 'change',
          version: event.id,
          dueAt: now,
          plannedStart: data.starts_at,
          render: {
            ...renderFields(a, data),
            sequence,
            previousStartsAt: data.previous?.starts_at ?? null,
            manageUrl: await manageLinkFor(pass, a, data),
          },
        },
        now,
        domain,
      );
      await planAppointmentMessage(pass, a, reminderPlan(a, data, event.id, now), now, domain);
      return;
    }
    case 'appointment.cancelled': {
      await repo.withdrawReminders(await written(pass), a.id, NOT_SENT.cancelled, nowIso);
      if (!(await repo.hasConfirmation(await written(pass), a.id))) return;
      const sequence = (await repo.changeCount(await written(pass), a.id)) + 1;
      await planAppointmentMessage(
        pass,
        a,
        {
          kind: 'cancellation',
          version: ONCE,
          dueAt: now,
          plannedStart: data.starts_at,
          render: { ...renderFields(a, data), sequence },
        },
        now,
        domain,
      );
      return;
    }
    case 'appointment.no_show':
      await repo.withdrawReminders(await written(pass), a.id, NOT_SENT.noShow, nowIso);
      return;
    case 'appointment.completed': {
      if (!a.rebook_interval_days) return;
      await planAppointmentMessage(
        pass,
        a,
        {
          kind: 'rebook_nudge',
          version: ONCE,
          dueAt: new Date(Date.parse(event.occurred_at) + a.rebook_interval_days * DAY_MS),
          plannedStart: data.starts_at,
          render: { ...renderFields(a, data), intervalDays: a.rebook_interval_days },
        },
        now,
        domain,
      );
      return;
    }
  }
}

async function planQueueCalled(pass: Pass, event: FeedRow, now: Date, domain: string): Promise<void> {
  const data = event.data as Record<string, any>;
  const res = await pass.q.query<{
    store_name: string;
    timezone: string;
    service_name: string | null;
    unit_name: string | null;
    email: string | null;
    phone: string | null;
    customer_id: string | null;
    guest_phone: string | null;
  }>(
    `SELECT s.name AS store_name, s.timezone, sv.name AS service_name, u.display_name AS unit_name,
            c.email, c.phone, q.customer_id, q.guest_phone
       FROM queue_entries q
       JOIN stores s ON s.id = q.store_id
       LEFT JOIN services sv ON sv.id = q.service_id
       LEFT JOIN units u ON u.id = q.preferred_unit_id
       LEFT JOIN customers c ON c.id = q.customer_id
      WHERE q.id = $1 AND q.store_id = $2`,
    [data.entry_id, event.store_id],
  );
  const q = res.rows[0];
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
