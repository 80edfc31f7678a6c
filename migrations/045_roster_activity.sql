-- Roster, attendance and journey read paths for stores with 100,000 customers.

-- The visit day before the latest one: a customer whose previous visit was long before the latest
-- is "returning" (docs/decisions/customers.md, lifecycle stages). Maintained with the other roster aggregates.
ALTER TABLE store_customers ADD COLUMN previous_visit_at timestamptz;

-- sort=recent walks this index in order: newest visit first, never-visited last, id as tie-break.
CREATE INDEX store_customers_last_visit ON store_customers (store_id, last_visit_at DESC NULLS LAST, customer_id)
  WHERE NOT archived;

-- sort=name: with a store holding most of its customers this is walked in order and each row
-- probed on store_customers' primary key.
CREATE INDEX customers_name_order ON customers (lower(name), id);

-- Attendance pages in its own order (scheduled day and time, newest first) without sorting.
CREATE INDEX class_bookings_attendance ON class_bookings
  (store_id, customer_id, scheduled_date DESC NULLS LAST, start_time DESC NULLS LAST, created_at DESC, id DESC);
