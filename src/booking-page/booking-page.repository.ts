// SQL of the booking page's reads: the store behind an enabled slug, and what the page shows.
import type { Queryable } from '../platform/db/port.ts';
import { APPOINTMENT_COLUMNS, type AppointmentRow } from '../bookings/booking-authority.ts';
import type { BookingPageResponse } from './booking-page.schemas.ts';

export interface PageStoreRow {
  id: string;
  name: string;
  slug: string;
  timezone: string;
  currency: string;
  hold_minutes: number;
  cancellation_window_min: number;
  cors_origins: string[];
}

/** The store whose page answers at this slug; null when unknown or switched off (the same to a caller). */
export async function storeBySlug(q: Queryable, slug: string): Promise<PageStoreRow | null> {
  const res = await q.query<PageStoreRow>(
    `SELECT id, name, booking_page_slug AS slug, timezone, currency, hold_minutes, cancellation_window_min, cors_origins
       FROM stores WHERE booking_page_slug = $1 AND booking_page_enabled`,
    [slug],
  );
  return res.rows[0] ?? null;
}

type Page = BookingPageResponse['page'];

/** Services shown online (active, online_visible) with their active variants and add-ons; units bookable online. */
export async function pageContents(q: Queryable, storeId: string): Promise<Pick<Page, 'services' | 'staff'>> {
  const res = await q.query<{ services: Page['services']; staff: Page['staff'] }>(
    `SELECT
       (SELECT coalesce(json_agg(json_build_object(
           'id', s.id, 'name', s.name, 'description', s.description, 'category', s.category, 'duration_min', s.duration_min,
           'price_pence', s.price_pence, 'price_type', s.price_type, 'party_min', s.party_min, 'party_max', s.party_max,
           'deposit', CASE WHEN bbo_deposit_of(s.deposit_policy, 10000) > 0 THEN s.deposit_policy END,
           'variants', (SELECT coalesce(json_agg(json_build_object('id', v.id, 'name', v.name, 'duration_min', v.duration_min, 'price_pence', v.price_pence)
                          ORDER BY v.sort, v.name), '[]') FROM service_variants v WHERE v.store_id = s.store_id AND v.service_id = s.id AND v.is_active),
           'addons', (SELECT coalesce(json_agg(json_build_object('id', a.id, 'name', a.name, 'extra_min', a.extra_min, 'extra_pence', a.extra_pence)
                          ORDER BY a.sort, a.name), '[]') FROM service_addons a WHERE a.store_id = s.store_id AND a.service_id = s.id AND a.is_active))
           ORDER BY s.sort, s.name), '[]')
          FROM services s WHERE s.store_id = $1 AND s.is_active AND s.online_visible) AS services,
       (SELECT coalesce(json_agg(json_build_object('unit_id', u.id, 'name', u.display_name) ORDER BY u.sort, u.display_name, u.id), '[]')
          FROM units u WHERE u.store_id = $1 AND u.is_active AND u.bookable AND u.online_bookable) AS staff`,
    [storeId],
  );
  return res.rows[0];
}

export type ManagedRow = AppointmentRow & {
  service_name: string | null;
  unit_name: string | null;
  variant_id: string | null;
  addon_ids: string[];
};

/** The appointment a manage link names, in its store, with its service's and unit's names; null when none. */
export async function managedAppointment(
  q: Queryable,
  storeId: string,
  appointmentId: string,
): Promise<ManagedRow | null> {
  const res = await q.query<ManagedRow>(
    `SELECT x.*, (SELECT sv.name FROM services sv WHERE sv.id = x.service_id) AS service_name,
            (SELECT u.display_name FROM units u WHERE u.id = x.unit_id) AS unit_name
       FROM (SELECT ${APPOINTMENT_COLUMNS}, variant_id, addon_ids::text[] AS addon_ids FROM appointments WHERE store_id = $1 AND id = $2) x`,
    [storeId, appointmentId],
  );
  return res.rows[0] ?? null;
}

/** The appointment as it is now (after a cancel), or null. */
export async function appointmentIn(
  q: Queryable,
  storeId: string,
  appointmentId: string,
): Promise<AppointmentRow | null> {
  const res = await q.query<AppointmentRow>(
    `SELECT ${APPOINTMENT_COLUMNS} FROM appointments WHERE store_id = $1 AND id = $2`,
    [storeId, appointmentId],
  );
  return res.rows[0] ?? null;
}
