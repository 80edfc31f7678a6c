// "Add to calendar" on the confirmation screen: an .ics file built in the page (a data: URL, no
// request) and a Google Calendar link. Neither carries the manage link's token: the Google link is
// read by Google, and a calendar file is often shared; the confirmation email carries the link.

export interface CalendarEvent {
  uid: string;
  title: string;
  startsAt: string;
  endsAt: string;
  location: string | null;
  details: string;
}

/** 20270316T090000Z */
const utc = (instant: string | number) =>
  new Date(instant)
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');

/** RFC 5545 TEXT: backslash, semicolon, comma and line breaks escaped. */
const icsText = (s: string) =>
  s.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** Lines of at most 75 characters, continued with a leading space (RFC 5545 3.1). */
function fold(line: string): string {
  const parts: string[] = [];
  for (let rest = line; rest.length; rest = rest.slice(parts.length === 1 ? 75 : 74))
    parts.push(rest.slice(0, parts.length === 0 ? 75 : 74));
  return parts.join('\r\n ');
}

export function icsFile(e: CalendarEvent, now = Date.now()): string {
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Bookings back office//Booking page//EN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${e.uid}`,
    `DTSTAMP:${utc(now)}`,
    `DTSTART:${utc(e.startsAt)}`,
    `DTEND:${utc(e.endsAt)}`,
    `SUMMARY:${icsText(e.title)}`,
    ...(e.location ? [`LOCATION:${icsText(e.location)}`] : []),
    `DESCRIPTION:${icsText(e.details)}`,
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ]
    .map(fold)
    .join('\r\n');
}

export const icsHref = (e: CalendarEvent) => `data:text/calendar;charset=utf-8,${encodeURIComponent(icsFile(e))}`;

export function googleCalendarUrl(e: CalendarEvent): string {
  const q = new URLSearchParams({
    action: 'TEMPLATE',
    text: e.title,
    dates: `${utc(e.startsAt)}/${utc(e.endsAt)}`,
    details: e.details,
  });
  if (e.location) q.set('location', e.location);
  return `https://calendar.google.com/calendar/render?${q}`;
}
