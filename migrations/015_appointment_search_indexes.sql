-- Appointment search matches guests on their normalised name and email (the parts of the person
-- key 'g:<name>|<email>'); these trigram indexes serve those substring matches. The expressions
-- must stay identical to GUEST_NAME_KEY and GUEST_EMAIL_KEY in appointment-search.repository.ts.
CREATE INDEX appointments_guest_name_key_trgm ON appointments
  USING gin ((lower(btrim(regexp_replace(coalesce(guest_name, ''), '\s+', ' ', 'g')))) gin_trgm_ops)
  WHERE customer_id IS NULL;
CREATE INDEX appointments_guest_email_key_trgm ON appointments
  USING gin ((lower(btrim(coalesce(guest_email, '')))) gin_trgm_ops)
  WHERE customer_id IS NULL;
