// SQL for the diary: the columns (units) and what overlaps [from, to) in each. One query per kind
// of item for all units at once, grouped by unit in the service.
import type { Queryable } from '../../platform/db/port.ts';
import { UNIT_COLUMNS, type Unit } from '../units/unit.schemas.ts';
import type { TimeOffEntry } from '../time-off/time-off.schemas.ts';
import type { DiaryAppointment, Hold } from './diary.schemas.ts';

type OnUnit<T> = T & { unit_id: string };

/** A diary appointment as read: balance_pence is derived from settled_pence by the service. */
export type DiaryAppointmentRow = Omit<DiaryAppointment, 'balance_pence'> & { settled_pence: number };

/** Every active bookable unit; or the one unit asked for, whatever its state. */
export async function diaryUnits(q: Queryable, storeId: string, unitId: string | null): Promise<Unit[]> {
  const res = await q.query<Unit>(
    `SELECT ${UNIT_COLUMNS} FROM units
      WHERE store_id = $1 AND (CASE WHEN $2::uuid IS NULL THEN is_active AND bookable ELSE id = $2::uuid END)
      ORDER BY sort, display_name, id`,
    [storeId, unitId],
  );
  return res.rows;
}

/** A diary appointment's columns (of appointments a, areas ar), shared by the diary and the one-appointment read. */
const DIARY_APPOINTMENT_COLUMNS = `a.id, a.service_id, a.customer_id, a.guest_name, a.guest_email, a.guest_phone, a.starts_at, a.ends_at,
            a.status, a.payment_status, a.price_pence, a.deposit_pence, a.settled_pence, a.currency,
            a.party_size, a.children, a.high_chairs, a.is_override, a.preferred_area_id, ar.name AS preferred_area_name,
            a.checked_in_at, a.completed_at, a.cancelled_at`;

/** One appointment of the store with its diary fields (and the store, unit and source), or null. */
export async function diaryAppointmentById(
  q: Queryable, storeId: string, appointmentId: string,
): Promise<(DiaryAppointmentRow & { store_id: string; unit_id: string; source: string }) | null> {
  const res = await q.query<DiaryAppointmentRow & { store_id: string; unit_id: string; source: string }>(
    `SELECT a.store_id, a.unit_id, a.source, ${DIARY_APPOINTMENT_COLUMNS}
       FROM appointments a
       LEFT JOIN areas ar ON ar.store_id = a.store_id AND ar.id = a.preferred_area_id
      WHERE a.store_id = $1 AND a.id = $2`,
    [storeId, appointmentId],
  );
  return res.rows[0] ?? null;
}

/** Appointments whose told time overlaps [from, to); cancelled ones only when asked. */
export async function diaryAppointments(
  q: Queryable, storeId: string, unitIds: string[], from: string, to: string, includeCancelled: boolean,
): Promise<OnUnit<DiaryAppointmentRow>[]> {
  const res = await q.query<OnUnit<DiaryAppointmentRow>>(
    `SELECT a.unit_id, ${DIARY_APPOINTMENT_COLUMNS}
       FROM appointments a
       LEFT JOIN areas ar ON ar.store_id = a.store_id AND ar.id = a.preferred_area_id
      WHERE a.store_id = $1 AND a.unit_id = ANY($2::uuid[])
        -- The occupied block contains the told time, so this indexable overlap (gist on
        -- store_id, unit_id, block) narrows the rows without losing any; the next line decides.
        AND a.block && tstzrange($3::timestamptz, $4::timestamptz)
        AND a.starts_at < $4 AND a.ends_at > $3
        AND ($5 OR a.status <> 'cancelled')
      ORDER BY a.starts_at, a.ends_at, a.id`,
    [storeId, unitIds, from, to, includeCancelled],
  );
  return res.rows;
}

/** Holds still occupying their unit at now: not released, and not expired. */
export async function diaryHolds(q: Queryable, storeId: string, unitIds: string[], from: string, to: string, now: Date): Promise<OnUnit<Hold>[]> {
  const res = await q.query<OnUnit<Hold>>(
    `SELECT unit_id, id, starts_at, ends_at, expires_at FROM holds
      WHERE store_id = $1 AND unit_id = ANY($2::uuid[])
        AND tstzrange(starts_at, ends_at) && tstzrange($3::timestamptz, $4::timestamptz)
        AND released_at IS NULL AND (expires_at IS NULL OR expires_at > $5)
      ORDER BY starts_at, id`,
    [storeId, unitIds, from, to, now.toISOString()],
  );
  return res.rows;
}

export async function diaryTimeOff(q: Queryable, storeId: string, unitIds: string[], from: string, to: string): Promise<OnUnit<TimeOffEntry>[]> {
  const res = await q.query<OnUnit<TimeOffEntry>>(
    `SELECT unit_id, id, starts_at, ends_at, kind, reason FROM time_off
      WHERE store_id = $1 AND unit_id = ANY($2::uuid[])
        AND tstzrange(starts_at, ends_at) && tstzrange($3::timestamptz, $4::timestamptz)
      ORDER BY starts_at, id`,
    [storeId, unitIds, from, to],
  );
  return res.rows;
}
