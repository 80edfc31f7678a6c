-- One constraint decides who occupies a unit's time: unit_occupancy_no_overlap (migration 080). Every
-- live, non-override appointment has its row there (the trigger of db/functions/occupancy.sql), so
-- appointments_no_overlap refused nothing that constraint does not, and cost a second GiST entry on
-- every booking and move. See docs/performance/history/round-14.md.
ALTER TABLE appointments DROP CONSTRAINT appointments_no_overlap;
