// What a message says: a subject, a plain text part, a simple HTML part and, for the booking
// notices, an iCalendar attachment in the store's zone. Every message names the shop, the service,
// the unit and the local time. Built only from the fields below, so the merchant's private note
// and a block reason can never reach a customer.
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { DateTime } from 'luxon';
import { vtimezone } from '../../platform/vtimezone.ts';
import type { MessageKind } from './message-kinds.ts';

export interface RenderInput {
  kind: MessageKind;
  storeName: string;
  timezone: string;
  serviceName: string | null;
  unitName: string | null;
  appointmentId: string | null;
  startsAt: string | null;
  endsAt: string | null;
  /** The start before a reschedule (change notices). */
  previousStartsAt?: string | null;
  /** iCalendar SEQUENCE: 0 when booked, one more for each change and for the cancellation. */
  sequence?: number;
  /** When the .ics was written (DTSTAMP). */
  stampedAt: string;
  /** "You're next": how long the shop holds the place. */
  holdMinutes?: number | null;
  /** Rebooking nudge: how long since the visit. */
  intervalDays?: number | null;
  /** Booking notices of a booking made on the shop's page: its manage link (token in the fragment). */
  manageUrl?: string | null;
  /** Class messages: the booking's place in the waitlist, and until when an offered seat waits. */
  waitlistPosition?: number | null;
  offerExpiresAt?: string | null;
  /** A class offer: the shop's booking page, which accepts it after the email code. */
  offerUrl?: string | null;
}

export interface Rendered {
  subject: string;
  text: string;
  html: string;
  ics: string | null;
}

// Intl formatters are costly to build (milliseconds) and few: one per zone (VTIMEZONE blocks: platform/vtimezone.ts).
const formatters = new Map<string, { day: Intl.DateTimeFormat; time: Intl.DateTimeFormat }>();

function formattersFor(timezone: string) {
  let f = formatters.get(timezone);
  if (!f) {
    f = {
      day: new Intl.DateTimeFormat('en-GB', {
        timeZone: timezone,
        weekday: 'long',
        day: 'numeric',
        month: 'long',
        year: 'numeric',
      }),
      time: new Intl.DateTimeFormat('en-GB', {
        timeZone: timezone,
        hour: '2-digit',
        minute: '2-digit',
        timeZoneName: 'short',
      }),
    };
    formatters.set(timezone, f);
  }
  return f;
}

const wallFormatters = new Map<string, Intl.DateTimeFormat>();

/**
 * The instant as the store zone's wall time, for ical-generator: it writes a native Date with a
 * TZID using the Date's local getters, so the Date is built in this process's zone to read as the
 * store's wall time. Where that wall time does not exist in this process's zone (its own DST gap),
 * Luxon in the store's zone does it instead (slower, always right).
 */
function wallTime(instant: string, timezone: string): Date | null {
  let f = wallFormatters.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-GB', {
      timeZone: timezone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    wallFormatters.set(timezone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(instant)).map((x) => [x.type, Number(x.value)]));
  const local = new Date(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  const same =
    local.getFullYear() === p.year &&
    local.getMonth() === p.month - 1 &&
    local.getDate() === p.day &&
    local.getHours() === p.hour &&
    local.getMinutes() === p.minute;
  return same ? local : null;
}

/** Start, end and stamp as wall times, all of one kind (ical-generator compares start and end). */
function wallTimes(instants: string[], timezone: string): Array<Date | DateTime> {
  const fast = instants.map((i) => wallTime(i, timezone));
  if (fast.every((d) => d !== null)) return fast as Date[];
  return instants.map((i) => DateTime.fromISO(i, { zone: timezone }));
}

