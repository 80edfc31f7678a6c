// SQL reads of the booking page's classes door: the page's store, the week's classes as the page shows
// them, and a customer's own class booking (theirs by customer_id, or a guest booking made with the
// email they signed in with).
import type { Queryable } from '../platform/db/port.ts';
import { PAGE_WEEK_DAYS, type PageClassBooking, type PageOccurrence } from './class-page.schemas.ts';

/** The store whose page is on at this slug (an unknown or disabled one: null, answered as the page's 404). */
export async function pageStore(q: Queryable, slug: string): Promise<{ id: string; timezone: string } | null> {
  const res = await q.query<{ id: string; timezone: string }>(
    'SELECT id, timezone FROM stores WHERE booking_page_slug = $1 AND booking_page_enabled',
    [slug],
  );
  return res.rows[0] ?? null;
}

/**
 * The live occurrences of live (not archived) classes starting on the store-local days from..from+6
 * and still ahead of `at`, in start order, each with its seats left (bbo_class_occurrence_json's
 * counts) and whether a newcomer books, joins the waitlist, or cannot (inside the promotion cutoff,
 * where bbo_class_book refuses CLASS_FULL).
 */
export async function weekClasses(
  q: Queryable,
  store: { id: string; timezone: string },
  from: string | null,
  at: Date,
): Promise<{ from: string; to: string; occurrences: PageOccurrence[] }> {
  const res = await q.query<{ from: string; to: string; occurrences: PageOccurrence[] }>(
    `WITH d AS (SELECT coalesce($2::date, ($3::timestamptz AT TIME ZONE $4)::date) AS first)
     SELECT to_char(d.first, 'YYYY-MM-DD') AS "from", to_char(d.first + ${PAGE_WEEK_DAYS - 1}, 'YYYY-MM-DD') AS "to",
            (SELECT coalesce(jsonb_agg(x.j || jsonb_build_object('instructor_name', x.instructor_name, 'price_pence', x.price_pence,
                      'joinable', CASE WHEN (x.j->>'seats_left')::int > 0 THEN 'book'
                                       WHEN $3::timestamptz < x.cutoff THEN 'waitlist' ELSE 'full' END)
                      ORDER BY x.starts_at, x.name, x.id), '[]')
               FROM (SELECT o.id, o.starts_at, c.name, c.price_pence, u.display_name AS instructor_name,
                            o.starts_at - make_interval(mins => c.promotion_cutoff_minutes) AS cutoff,
                            bbo_class_occurrence_json(o.*, c.*) AS j
                       FROM class_occurrences o
                       JOIN classes c ON c.id = o.class_id AND NOT c.archived
                       LEFT JOIN units u ON u.store_id = o.store_id AND u.id = coalesce(o.instructor_unit_id, o.unit_id, c.instructor_unit_id)
                      WHERE o.store_id = $1 AND o.cancelled_at IS NULL AND o.starts_at > $3::timestamptz
                        AND o.starts_at >= d.first::timestamp AT TIME ZONE $4
                        AND o.starts_at < (d.first + ${PAGE_WEEK_DAYS})::timestamp AT TIME ZONE $4) x) AS occurrences
       FROM d`,
    [store.id, from, at.toISOString(), store.timezone],
  );
  return res.rows[0];
}

/** The signed-in customer's email (null for a customer known by phone only). */
export async function customerEmail(q: Queryable, customerId: string): Promise<string | null> {
  const res = await q.query<{ email: string | null }>(
    'SELECT email FROM customers WHERE id = $1 AND erased_at IS NULL',
    [customerId],
  );
  return res.rows[0]?.email ?? null;
}

/**
 * A class booking of this customer: theirs by customer_id, or a guest booking the desk made with the
 * email they proved (the offer email went to it). storeId limits it to one store (the page's); null:
 * any store (the accept door, which a customer token calls without one).
 */
export async function ownBooking(
  q: Queryable,
  bookingId: string,
  customerId: string,
  email: string | null,
  storeId: string | null,
): Promise<{ storeId: string; customerId: string | null; booking: PageClassBooking } | null> {
  const res = await q.query<{ store_id: string; customer_id: string | null; b: PageClassBooking }>(
    `SELECT b.store_id, b.customer_id,
            bbo_class_booking_json(b.*, o.*) || jsonb_build_object('class_name', c.name) AS b
       FROM class_bookings b
       JOIN class_occurrences o ON o.id = b.occurrence_id
       JOIN classes c ON c.id = o.class_id
      WHERE b.id = $1 AND ($4::uuid IS NULL OR b.store_id = $4)
        AND (b.customer_id = $2 OR (b.customer_id IS NULL AND $3::text IS NOT NULL AND lower(b.guest_email) = lower($3)))`,
    [bookingId, customerId, email, storeId],
  );
  const row = res.rows[0];
  return row ? { storeId: row.store_id, customerId: row.customer_id, booking: row.b } : null;
}
