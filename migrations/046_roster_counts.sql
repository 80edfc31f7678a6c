-- Erased customers are hidden from the roster and its counts. They are few, so the roster excludes
-- them with an anti-join on this small index instead of joining every row to customers just to count.
CREATE INDEX customers_erased ON customers (id) WHERE erased_at IS NOT NULL;