/** "Thursday 25 June 2026 at 10:30 BST", in the store's zone. */
export function localTime(instant: string, timezone: string): string {
  const d = new Date(instant);
  const f = formattersFor(timezone);
  const parts = Object.fromEntries(f.day.formatToParts(d).map((p) => [p.type, p.value]));
  return `${parts.weekday} ${parts.day} ${parts.month} ${parts.year} at ${f.time.format(d)}`;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The calendar entry's UID: one per appointment, so every later notice updates the same entry. */
export const icsUid = (appointmentId: string) => `${appointmentId}@bookings-back-office`;

function calendar(input: RenderInput, method: ICalCalendarMethod): string {
  const cal = ical({ prodId: { company: 'bookings-back-office', product: 'appointments', language: 'EN' }, method });
  // A TZID reference needs its VTIMEZONE definition for calendars that do not know the zone.
  cal.timezone({ name: input.timezone, generator: vtimezone });
  const summary = [input.serviceName ?? 'Appointment', input.storeName].join(' at ');
  const [start, end, stamp] = wallTimes([input.startsAt!, input.endsAt!, input.stampedAt], input.timezone);
  cal.createEvent({
    id: icsUid(input.appointmentId!),
    sequence: input.sequence ?? 0,
    // DTSTART/DTEND are written as the store zone's wall time with its TZID.
    start,
    end,
    timezone: input.timezone,
    stamp,
    summary,
    location: input.unitName ? `${input.storeName} (${input.unitName})` : input.storeName,
    description: input.unitName ? `With ${input.unitName}` : null,
    status: method === ICalCalendarMethod.CANCEL ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
  });
  return cal.toString();
}

export function renderMessage(input: RenderInput): Rendered {
  const shop = input.storeName;
  const what = input.serviceName ?? 'your appointment';
  const when = input.startsAt ? localTime(input.startsAt, input.timezone) : null;
  const withWhom = input.unitName ? ` with ${input.unitName}` : '';
  let subject: string;
  let lines: string[];
  let ics: string | null = null;
  switch (input.kind) {
    case 'confirmation':
      subject = `Booking confirmed: ${what} at ${shop}`;
      lines = [`Your booking at ${shop} is confirmed.`, `${cap(what)}${withWhom}, ${when}.`];
      if (input.manageUrl) lines.push(`To see, move or cancel it: ${input.manageUrl}`);
      ics = calendar(input, ICalCalendarMethod.REQUEST);
      break;
    case 'change':
      subject = `Booking changed: ${what} at ${shop}`;
      lines = [
        `Your booking at ${shop} has moved.`,
        `${cap(what)}${withWhom}, now ${when}.`,
        ...(input.previousStartsAt ? [`It was ${localTime(input.previousStartsAt, input.timezone)}.`] : []),
      ];
      if (input.manageUrl) lines.push(`To see, move or cancel it: ${input.manageUrl}`);
      ics = calendar(input, ICalCalendarMethod.REQUEST);
      break;
    case 'cancellation':
      subject = `Booking cancelled: ${what} at ${shop}`;
      lines = [`Your booking at ${shop} has been cancelled.`, `${cap(what)}${withWhom}, ${when}.`];
      ics = calendar(input, ICalCalendarMethod.CANCEL);
      break;
    case 'reminder':
    case 'class_reminder':
      subject = `Reminder: ${what} at ${shop}, ${when}`;
      lines = [
        `A reminder of your ${input.kind === 'reminder' ? 'booking' : 'class'} at ${shop}.`,
        `${cap(what)}${withWhom}, ${when}.`,
      ];
      break;
    case 'queue_called':
      subject = `You're next at ${shop}`;
      lines = [
        `You're next at ${shop}${input.serviceName ? ` for ${input.serviceName}` : ''}${withWhom}.`,
        input.holdMinutes
          ? `Please come to the front within ${input.holdMinutes} minutes; we'll hold your place until then.`
          : 'Please come to the front now.',
      ];
      break;
    case 'class_confirmation':
    case 'class_promoted':
      subject = `${input.kind === 'class_promoted' ? 'Off the waitlist' : 'Class booked'}: ${what} at ${shop}`;
      lines = [
        input.kind === 'class_promoted'
          ? `A seat came free: you're booked into ${what} at ${shop}.`
          : `Your place in ${what} at ${shop} is booked.`,
        `${cap(what)}${withWhom}, ${when}.`,
      ];
      break;
    case 'class_waitlisted':
      subject = `On the waitlist: ${what} at ${shop}`;
      lines = [
        `${cap(what)}${withWhom}, ${when}, is full: you're on the waitlist${input.waitlistPosition ? ` (place ${input.waitlistPosition} in the order people joined)` : ''}.`,
        `We'll tell you if a seat comes free.`,
      ];
      break;
    case 'class_offer':
      subject = `A seat is free: ${what} at ${shop}`;
      lines = [
        `A seat came free in ${what}${withWhom}, ${when}, and it's yours if you want it.`,
        input.offerExpiresAt
          ? `It is held for you until ${localTime(input.offerExpiresAt, input.timezone)}; after that it goes to the next person in line.`
          : `It is held for you for a short while.`,
        input.offerUrl
          ? `To take it, sign in with your email on ${shop}'s page: ${input.offerUrl}`
          : `Contact ${shop} to take it.`,
      ];
      break;
    case 'class_cancelled':
      subject = `Class booking cancelled: ${what} at ${shop}`;
      lines = [`Your booking for ${what}${withWhom}, ${when}, at ${shop} has been cancelled.`];
      break;
    case 'rebook_nudge':
      subject = `Time for your next ${what} at ${shop}?`;
      lines = [
        `It has been ${input.intervalDays ?? 'a few'} days since your ${what}${withWhom} at ${shop} on ${when}.`,
        `Book your next one whenever suits you.`,
      ];
      break;
  }
  const text = `${lines.join('\n')}\n\n${shop}\n`;
  const html = `<!doctype html><html><body><p>${lines.map((l) => linked(linked(escapeHtml(l), input.manageUrl), input.offerUrl)).join('</p><p>')}</p><p><strong>${escapeHtml(shop)}</strong></p></body></html>`;
  return { subject, text, html, ics };
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The manage link as a link in the HTML part (the text part carries it as it is). */
function linked(html: string, url: string | null | undefined): string {
  if (!url) return html;
  const escaped = escapeHtml(url);
  return html.replace(escaped, `<a href="${escaped}">${escaped}</a>`);
}
