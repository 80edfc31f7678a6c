-- Fewer indexes to maintain on every booking (issue 18: a create close to the database's own write
-- limit). Migration 004 gave appointments two all-stores trigram GIN indexes on lower(guest_name) and
-- lower(guest_email); appointment search has used the per-store guest-key indexes of migration 051
-- since, so no query reads the name index, and the only reader of the email one is erasure's
-- exact match lower(guest_email) = $2 (admin.repository.ts). A guest booking wrote about 25 trigram
-- entries into each. The exact match gets a btree: one entry per row, only where there is an email.
CREATE INDEX appointments_guest_email_lower ON appointments (lower(guest_email)) WHERE guest_email IS NOT NULL;
DROP INDEX appointments_guest_name_trgm;
DROP INDEX appointments_guest_email_trgm;
