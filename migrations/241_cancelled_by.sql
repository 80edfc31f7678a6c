-- Reports (src/reports/) split cancellations by who cancelled. Until now only the event and the
-- audit row said so; the appointment keeps it from here on: 'customer', 'merchant' or
-- 'deposit_sweep' (the words of appointment.cancelled's cancelled_by). Earlier cancellations are
-- read back from their audit rows: a customer's own cancel has a customer actor, anything else was
-- the shop's (or its deposit sweep's, reported with the shop's).
ALTER TABLE appointments ADD COLUMN cancelled_by text CHECK (cancelled_by IN ('customer', 'merchant', 'deposit_sweep'));
UPDATE appointments a
   SET cancelled_by = CASE
         WHEN a.cancel_reason = 'deposit_not_paid' THEN 'deposit_sweep'
         WHEN EXISTS (SELECT 1 FROM audit_log l WHERE l.entity = 'appointment' AND l.entity_id = a.id::text
                         AND l.action = 'appointment.cancelled' AND l.actor_kind = 'customer') THEN 'customer'
         ELSE 'merchant' END
 WHERE a.status = 'cancelled';
