// "Booked by" for the one-appointment read (issue 43): who made the appointment, from its
// appointment.created audit row (kept for good, unlike events, which retention prunes). The audit row
// names a merchant caller by id and name only; its kind is read back from the id: an API key's id, a
// staff member's, or else a bearer merchant token's subject. Never an email or a phone.
export interface BookedBy {
  type: 'staff' | 'api_key' | 'merchant_token' | 'customer' | 'admin';
  name: string | null;
}

/**
 * A scalar subquery for a SELECT over appointments a: the booked_by JSON object, or null when the
 * appointment has no appointment.created audit row (imported, or made before audit rows named actors).
 */
export const BOOKED_BY_SQL = `(
  SELECT json_build_object(
           'type', CASE
              WHEN l.actor_kind IN ('customer', 'guest') THEN 'customer'
              WHEN l.actor_kind = 'admin' THEN 'admin'
              WHEN EXISTS (SELECT 1 FROM api_keys k WHERE k.store_id = a.store_id AND k.id::text = l.actor_id) THEN 'api_key'
              WHEN EXISTS (SELECT 1 FROM staff_memberships m WHERE m.store_id = a.store_id AND m.staff_id::text = l.actor_id) THEN 'staff'
              ELSE 'merchant_token' END,
           'name', CASE WHEN l.actor_kind = 'merchant' THEN l.actor_name END)
    FROM audit_log l
   WHERE l.store_id = a.store_id AND l.entity = 'appointment' AND l.entity_id = a.id::text AND l.action = 'appointment.created'
   ORDER BY l.id
   LIMIT 1)`;
