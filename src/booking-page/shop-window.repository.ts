// SQL of the shop's window: its details (migration 205) and the week's opening hours, read as the
// span from the earliest opening to the latest close of each weekday among the units bookable online
// whose hours are set (the hours customers can book in; a unit without hours is offered nothing).
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { Queryable } from '../platform/db/port.ts';
import type { ShopWindow } from './shop-window.schemas.ts';

const HHMM = (col: string) => `CASE WHEN ${col} = '24:00'::time THEN '24:00' ELSE to_char(${col}, 'HH24:MI') END`;

export async function shopWindow(q: Queryable, storeId: string): Promise<ShopWindow> {
  const res = await q.query<Omit<ShopWindow, 'map_url' | 'phone_display'>>(
    `SELECT s.address, s.phone, s.website, s.about,
            COALESCE((SELECT json_agg(json_build_object('weekday', d.weekday, 'open', ${HHMM('d.opens')}, 'close', ${HHMM('d.closes')})
                               ORDER BY (d.weekday + 6) % 7)  -- Monday first
                        FROM (SELECT h.weekday, min(h.opens) AS opens, max(h.closes) AS closes
                                FROM unit_hours h
                                JOIN units u ON u.store_id = h.store_id AND u.id = h.unit_id
                               WHERE h.store_id = s.id AND u.is_active AND u.bookable AND u.online_bookable AND u.hours_set_at IS NOT NULL
                               GROUP BY h.weekday) d), '[]') AS opening_hours
       FROM stores s WHERE s.id = $1`,
    [storeId],
  );
  const row = res.rows[0];
  return {
    ...row,
    phone_display: row.phone ? (parsePhoneNumberFromString(row.phone)?.formatNational() ?? row.phone) : null,
    map_url: row.address ? osmSearch(row.address) : null,
  };
}

/** An OpenStreetMap search for the address: a plain link, no map script on the page. */
export const osmSearch = (address: string) =>
  `https://www.openstreetmap.org/search?query=${encodeURIComponent(address.replace(/\s*\n\s*/g, ', '))}`;
