// The VTIMEZONE block of a time zone for an iCalendar file (timezones-ical-library), computed once
// a zone: the customer's invitations (notifications/messages/render.ts) and a unit's calendar feed
// (bookings/calendar-feeds/feed-ics.ts) both name the store's zone this way.
import { tzlib_get_ical_block } from 'timezones-ical-library';

const vtimezones = new Map<string, string>();

/** For ical-generator's `timezone({ name, generator })`. */
export function vtimezone(zone: string): string {
  let block = vtimezones.get(zone);
  if (block === undefined) {
    block = tzlib_get_ical_block(zone)[0];
    vtimezones.set(zone, block);
  }
  return block;
}
