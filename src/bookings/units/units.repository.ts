// SQL for units. Every query is scoped to the store; another store's unit reads as missing.
import type { Queryable } from '../../platform/db/port.ts';
import { UNIT_COLUMNS, type Unit } from './unit.schemas.ts';

/** The writable columns, in the order the INSERT and UPDATE statements name them. */
export const WRITABLE_UNIT_FIELDS = [
  'display_name',
  'kind',
  'unit_type',
  'user_id',
  'colour',
  'photo_url',
  'sort',
  'bookable',
  'online_bookable',
  'is_active',
] as const;
export type WritableUnitField = (typeof WRITABLE_UNIT_FIELDS)[number];
export type UnitChanges = Partial<Record<WritableUnitField, unknown>>;

export async function listUnits(q: Queryable, storeId: string, includeInactive: boolean): Promise<Unit[]> {
  const res = await q.query<Unit>(
    `SELECT ${UNIT_COLUMNS} FROM units
      WHERE store_id = $1 AND ($2 OR is_active)
      ORDER BY sort, display_name, id`,
    [storeId, includeInactive],
  );
  return res.rows;
}

export async function findUnit(q: Queryable, storeId: string, unitId: string): Promise<Unit | null> {
  const res = await q.query<Unit>(`SELECT ${UNIT_COLUMNS} FROM units WHERE store_id = $1 AND id = $2`, [
    storeId,
    unitId,
  ]);
  return res.rows[0] ?? null;
}

export async function insertUnit(q: Queryable, storeId: string, fields: UnitChanges, now: Date): Promise<Unit> {
  const res = await q.query<Unit>(
    `INSERT INTO units (store_id, display_name, kind, unit_type, user_id, colour, photo_url, sort, bookable, online_bookable,
       is_active, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)
     RETURNING ${UNIT_COLUMNS}`,
    [
      storeId,
      fields.display_name,
      fields.kind,
      fields.unit_type ?? null,
      fields.user_id ?? null,
      fields.colour ?? null,
      fields.photo_url ?? null,
      fields.sort ?? 0,
      fields.bookable ?? true,
      fields.online_bookable ?? true,
      fields.is_active ?? true,
      now.toISOString(),
    ],
  );
  return res.rows[0];
}

/** Applies only the given fields; column names come from WRITABLE_UNIT_FIELDS, never from input. */
export async function updateUnit(
  q: Queryable,
  storeId: string,
  unitId: string,
  changes: UnitChanges,
  now: Date,
): Promise<Unit> {
  const fields = WRITABLE_UNIT_FIELDS.filter((f) => f in changes);
  const sets = fields.map((f, i) => `${f} = $${i + 4}`);
  const res = await q.query<Unit>(
    `UPDATE units SET ${[...sets, 'updated_at = $3'].join(', ')}
      WHERE store_id = $1 AND id = $2
      RETURNING ${UNIT_COLUMNS}`,
    [storeId, unitId, now.toISOString(), ...fields.map((f) => changes[f])],
  );
  return res.rows[0];
}

/** Live appointments (not cancelled, not no-show) on the unit that have not ended yet. */
export async function countUpcomingAppointments(
  q: Queryable,
  storeId: string,
  unitId: string,
  now: Date,
): Promise<number> {
  const res = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM appointments
      WHERE store_id = $1 AND unit_id = $2 AND ends_at > $3 AND bbo_live(status) AND status <> 'completed'`,
    [storeId, unitId, now.toISOString()],
  );
  return res.rows[0].n;
}
