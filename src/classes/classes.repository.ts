// SQL of the timetable's classes. Scoped to the store; a class is presented by bbo_class_json
// (db/functions/classes.sql), the same shape the occurrence writes read.
import type { Queryable, Tx } from '../platform/db/port.ts';
import type { ClassRecord, CreateClassBody, UpdateClassBody } from './classes.schemas.ts';

/** The columns PATCH may write, in a fixed order (never built from input names). */
const WRITABLE = [
  'name',
  'category',
  'duration_min',
  'capacity',
  'instructor_unit_id',
  'price_pence',
  'waitlist_mode',
  'offer_minutes',
  'promotion_cutoff_minutes',
  'archived',
] as const;

export async function insertClass(tx: Tx, storeId: string, body: CreateClassBody, now: Date): Promise<ClassRecord> {
  const res = await tx.query<{ c: ClassRecord }>(
    `INSERT INTO classes (store_id, name, category, duration_min, capacity, instructor_unit_id, price_pence, waitlist_mode,
       offer_minutes, promotion_cutoff_minutes, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, coalesce($8, 'auto'), coalesce($9::integer, 60), coalesce($10::integer, 0), $11, $11)
     RETURNING bbo_class_json(classes.*) AS c`,
    [
      storeId,
      body.name.trim(),
      body.category ?? null,
      body.duration_min,
      body.capacity,
      body.instructor_unit_id ?? null,
      body.price_pence ?? null,
      body.waitlist_mode ?? null,
      body.offer_minutes ?? null,
      body.promotion_cutoff_minutes ?? null,
      now.toISOString(),
    ],
  );
  return res.rows[0].c;
}

export async function unitExists(q: Queryable, storeId: string, unitId: string): Promise<boolean> {
  const res = await q.query('SELECT 1 FROM units WHERE store_id = $1 AND id = $2', [storeId, unitId]);
  return res.rows.length > 0;
}

export async function listClasses(q: Queryable, storeId: string, includeArchived: boolean): Promise<ClassRecord[]> {
  const res = await q.query<{ c: ClassRecord }>(
    `SELECT bbo_class_json(c.*) AS c FROM classes c WHERE c.store_id = $1 AND ($2 OR NOT c.archived) ORDER BY c.name, c.id`,
    [storeId, includeArchived],
  );
  return res.rows.map((r) => r.c);
}

export async function findClass(q: Queryable, storeId: string, id: string, lock = false): Promise<ClassRecord | null> {
  const res = await q.query<{ c: ClassRecord }>(
    `SELECT bbo_class_json(c.*) AS c FROM classes c WHERE c.store_id = $1 AND c.id = $2${lock ? ' FOR UPDATE' : ''}`,
    [storeId, id],
  );
  return res.rows[0]?.c ?? null;
}

export async function updateClass(
  tx: Tx,
  storeId: string,
  id: string,
  body: UpdateClassBody,
  now: Date,
): Promise<ClassRecord> {
  const sets: string[] = [];
  const params: unknown[] = [storeId, id, now.toISOString()];
  for (const column of WRITABLE) {
    if (body[column] === undefined) continue;
    const value = column === 'name' ? body.name!.trim() : body[column];
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  }
  const res = await tx.query<{ c: ClassRecord }>(
    `UPDATE classes SET ${[...sets, 'updated_at = $3'].join(', ')} WHERE store_id = $1 AND id = $2 RETURNING bbo_class_json(classes.*) AS c`,
    params,
  );
  return res.rows[0].c;
}

/**
 * A class capacity change reaching its future occurrences without their own (bbo_class_reseat,
 * db/functions/class-reseat.sql): each locked, refused below its seats taken, a raised one filled
 * from the waitlist. Returns the event rows to emit.
 */
export async function reseatClass(
  tx: Tx,
  storeId: string,
  classId: string,
  now: Date,
): Promise<Array<{ type: string; data: Record<string, unknown> }>> {
  const res = await tx.query<{ events: Array<{ type: string; data: Record<string, unknown> }> }>(
    'SELECT bbo_class_reseat($1, $2, NULL, NULL, false, $3) AS events',
    [storeId, classId, now.toISOString()],
  );
  return res.rows[0].events;
}
