-- The appointment search's index of booked relationships (migration 290) takes its entries at once,
-- not through GIN's pending list (issue 46, round 18). With fastupdate on, a burst of first bookings
-- (each one turns booked_here true, a new entry) queued in the pending list until the next vacuum;
-- the planner adds the list's pages to the index's cost, and after the bench's 10,000-create burst it
-- priced this index above the full store_customers_search_tokens (124 against 104 for "evans"), so
-- the search read every match's heap page, booked or not (1,499 buffers against 256 with this index;
-- "olivia" 4,614 against 732), until a VACUUM emptied the list. The index changes only on a
-- relationship's first booking, its last delete and a booked customer's rename: writing its entries
-- directly costs those writes little, and every search is spared scanning the list.
ALTER INDEX store_customers_booked_search_tokens SET (fastupdate = off);
SELECT gin_clean_pending_list('store_customers_booked_search_tokens'::regclass);
