// The journey feed: every recorded touchpoint of one customer at one store, merged newest first.
import type { Queryable } from '../../platform/db/port.ts';
import type { JourneyCursor } from './journey-cursor.ts';
import type { JourneyEvent } from './journey.schemas.ts';

export type JourneyRow = JourneyEvent & { cursor_key: string };

// Columns every branch yields, in this order.
const COLUMNS = `id, type, channel, ts, title, subtitle, status, detail, campaign_name, opened, clicked,
  returning_visit_at, return_days, amount_pence, refunded_pence, promo_discount_pence, applied_promo_code,
  currency, auto_sent, result_kind, result_at, result_value_pence`;

// One branch per source; each names its `id` and `ts` columns, the rest are positional.
// $1 store, $2 customer, $3/$4 cursor instant and id, $5 rows wanted.
// Each branch is cut at the cursor and limited before the merge, so a page reads at most
// limit+1 rows per source however long the history is.
const branch = (select: string, from: string) => `(
  SELECT * FROM (SELECT ${select} FROM ${from}) s
   WHERE (ts, id) < ($3::timestamptz, $4::uuid)
   ORDER BY ts DESC, id DESC LIMIT $5)`;

const SOURCES = [
  // A class booking sits at its latest fact: attended, marked no-show, cancelled, else booked.
  branch(
    `id, 'class_booking' AS type, 'gym' AS channel,
     coalesce(attended_at, no_show_marked_at, cancelled_at, created_at) AS ts,
     class_name AS title, coalesce(nullif(occurrence_instructor_name, ''), class_instructor_name) AS subtitle,
     status, class_category AS detail, NULL AS campaign_name, NULL::boolean AS opened, NULL::boolean AS clicked,
     NULL::timestamptz AS returning_visit_at, NULL::int AS return_days, NULL::int AS amount_pence, NULL::int AS refunded_pence,
     NULL::int AS promo_discount_pence, NULL AS applied_promo_code, NULL AS currency, NULL::boolean AS auto_sent,
     NULL AS result_kind, NULL::timestamptz AS result_at, NULL::int AS result_value_pence`,
    'class_bookings WHERE store_id = $1 AND customer_id = $2',
  ),
  branch(
    `id, 'stamp', 'in_store', created_at AS ts, title,
     count || CASE WHEN count = 1 THEN ' stamp' ELSE ' stamps' END, NULL, NULL, NULL, NULL::boolean, NULL::boolean,
     NULL::timestamptz, NULL::int, NULL::int, NULL::int, NULL::int, NULL, NULL, NULL::boolean, NULL, NULL::timestamptz, NULL::int`,
    'stamps WHERE store_id = $1 AND customer_id = $2',
  ),
  branch(
    `id, 'order', 'in_store', created_at AS ts, title, NULL, status, NULL, NULL, NULL::boolean, NULL::boolean,
     NULL::timestamptz, NULL::int, amount_pence, refunded_pence, promo_discount_pence, applied_promo_code, currency,
     NULL::boolean, NULL, NULL::timestamptz, NULL::int`,
    'orders WHERE store_id = $1 AND customer_id = $2',
  ),
  branch(
    `id, type, channel, occurred_at AS ts, title, subtitle, status, detail, campaign_name, opened, clicked,
     returning_visit_at, return_days, amount_pence, refunded_pence, promo_discount_pence, applied_promo_code,
     currency, auto_sent, result_kind, result_at, result_value_pence`,
    'journey_events WHERE store_id = $1 AND customer_id = $2',
  ),
  // Messages the service sent the customer (src/notifications/): an email as an 'email' event, a
  // text as a 'message' event on channel 'sms'. Only sent ones: suppressed, withdrawn, failed and
  // mailbox-held messages never reached the customer.
  branch(
    `id, CASE WHEN channel = 'email' THEN 'email' ELSE 'message' END, channel, sent_at AS ts, subject, kind, status, NULL, NULL,
     NULL::boolean, NULL::boolean, NULL::timestamptz, NULL::int, NULL::int, NULL::int, NULL::int, NULL, NULL,
     true, NULL, NULL::timestamptz, NULL::int`,
    `messages WHERE store_id = $1 AND customer_id = $2 AND status = 'sent'`,
  ),
  // The relationship itself: when the store first saw the customer (id: the customer's own id)...
  branch(
    `customer_id AS id, 'joined', NULL, first_seen_at AS ts, NULL, NULL, CASE WHEN is_member THEN 'member' END, NULL, NULL,
     NULL::boolean, NULL::boolean, NULL::timestamptz, NULL::int, NULL::int, NULL::int, NULL::int, NULL, NULL,
     NULL::boolean, NULL, NULL::timestamptz, NULL::int`,
    'store_customers WHERE store_id = $1 AND customer_id = $2',
  ),
  // ...and, when membership came later than that, when they became a member (a stable derived id).
  branch(
    `md5('membership:' || store_id || ':' || customer_id)::uuid AS id, 'membership', NULL, member_since AS ts, NULL, NULL, 'member',
     NULL, NULL, NULL::boolean, NULL::boolean, NULL::timestamptz, NULL::int, NULL::int, NULL::int, NULL::int, NULL, NULL,
     NULL::boolean, NULL, NULL::timestamptz, NULL::int`,
    'store_customers WHERE store_id = $1 AND customer_id = $2 AND is_member AND member_since > first_seen_at',
  ),
];

export async function journeyPage(
  db: Queryable,
  storeId: string,
  customerId: string,
  cursor: JourneyCursor,
  limit: number,
): Promise<JourneyRow[]> {
  const res = await db.query<JourneyRow>(
    `SELECT id, type, channel, ts AS timestamp,
            to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor_key,
            title, subtitle, status, detail, campaign_name AS "campaignName", opened, clicked,
            returning_visit_at AS "returningVisitAt", return_days AS "returnDays", amount_pence AS "amountPence",
            refunded_pence AS "refundedPence", promo_discount_pence AS "promoDiscountPence",
            applied_promo_code AS "appliedPromoCode", currency, auto_sent AS "autoSent", result_kind AS "resultKind",
            result_at AS "resultAt", result_value_pence AS "resultValuePence"
       FROM (${SOURCES.join('\n UNION ALL ')}) feed (${COLUMNS})
      ORDER BY ts DESC, id DESC
      LIMIT $5`,
    [storeId, customerId, cursor.at, cursor.id, limit + 1],
  );
  return res.rows;
}

export async function hasStoreAgreements(db: Queryable, storeId: string, customerId: string): Promise<boolean> {
  const res = await db.query('SELECT 1 FROM customer_agreements WHERE store_id = $1 AND customer_id = $2 LIMIT 1', [
    storeId,
    customerId,
  ]);
  return res.rowCount > 0;
}
