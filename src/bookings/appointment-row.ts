// An appointment as its table holds it (block's edges as instants), and the column list that reads
// it so. Re-exported by booking-authority.ts, where the writers live.

export interface AppointmentRow {
  id: string;
  store_id: string;
  unit_id: string;
  service_id: string | null;
  customer_id: string | null;
  guest_name: string | null;
  guest_email: string | null;
  guest_phone: string | null;
  starts_at: string;
  ends_at: string;
  block_starts_at: string;
  block_ends_at: string;
  status: string;
  payment_status: string;
  price_pence: number;
  deposit_pence: number;
  settled_pence: number;
  currency: string;
  party_size: number;
  children: number;
  high_chairs: number;
  source: string;
  is_override: boolean;
  preferred_area_id: string | null;
  client_token: string | null;
  cancel_reason: string | null;
  checked_in_at: string | null;
  completed_at: string | null;
  cancelled_at: string | null;
  no_show_at: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export const APPOINTMENT_COLUMNS = `id, store_id, unit_id, service_id, customer_id, guest_name, guest_email, guest_phone,
  starts_at, ends_at, lower(block) AS block_starts_at, upper(block) AS block_ends_at, status, payment_status,
  price_pence, deposit_pence, settled_pence, currency, party_size, children, high_chairs, source, is_override,
  preferred_area_id, client_token, cancel_reason, checked_in_at, completed_at, cancelled_at, no_show_at,
  created_by, created_at, updated_at`;
