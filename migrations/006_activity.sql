-- What the rest of the platform records about a customer at a store: attendance, stamps, orders,
-- and the journey feed. Written through the operator surface; read by attendance, journey and roster.
CREATE TABLE class_bookings (
  id                      uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id                uuid NOT NULL REFERENCES stores (id),
  customer_id             uuid NOT NULL REFERENCES customers (id),
  status                  text NOT NULL CHECK (status IN ('attended', 'no_show', 'cancelled', 'confirmed', 'waitlisted', 'promotion_pending', 'promotion_expired')),
  booking_date            date,
  booking_source          text CHECK (booking_source IN ('app', 'staff', 'drop-in')),
  class_name              text,
  class_category          text,
  -- The class's default instructor; the occurrence's own instructor wins when set.
  class_instructor_name   text,
  occurrence_instructor_name text,
  scheduled_date          date,
  start_time              time,
  end_time                time,
  attended_at             timestamptz,
  no_show_marked_at       timestamptz,
  cancelled_at            timestamptz,
  created_at              timestamptz NOT NULL
);
CREATE INDEX class_bookings_customer ON class_bookings (store_id, customer_id, created_at DESC, id DESC);

CREATE TABLE stamps (
  id          uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id    uuid NOT NULL REFERENCES stores (id),
  customer_id uuid NOT NULL REFERENCES customers (id),
  count       integer NOT NULL DEFAULT 1 CHECK (count > 0),
  title       text,
  created_at  timestamptz NOT NULL
);
CREATE INDEX stamps_customer ON stamps (store_id, customer_id, created_at DESC);

CREATE TABLE orders (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id             uuid NOT NULL REFERENCES stores (id),
  customer_id          uuid NOT NULL REFERENCES customers (id),
  status               text NOT NULL DEFAULT 'paid' CHECK (status IN ('paid', 'refunded', 'partially_refunded', 'cancelled')),
  amount_pence         integer NOT NULL CHECK (amount_pence >= 0),
  refunded_pence       integer NOT NULL DEFAULT 0 CHECK (refunded_pence >= 0),
  promo_discount_pence integer NOT NULL DEFAULT 0 CHECK (promo_discount_pence >= 0),
  applied_promo_code   text,
  currency             text NOT NULL,
  title                text,
  created_at           timestamptz NOT NULL
);
CREATE INDEX orders_customer ON orders (store_id, customer_id, created_at DESC);

-- Touchpoints that are not rows of their own elsewhere (vouchers, messages, emails, journeys, moments...).
CREATE TABLE journey_events (
  id                   uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  store_id             uuid NOT NULL REFERENCES stores (id),
  customer_id          uuid NOT NULL REFERENCES customers (id),
  type                 text NOT NULL CHECK (type IN ('joined', 'stamp', 'voucher_earned', 'voucher_redeemed', 'order', 'message', 'email', 'journey', 'moment', 'class_booking', 'membership')),
  channel              text CHECK (channel IN ('in_store', 'in_app', 'email', 'journey', 'moment', 'gym')),
  occurred_at          timestamptz NOT NULL,
  title                text,
  subtitle             text,
  status               text,
  detail               text,
  campaign_name        text,
  opened               boolean,
  clicked              boolean,
  returning_visit_at   timestamptz,
  return_days          integer,
  amount_pence         integer,
  refunded_pence       integer,
  promo_discount_pence integer,
  applied_promo_code   text,
  currency             text,
  auto_sent            boolean,
  result_kind          text,
  result_at            timestamptz,
  result_value_pence   integer
);
CREATE INDEX journey_events_customer ON journey_events (store_id, customer_id, occurred_at DESC, id DESC);
