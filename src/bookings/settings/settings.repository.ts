// SQL of the store's online booking settings. Column names come only from SETTING_NAMES.
import type { Queryable } from '../../platform/db/port.ts';
import { SETTING_NAMES } from './settings.schemas.ts';
import type { SettingsResponse } from './settings.schemas.ts';

const COLUMNS = `id AS store_id, timezone, ${SETTING_NAMES.join(', ')}`;

export async function readSettings(q: Queryable, storeId: string): Promise<SettingsResponse['settings'] | null> {
  const res = await q.query<SettingsResponse['settings']>(`SELECT ${COLUMNS} FROM stores WHERE id = $1`, [storeId]);
  return res.rows[0] ?? null;
}

export async function updateSettings(
  q: Queryable,
  storeId: string,
  fields: Record<string, unknown>,
  now: Date,
): Promise<SettingsResponse['settings'] | null> {
  const cols = SETTING_NAMES.filter((c) => fields[c] !== undefined);
  const res = await q.query<SettingsResponse['settings']>(
    `UPDATE stores SET ${cols.map((c, i) => `${c} = $${i + 3}`).join(', ')}${cols.length ? ', ' : ''}updated_at = $2
      WHERE id = $1 RETURNING ${COLUMNS}`,
    [storeId, now.toISOString(), ...cols.map((c) => fields[c])],
  );
  return res.rows[0] ?? null;
}
