// SQL of the appointment operations. Every function takes the transaction handle and filters on
// the store, so another store's record reads exactly like a missing one. Inserting appointments and
// changing their block belongs to the booking authority, not here.
import type { Tx } from '../../platform/db/port.ts';
import { APPOINTMENT_COLUMNS, type AppointmentRow } from '../booking-authority.ts';

