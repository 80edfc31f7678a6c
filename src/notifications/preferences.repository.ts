// SQL for notification preferences. Rows are keyed (customer, store); the customer is always the
// signed-in one, passed in by the service from the token.
import type { Queryable } from '../platform/db/port.ts';
import { PG, pgCode, pgConstraint } from '../platform/db/pg-errors.ts';
import { notFound } from '../platform/errors/app-error.ts';
import { DEFAULT_TOGGLES, TOGGLE_NAMES, TOGGLES, type Toggle, type Toggles } from './preferences.schemas.ts';

// Stored values, or null where nothing was saved (the caller fills in the spec's defaults).
type SavedToggles = Record<Toggle, boolean | null>;
const SAVED = TOGGLE_NAMES.map((t) => `np.${TOGGLES[t].column} AS "${t}"`).join(', ');

export interface StorePreferences extends SavedToggles {
  storeId: string;
  storeName: string;
}

/**
 * One row per store the customer has interacted with: a relationship row, a class booking, a
 * stamp, an order, an appointment, or a saved preference. Ordered by store name, then id, so the
 * order is stable when two stores share a name.
 */
export async function listForCustomer(q: Queryable, customerId: string): Promise<StorePreferences[]> {
  const res = await q.query<StorePreferences>(
    `WITH interacted AS (
       SELECT store_id FROM store_customers WHERE customer_id = $1
       UNION SELECT store_id FROM class_bookings WHERE customer_id = $1
       UNION SELECT store_id FROM stamps WHERE customer_id = $1
       UNION SELECT store_id FROM orders WHERE customer_id = $1
       UNION SELECT store_id FROM appointments WHERE customer_id = $1
       UNION SELECT store_id FROM notification_preferences WHERE customer_id = $1
     )
     SELECT i.store_id AS "storeId", COALESCE(NULLIF(btrim(s.name), ''), 'Unknown') AS "storeName", ${SAVED}
       FROM interacted i
       LEFT JOIN stores s ON s.id = i.store_id
       LEFT JOIN notification_preferences np ON np.customer_id = $1 AND np.store_id = i.store_id
      ORDER BY lower(COALESCE(NULLIF(btrim(s.name), ''), 'Unknown')), i.store_id`,
    [customerId],
  );
  return res.rows;
}

const COLUMNS = TOGGLE_NAMES.map((t) => TOGGLES[t].column);
// Only the toggles the request names change on a repeat: an omitted one keeps its stored value.
const MERGE = COLUMNS.map((c, i) => `${c} = COALESCE($${i + 11}::boolean, np.${c})`).join(',\n         ');

/** The toggles as saved, and as they were before (null when this save created the row). */
export interface SavedPreferences {
  toggles: Toggles;
  previous: Toggles | null;
}

/**
 * Insert-or-merge on the (customer, store) key. ON CONFLICT makes concurrent first saves of the same
 * key converge on one row instead of one failing on the primary key.
 */
export async function upsertPreferences(
  tx: Queryable,
  customerId: string,
  storeId: string,
  given: Partial<Toggles>,
  now: string,
): Promise<SavedPreferences> {
  const insertValues = TOGGLE_NAMES.map((t) => given[t] ?? DEFAULT_TOGGLES[t]);
  const mergeValues = TOGGLE_NAMES.map((t) => given[t] ?? null);
  try {
    // The row as it was, locked, so the caller can tell a change from a repeat. (A separate statement:
    // a CTE read lazily in RETURNING would run after the upsert and no longer see the row.)
    const prior = await tx.query<Toggles>(
      `SELECT ${SAVED} FROM notification_preferences np WHERE np.customer_id = $1 AND np.store_id = $2 FOR UPDATE`,
      [customerId, storeId],
    );
    const res = await tx.query<Toggles>(
      `INSERT INTO notification_preferences AS np (customer_id, store_id, ${COLUMNS.join(', ')}, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $19)
       ON CONFLICT (customer_id, store_id) DO UPDATE SET
         ${MERGE},
         updated_at = EXCLUDED.updated_at
       RETURNING ${SAVED}`,
      [customerId, storeId, ...insertValues, ...mergeValues, now],
    );
    const toggles = res.rows[0];
    const previous = prior.rows[0] ?? null;
    return { toggles: toggles as Toggles, previous: previous as Toggles | null };
  } catch (err) {
    // The foreign keys decide whether the store (or the token's customer) exists.
    if (pgCode(err) === PG.foreignKeyViolation) {
      throw notFound(pgConstraint(err) === 'notification_preferences_customer_id_fkey' ? 'Customer' : 'Store');
    }
    throw err;
  }
}

/** What the consult function needs about one (store, customer) pair, in one round trip. */
export interface SendStateRow extends SavedToggles {
  erased_at: string | null;
  blocked: boolean | null;
  blocked_channels: string[] | null;
  marketing_opted_in: boolean | null;
}

/**
 * Send state for many (store, customer) pairs in one statement, in the order asked; null where there
 * is no such customer. A pair with no customer id is a guest: the customer their email or E.164
 * phone belongs to (each belongs to one customer at most), if any.
 */
export async function loadSendStates(
  q: Queryable,
  asks: ReadonlyArray<{ storeId: string; customerId: string | null; address: string | null }>,
): Promise<Array<SendStateRow | null>> {
  const res = await q.query<SendStateRow & { i: number; found: boolean }>(
    `SELECT a.i, c.id IS NOT NULL AS found, c.erased_at, sc.blocked, sc.blocked_channels, sc.marketing_opted_in, ${SAVED}
       FROM jsonb_to_recordset($1::jsonb) AS a (i int, store_id uuid, customer_id uuid, address text)
       LEFT JOIN LATERAL (
         SELECT id, erased_at FROM customers WHERE id = a.customer_id
         UNION ALL
         (SELECT id, erased_at FROM customers
           WHERE a.customer_id IS NULL AND a.address <> '' AND (email = lower(a.address) OR phone = a.address) LIMIT 1)
       ) c ON true
       LEFT JOIN store_customers sc ON sc.store_id = a.store_id AND sc.customer_id = c.id
       LEFT JOIN notification_preferences np ON np.store_id = a.store_id AND np.customer_id = c.id`,
    [JSON.stringify(asks.map((x, i) => ({ i, store_id: x.storeId, customer_id: x.customerId, address: x.address })))],
  );
  const out: Array<SendStateRow | null> = asks.map(() => null);
  for (const row of res.rows) if (row.found) out[row.i] = row;
  return out;
}
