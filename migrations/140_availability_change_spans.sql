-- What each change touched, so a search drops only the days it moved (issue 28, "availability
-- under writes"; docs/decisions/availability.md, "Availability cache").
--
-- blocks: the instants the transaction's changes to appointments, holds and time-off occupied
-- before or after the change, as one multirange; NULL means "anything in the store" (working hours,
-- units, services, settings: what moves every day at once). Rows written before this column
-- existed read as NULL, the safe answer. The triggers that fill it are in
-- db/functions/availability-changes.sql.
ALTER TABLE availability_changes ADD COLUMN blocks tstzmultirange;

-- One trigger function now serves every table, the stores row included
-- (db/functions/availability-changes.sql restates the stores trigger on it).
DROP FUNCTION IF EXISTS availability_store_changed() CASCADE;
