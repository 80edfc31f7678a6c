-- What was booked, kept on the appointment (issue 42, docs/decisions/pricing.md): the variant and
-- the add-ons the customer chose, copied from the hold when it is confirmed. A move from the manage
-- link that changes them prices the booking as a fresh booking would; a move that keeps them keeps
-- the snapshotted price. Existing appointments and the merchant's and walk-in's bookings name none:
-- the service as it is, which is what they booked. A record, not a reference: an archived variant
-- or add-on keeps its bookings (no foreign key).
ALTER TABLE appointments
  ADD COLUMN variant_id uuid,
  ADD COLUMN addon_ids  uuid[] NOT NULL DEFAULT '{}';
