// A hold as its table holds it (block's edges as instants), the column list that reads it so, and
// what a hold event carries. Used by booking-authority.ts, where the writers live.

export interface HoldRow {
  id: string;
  store_id: string;
  unit_id: string;
  customer_id: string | null;
  service_id: string | null;
  variant_id: string | null;
  addon_ids: string[];
  party_size: number;
  starts_at: string;
  ends_at: string;
  block_starts_at: string;
  block_ends_at: string;
  expires_at: string | null;
  released_at: string | null;
  release_reason: string | null;
  appointment_id: string | null;
  unit_choice: string | null;
  created_at: string;
}

export const HOLD_COLUMNS = `id, store_id, unit_id, customer_id, service_id, variant_id, addon_ids::text[] AS addon_ids, party_size,
  starts_at, ends_at, lower(block) AS block_starts_at, upper(block) AS block_ends_at, expires_at, released_at, release_reason,
  appointment_id, unit_choice, created_at`;

/** What a hold event carries: the hold as it is after the change. */
export function holdEventData(h: HoldRow): Record<string, unknown> {
  return {
    id: h.id,
    unit_id: h.unit_id,
    customer_id: h.customer_id,
    service_id: h.service_id,
    starts_at: h.starts_at,
    ends_at: h.ends_at,
    expires_at: h.expires_at,
    released_at: h.released_at,
    release_reason: h.release_reason,
    appointment_id: h.appointment_id,
  };
}
