-- Status changes become HOT-eligible (round 14, docs/performance/history/round-14.md).
--
-- The deposit sweep found overdue bookings through appointments_pending_payment, an index whose
-- predicate reads status. PostgreSQL updates a row in place (HOT, no new index entries) only when
-- no column an index reads changes, so every check-in, completion, cancel and no-show wrote a new
-- entry into each index of appointments. The sweep now reads a table of its own, kept by the triggers
-- of db/functions/pending-deposits.sql: one row per booking waiting for its deposit. No index of
-- appointments reads status or payment_status (test/platform/hot-updates.test.ts), and the table
-- leaves room on each page for a row's later versions (fillfactor 85: pages written from now on; an
-- existing page gets it when it is rewritten).
-- The list holds keys only: what the sweep compares (created_at, the store's deposit_due_minutes) is
-- read from the booking and its store, and the list is as short as the bookings waiting.
CREATE TABLE pending_deposits (
  store_id       uuid NOT NULL,
  appointment_id uuid NOT NULL,
  PRIMARY KEY (store_id, appointment_id),
  FOREIGN KEY (store_id, appointment_id) REFERENCES appointments (store_id, id) ON DELETE CASCADE
);

INSERT INTO pending_deposits (store_id, appointment_id)
SELECT store_id, id FROM appointments WHERE status = 'pending_payment';

DROP INDEX appointments_pending_payment;
ALTER TABLE appointments SET (fillfactor = 85);
