-- Appointment search finds a store's guests by substring of their normalised name and email. The
-- trigram indexes of migration 015 covered every store's history, so a search had to intersect all
-- stores' matches with all of this store's appointments; both grow with history. These lead with
-- the store (btree_gin lets a GIN index mix equality with trigrams), so a search reads only this
-- store's matching rows. The expressions must stay identical to GUEST_NAME_KEY and GUEST_EMAIL_KEY
-- in appointment-search.repository.ts.
CREATE EXTENSION IF NOT EXISTS btree_gin;
CREATE INDEX appointments_guest_name_key_store_trgm ON appointments
  USING gin (store_id, (lower(btrim(regexp_replace(coalesce(guest_name, ''), '\s+', ' ', 'g')))) gin_trgm_ops)
  WHERE customer_id IS NULL;
CREATE INDEX appointments_guest_email_key_store_trgm ON appointments
  USING gin (store_id, (lower(btrim(coalesce(guest_email, '')))) gin_trgm_ops)
  WHERE customer_id IS NULL;
DROP INDEX appointments_guest_name_key_trgm;
DROP INDEX appointments_guest_email_key_trgm;
