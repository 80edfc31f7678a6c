-- The shop's own details for its booking page (issue 41, docs/decisions/booking-page-window.md):
-- where it is, how to call it, its website and a short text about it. Each is optional, bounded
-- here as in the settings schema (the schema refuses first with a clear message; these CHECKs keep
-- any other writer honest). The phone is a UK number kept as E.164; the website is https only.
ALTER TABLE stores
  ADD COLUMN address text CHECK (length(address) BETWEEN 1 AND 300),
  ADD COLUMN phone   text CHECK (phone ~ '^\+44[1-9][0-9]{8,10}$'),
  ADD COLUMN website text CHECK (length(website) <= 300 AND website ~ '^https://'),
  ADD COLUMN about   text CHECK (length(about) BETWEEN 1 AND 600);
