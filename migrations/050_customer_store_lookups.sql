-- "Which stores has this customer interacted with?" (the notification preference list) starts from
-- the customer, but the activity tables are indexed store first. These let each branch of that
-- union be an index probe instead of a scan of every store's rows.
CREATE INDEX class_bookings_by_customer ON class_bookings (customer_id, store_id);
CREATE INDEX stamps_by_customer ON stamps (customer_id, store_id);
CREATE INDEX orders_by_customer ON orders (customer_id, store_id);
CREATE INDEX appointments_by_customer ON appointments (customer_id, store_id) WHERE customer_id IS NOT NULL;
