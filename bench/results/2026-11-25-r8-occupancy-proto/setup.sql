CREATE EXTENSION IF NOT EXISTS btree_gist;
DROP TABLE IF EXISTS occ, occ2, appts, appts2, units CASCADE;
DROP SEQUENCE IF EXISTS tseq;
CREATE SEQUENCE tseq;
CREATE TABLE units (id uuid PRIMARY KEY, store_id uuid NOT NULL, name text);
INSERT INTO units SELECT md5('u' || g)::uuid, md5('s' || (g % 50))::uuid, 'Unit ' || g FROM generate_series(0, 499) g;
-- Today: the appointment under its own exclusion constraint, a trigger copying it into the occupancy
-- table under a second one (with its unique key and foreign key), the unit row locked first.
CREATE TABLE appts (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), store_id uuid NOT NULL, unit_id uuid NOT NULL,
  during tstzrange NOT NULL, status text NOT NULL DEFAULT 'confirmed', guest_name text, UNIQUE (store_id, id),
  EXCLUDE USING gist (store_id WITH =, unit_id WITH =, during WITH &&) WHERE (status IN ('confirmed', 'checked_in')));
CREATE TABLE occ (store_id uuid NOT NULL, unit_id uuid NOT NULL, block tstzrange NOT NULL, appointment_id uuid UNIQUE,
  FOREIGN KEY (store_id, appointment_id) REFERENCES appts (store_id, id) ON DELETE CASCADE,
  EXCLUDE USING gist (store_id WITH =, unit_id WITH =, block WITH &&));
CREATE FUNCTION occ_copy() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN INSERT INTO occ (store_id, unit_id, block, appointment_id) VALUES (NEW.store_id, NEW.unit_id, NEW.during, NEW.id); RETURN NEW; END $$;
CREATE TRIGGER appts_occ AFTER INSERT ON appts FOR EACH ROW EXECUTE FUNCTION occ_copy();
-- The lever: the appointment row without a constraint of its own, one occupancy row under the one constraint, no lock.
CREATE TABLE appts2 (id uuid PRIMARY KEY DEFAULT gen_random_uuid(), store_id uuid NOT NULL, unit_id uuid NOT NULL,
  during tstzrange NOT NULL, status text NOT NULL DEFAULT 'confirmed', guest_name text, UNIQUE (store_id, id));
CREATE TABLE occ2 (store_id uuid NOT NULL, unit_id uuid NOT NULL, block tstzrange NOT NULL, appointment_id uuid UNIQUE,
  FOREIGN KEY (store_id, appointment_id) REFERENCES appts2 (store_id, id) ON DELETE CASCADE,
  EXCLUDE USING gist (store_id WITH =, unit_id WITH =, block WITH &&));
CREATE OR REPLACE FUNCTION today_book(n bigint) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE u units; id uuid;
BEGIN
  SELECT * INTO u FROM units WHERE units.id = md5('u' || (n % 500))::uuid FOR UPDATE;
  INSERT INTO appts (store_id, unit_id, during, guest_name)
    VALUES (u.store_id, u.id, tstzrange('2100-01-01'::timestamptz + n * interval '1 minute', '2100-01-01'::timestamptz + (n + 1) * interval '1 minute'), 'Guest')
    RETURNING appts.id INTO id;
  RETURN id;
END $$;
CREATE OR REPLACE FUNCTION unified_book(n bigint) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE u units; id uuid;
BEGIN
  SELECT * INTO u FROM units WHERE units.id = md5('u' || (n % 500))::uuid;
  INSERT INTO appts2 (store_id, unit_id, during, guest_name)
    VALUES (u.store_id, u.id, tstzrange('2100-01-01'::timestamptz + n * interval '1 minute', '2100-01-01'::timestamptz + (n + 1) * interval '1 minute'), 'Guest')
    RETURNING appts2.id INTO id;
  INSERT INTO occ2 (store_id, unit_id, block, appointment_id) VALUES (u.store_id, u.id, tstzrange('2100-01-01'::timestamptz + n * interval '1 minute', '2100-01-01'::timestamptz + (n + 1) * interval '1 minute'), id);
  RETURN id;
END $$;
