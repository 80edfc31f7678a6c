// SQL of the hold operations that is not occupancy (the booking authority writes holds).
import type { Tx } from '../../platform/db/port.ts';
import { APPOINTMENT_COLUMNS, type AppointmentRow } from '../booking-authority.ts';

export async function findAppointment(tx: Tx, storeId: string, id: string): Promise<AppointmentRow | null> {
  const res = await tx.query<AppointmentRow>(`SELECT ${APPOINTMENT_COLUMNS} FROM appointments WHERE store_id = $1 AND id = $2`, [storeId, id]);
  return res.rows[0] ?? null;
}

/** What the customer wrote at checkout; kept on the appointment, never logged or emitted. */
export async function setGuestNote(tx: Tx, storeId: string, id: string, note: string): Promise<void> {
  await tx.query('UPDATE appointments SET guest_note = $3 WHERE store_id = $1 AND id = $2', [storeId, id, note]);
}
