// A unit's appointments and the classes it teaches as an iCalendar feed (RFC 5545): times as the store zone's wall time with
// its TZID and VTIMEZONE, one VEVENT per appointment whose UID never changes, SEQUENCE raised by
// every move and the cancellation, STATUS:CANCELLED once cancelled. DTSTAMP is the appointment's own
// last change, so an unchanged diary gives the same bytes (and the same ETag).
import ical, { ICalEventStatus } from 'ical-generator';
import { DateTime } from 'luxon';
import { vtimezone } from '../../platform/vtimezone.ts';
import type { FeedAppointment, FeedClass, FeedOwner } from './calendar-feeds.repository.ts';

/** The feed's UID for an appointment: apart from the customer's own invitations' (notifications/messages/render.ts). */
export const feedUid = (appointmentId: string) => `${appointmentId}.unit@bookings-back-office`;

/** A class occurrence's UID: its own kind, so it never collides with an appointment's. */
export const feedClassUid = (occurrenceId: string) => `${occurrenceId}.class@bookings-back-office`;

const wall = (instant: string, zone: string) => DateTime.fromJSDate(new Date(instant), { zone });

export function feedIcs(owner: FeedOwner, appointments: FeedAppointment[], classes: FeedClass[] = []): string {
  const cal = ical({
    prodId: { company: 'bookings-back-office', product: 'unit-feed', language: 'EN' },
    name: `${owner.unit_name} at ${owner.store_name}`,
    // Calendars poll a subscribed feed; this asks for no more than every 15 minutes.
    ttl: 15 * 60,
  });
  cal.timezone({ name: owner.timezone, generator: vtimezone });
  for (const a of appointments) {
    const who = owner.contacts ? a.customer_name : null;
    const contact = owner.contacts ? [a.customer_name, a.phone, a.email].filter(Boolean).join('\n') : '';
    cal.createEvent({
      id: feedUid(a.id),
      sequence: a.sequence,
      start: wall(a.starts_at, owner.timezone),
      end: wall(a.ends_at, owner.timezone),
      timezone: owner.timezone,
      stamp: wall(a.updated_at, owner.timezone),
      summary: [a.service_name ?? 'Appointment', who].filter(Boolean).join(' – '),
      description: contact || null,
      location: owner.store_name,
      status: a.status === 'cancelled' ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    });
  }
  for (const o of classes) {
    cal.createEvent({
      id: feedClassUid(o.id),
      // An occurrence is never moved (a new one is scheduled instead): only its cancellation changes it.
      sequence: o.cancelled ? 1 : 0,
      start: wall(o.starts_at, owner.timezone),
      end: wall(o.ends_at, owner.timezone),
      timezone: owner.timezone,
      stamp: wall(o.changed_at, owner.timezone),
      summary: `${o.class_name} (class)`,
      description: `A class of up to ${o.capacity}`,
      location: owner.store_name,
      status: o.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    });
  }
  return cal.toString();
}
