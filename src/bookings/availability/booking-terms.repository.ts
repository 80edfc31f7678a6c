// What an online question needs to know before the slot statement runs, in one read: the store and
// its online settings, the service with the variant and add-ons asked for, the unit asked for and
// the customer's standing (bbo_booking_terms, db/functions/booking-terms.sql, which the hold and confirm read too).
// Each is filtered on the store, so another store's record reads as missing.
// For the search it also answers what its kept answers need (availability.cache.ts): whether the
// store's diary changed since a snapshot and on which days, this read's own snapshot, and when the
// first live hold expires.
import type { Queryable } from '../../platform/db/port.ts';

export interface BookingTerms {
  store: {
    timezone: string;
    currency: string;
    hold_minutes: number;
    cancellation_window_min: number;
    min_notice_min: number;
    booking_horizon_days: number;
  } | null;
  service: {
    is_active: boolean;
    online_visible: boolean;
    party_min: number;
    party_max: number;
    price_type: string;
    deposit_policy: Record<string, unknown> | null;
    /** Told duration: the variant's (or the service's) plus the add-ons'. */
    duration_min: number;
    /** Per head for a per_person service (bbo_customer_confirm multiplies it by the party). */
    price_pence: number;
  } | null;
  variantFound: boolean;
  addonsFound: boolean;
  unitInStore: boolean;
  /** The one party rule's refusal (bbo_party_refusal) for the party asked; null when it fits or none was asked. */
  partyRefusal: string | null;
  customer: { erased: boolean; blocked: boolean } | null;
  diary: Diary;
}

export interface Diary {
  /** This read's snapshot (pg_snapshot text). */
  snapshot: string;
  /** Whether a transaction `since` did not see changed what a search reads; null without since. */
  changed: boolean | null;
  /**
   * When changed: the store-local dates the changes occupied, as [first, last] pairs (a block's
   * start date to its end's), or null when a change can move any day (the store's set-up).
   */
  changedDays: [string, string][] | null;
  /** When the store's first live hold expires (holds expiring after `now`), or null. */
  holdsExpireAt: string | null;
}

export async function bookingTerms(
  q: Queryable,
  a: {
    storeId: string;
    serviceId: string;
    variantId: string | null;
    addonIds: string[];
    unitId: string | null;
    customerId: string | null;
    partySize?: number;
  },
  diary: { since: string | null; now: string } | null = null,
): Promise<BookingTerms> {
  const res = await q.query<Record<string, any>>(
    `SELECT t.*, pg_current_snapshot()::text AS diary_snapshot, ch.changed AS diary_changed,
            CASE WHEN ch.changed AND NOT ch.everything THEN (
              SELECT COALESCE(json_agg(json_build_array((lower(r) AT TIME ZONE t.timezone)::date::text, (upper(r) AT TIME ZONE t.timezone)::date::text)), '[]')
                FROM unnest(ch.blocks) r)
            END AS diary_changed_days,
            (SELECT min(h.expires_at) FROM holds h WHERE h.store_id = $1 AND h.released_at IS NULL AND h.expires_at > $8::timestamptz) AS holds_expire_at,
            bbo_party_refusal($9::integer, t.party_min, t.party_max) AS party_refusal
       FROM bbo_booking_terms($1::uuid, $2::uuid, $3::uuid, $4::uuid[], $5::uuid, $6::uuid) t
       LEFT JOIN LATERAL (
         SELECT count(*) > 0 AS changed, bool_or(c.blocks IS NULL) AS everything, range_agg(c.blocks) AS blocks
           FROM availability_changes c
          WHERE c.store_id = $1 AND c.txid >= pg_snapshot_xmin($7::pg_snapshot) AND NOT pg_visible_in_snapshot(c.txid, $7::pg_snapshot)
       ) ch ON $7::text IS NOT NULL`,
    [
      a.storeId,
      a.serviceId,
      a.variantId,
      a.addonIds,
      a.unitId,
      a.customerId,
      diary?.since ?? null,
      diary?.now ?? null,
      a.partySize ?? null,
    ],
  );
  const r = res.rows[0];
  return {
    store: r.store_found
      ? {
          timezone: r.timezone,
          currency: r.currency,
          hold_minutes: r.hold_minutes,
          cancellation_window_min: r.cancellation_window_min,
          min_notice_min: r.min_notice_min,
          booking_horizon_days: r.booking_horizon_days,
        }
      : null,
    service: r.service_found
      ? {
          is_active: r.is_active,
          online_visible: r.online_visible,
          party_min: r.party_min,
          party_max: r.party_max,
          price_type: r.price_type,
          deposit_policy: r.deposit_policy,
          duration_min: r.duration_min,
          price_pence: r.price_pence,
        }
      : null,
    variantFound: r.variant_found,
    addonsFound: r.addons_found,
    unitInStore: r.unit_in_store,
    partyRefusal: r.party_refusal,
    customer: r.customer_found ? { erased: r.customer_erased, blocked: r.customer_blocked } : null,
    diary: {
      snapshot: r.diary_snapshot,
      changed: r.diary_changed,
      changedDays: r.diary_changed_days ?? null,
      holdsExpireAt: r.holds_expire_at,
    },
  };
}
