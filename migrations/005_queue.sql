CREATE TABLE queue_entries (
  id                uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id          uuid NOT NULL REFERENCES stores (id),
  customer_id       uuid REFERENCES customers (id),
  guest_name        text CHECK (length(guest_name) <= 120),
  guest_phone       text,
  service_id        uuid,
  preferred_unit_id uuid,
  party_size        integer NOT NULL DEFAULT 1 CHECK (party_size BETWEEN 1 AND 100),
  status            text NOT NULL DEFAULT 'waiting'
                    CHECK (status IN ('waiting', 'called', 'assigned', 'completed', 'left', 'no_show', 'converted_to_appointment')),
  joined_at         timestamptz NOT NULL,
  called_at         timestamptz,
  quoted_wait_min   integer,
  appointment_id    uuid,
  ended_at          timestamptz,
  client_token      text,
  CHECK (customer_id IS NOT NULL OR guest_name IS NOT NULL),
  FOREIGN KEY (store_id, service_id) REFERENCES services (store_id, id),
  FOREIGN KEY (store_id, preferred_unit_id) REFERENCES units (store_id, id),
  FOREIGN KEY (store_id, appointment_id) REFERENCES appointments (store_id, id),
  UNIQUE (store_id, id)
);
-- The live queue: waiting and called entries in join order.
CREATE INDEX queue_entries_live ON queue_entries (store_id, joined_at, id) WHERE status IN ('waiting', 'called');
CREATE UNIQUE INDEX queue_entries_client_token ON queue_entries (store_id, client_token) WHERE client_token IS NOT NULL;
