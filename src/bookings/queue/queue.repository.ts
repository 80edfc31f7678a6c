// SQL of the walk-in queue. Every query is scoped to the acting store. What the wait model reads
// (the live queue, its units and their busy times) is live-queue.repository.ts.
import type { Queryable, Tx } from '../../platform/db/port.ts';
import { storeCustomerSql, type StoreCustomer } from '../../customers/store-customer.repository.ts';

export interface StoreQueueSettings {
  id: string;
  currency: string;
  walkin_mode: 'appointments_only' | 'walk_ins_only' | 'mixed' | null;
  called_hold_minutes: number | null;
}

export interface EntryRow {
  entry_id: string;
  store_id: string;
  customer_id: string | null;
  guest_name: string | null;
  guest_phone: string | null;
  service_id: string | null;
  preferred_unit_id: string | null;
  party_size: number;
  status: string;
  joined_at: string;
  called_at: string | null;
  quoted_wait_min: number | null;
  appointment_id: string | null;
  ended_at: string | null;
}

const ENTRY_KEYS = [
  'entry_id',
  'store_id',
  'customer_id',
  'guest_name',
  'guest_phone',
  'service_id',
  'preferred_unit_id',
  'party_size',
  'status',
  'joined_at',
  'called_at',
  'quoted_wait_min',
  'appointment_id',
  'ended_at',
] as const;
/** The entry's columns under EntryRow's names (its id as entry_id). */
const ENTRY_COLUMNS = ENTRY_KEYS.map((k) => (k === 'entry_id' ? 'e.id AS entry_id' : `e.${k}`)).join(', ');

export async function findEntry(q: Queryable, storeId: string, entryId: string): Promise<EntryRow | null> {
  const res = await q.query<EntryRow>(
    `SELECT ${ENTRY_COLUMNS} FROM queue_entries e WHERE e.store_id = $1 AND e.id = $2`,
    [storeId, entryId],
  );
  return res.rows[0] ?? null;
}

/** Locks the entry row: every transition of one entry is decided by whoever holds this lock. */
export async function lockEntry(tx: Tx, storeId: string, entryId: string): Promise<EntryRow | null> {
  const res = await tx.query<EntryRow>(
    `SELECT ${ENTRY_COLUMNS} FROM queue_entries e WHERE e.store_id = $1 AND e.id = $2 FOR UPDATE`,
    [storeId, entryId],
  );
  return res.rows[0] ?? null;
}

export async function findEntryByClientToken(
  q: Queryable,
  storeId: string,
  clientToken: string,
): Promise<EntryRow | null> {
  const res = await q.query<EntryRow>(
    `SELECT ${ENTRY_COLUMNS} FROM queue_entries e WHERE e.store_id = $1 AND e.client_token = $2`,
    [storeId, clientToken],
  );
  return res.rows[0] ?? null;
}

export interface NewEntry {
  storeId: string;
  customerId: string | null;
  guestName: string | null;
  guestPhone: string | null;
  serviceId: string | null;
  preferredUnitId: string | null;
  partySize: number;
  joinedAt: string;
  quotedWaitMin: number | null;
  clientToken: string | null;
}

/** Inserts the entry; null when a concurrent join with the same client_token got there first. */
export async function insertEntry(tx: Tx, e: NewEntry): Promise<EntryRow | null> {
  const res = await tx.query<EntryRow>(
    `INSERT INTO queue_entries AS e (store_id, customer_id, guest_name, guest_phone, service_id, preferred_unit_id,
       party_size, status, joined_at, quoted_wait_min, client_token)
     VALUES ($1, $2, $3, $4, $5, $6, $7, 'waiting', $8, $9, $10)
     ON CONFLICT (store_id, client_token) WHERE client_token IS NOT NULL DO NOTHING
     RETURNING ${ENTRY_COLUMNS}`,
    [
      e.storeId,
      e.customerId,
      e.guestName,
      e.guestPhone,
      e.serviceId,
      e.preferredUnitId,
      e.partySize,
      e.joinedAt,
      e.quotedWaitMin,
      e.clientToken,
    ],
  );
  return res.rows[0] ?? null;
}

export async function markCalled(tx: Tx, storeId: string, entryId: string, calledAt: string): Promise<void> {
  await tx.query(`UPDATE queue_entries SET status = 'called', called_at = $3 WHERE store_id = $1 AND id = $2`, [
    storeId,
    entryId,
    calledAt,
  ]);
}

export async function markEnded(
  tx: Tx,
  storeId: string,
  entryId: string,
  status: 'left' | 'no_show',
  endedAt: string,
): Promise<void> {
  await tx.query(`UPDATE queue_entries SET status = $3, ended_at = $4 WHERE store_id = $1 AND id = $2`, [
    storeId,
    entryId,
    status,
    endedAt,
  ]);
}

export interface ServiceFacts {
  id: string;
  duration_min: number;
  price_pence: number;
  price_type: 'fixed' | 'from' | 'per_person';
  party_min: number;
  party_max: number;
  is_active: boolean;
}

export interface UnitFacts {
  id: string;
  is_active: boolean;
  bookable: boolean;
}

// Column lists for the combined reads below. The entry keeps ENTRY_COLUMNS' names; the store,
// customer, service and unit columns carry a prefix so that no name is shared with the entry's.
// A prefixed record's keys give both its column list and its reading back.
const STORE_KEYS = ['id', 'currency', 'walkin_mode', 'called_hold_minutes'] as const;
const SERVICE_KEYS = [
  'id',
  'duration_min',
  'price_pence',
  'price_type',
  'party_min',
  'party_max',
  'is_active',
] as const;
const prefixedColumns = (alias: string, keys: readonly string[]) =>
  keys.map((k) => `${alias}.${k} AS ${alias}_${k}`).join(', ');
export const STORE_COLUMNS = prefixedColumns('st', STORE_KEYS);
const SERVICE_COLUMNS = prefixedColumns('sv', SERVICE_KEYS);

export type CombinedRow = Record<string, any>;

/** The record read under `alias`_ (null when the row had none: its id is null). */
function prefixed<T>(r: CombinedRow, alias: string, keys: readonly string[]): T | null {
  if (r[`${alias}_id`] === null) return null;
  return Object.fromEntries(keys.map((k) => [k, r[`${alias}_${k}`]])) as T;
}

function entryOf(r: CombinedRow): EntryRow | null {
  if (r.entry_id === null) return null;
  return Object.fromEntries(ENTRY_KEYS.map((k) => [k, r[k]])) as unknown as EntryRow;
}

export const storeOf = (r: CombinedRow) => prefixed<StoreQueueSettings>(r, 'st', STORE_KEYS);
const serviceOf = (r: CombinedRow) => prefixed<ServiceFacts>(r, 'sv', SERVICE_KEYS);

export interface JoinLookup {
  clientToken: string | null;
  customerId: string | null;
  serviceId: string | null;
  unitId: string | null;
  partySize: number;
}

export interface JoinFacts {
  /** null: no such store. */
  store: StoreQueueSettings | null;
  /** The entry an earlier join with the same client token created; null when none (or no token). */
  existing: EntryRow | null;
  /** null: none asked for, or not one of the store's customers (findStoreCustomer's rule). */
  customer: StoreCustomer | null;
  /** null: none asked for, or none of that id in the store (archived ones are returned). */
  service: ServiceFacts | null;
  /** null: none asked for, or none of that id in the store. */
  unit: UnitFacts | null;
  /** The one party rule's refusal (bbo_party_refusal) for the service and party asked; null when it fits or no service. */
  partyRefusal: string | null;
  /** How long the walk-in will occupy a unit (bbo_walk_in_minutes): the service's length, else 30. */
  walkInMin: number;
}

/**
 * What a join checks, read in one statement: the store's queue settings, the entry already
 * created with the client token, and the customer, service and preferred unit the body names.
 * Each is filtered on the store, so another store's record reads exactly like a missing one.
 */
export async function joinFacts(tx: Tx, storeId: string, lookup: JoinLookup): Promise<JoinFacts> {
  const res = await tx.query<CombinedRow>(
    `SELECT ${STORE_COLUMNS}, te.*,
            cu.id AS cu_id, cu.erased AS cu_erased, cu.blocked AS cu_blocked,
            ${SERVICE_COLUMNS},
            un.id AS un_id, un.is_active AS un_is_active, un.bookable AS un_bookable,
            bbo_party_refusal($6, sv.party_min, sv.party_max) AS party_refusal, bbo_walk_in_minutes(sv.duration_min) AS walk_in_min
       FROM (VALUES (1)) AS one (x)
       LEFT JOIN stores st ON st.id = $1
       LEFT JOIN LATERAL (SELECT ${ENTRY_COLUMNS} FROM queue_entries e WHERE e.store_id = $1 AND e.client_token = $2) te ON true
       LEFT JOIN LATERAL (${storeCustomerSql('$1', '$3')}) cu ON true
       LEFT JOIN services sv ON sv.store_id = $1 AND sv.id = $4
       LEFT JOIN units un ON un.store_id = $1 AND un.id = $5`,
    [storeId, lookup.clientToken, lookup.customerId, lookup.serviceId, lookup.unitId, lookup.partySize],
  );
  const r = res.rows[0];
  return {
    store: storeOf(r),
    existing: entryOf(r),
    customer: r.cu_id === null ? null : { id: r.cu_id, erased: r.cu_erased, blocked: r.cu_blocked },
    service: serviceOf(r),
    unit: r.un_id === null ? null : { id: r.un_id, is_active: r.un_is_active, bookable: r.un_bookable },
    partyRefusal: r.party_refusal,
    walkInMin: r.walk_in_min,
  };
}

/**
 * The store's queue settings and the entry, locked (as lockEntry does), in one statement. The lock
 * is taken inside the subquery, so a missing store or entry still yields one row of nulls.
 */
export async function lockEntryWithStore(
  tx: Tx,
  storeId: string,
  entryId: string,
): Promise<{ store: StoreQueueSettings | null; entry: EntryRow | null }> {
  const res = await tx.query<CombinedRow>(
    `SELECT ${STORE_COLUMNS}, le.*
       FROM (VALUES (1)) AS one (x)
       LEFT JOIN stores st ON st.id = $1
       LEFT JOIN LATERAL (SELECT ${ENTRY_COLUMNS} FROM queue_entries e WHERE e.store_id = $1 AND e.id = $2 FOR UPDATE) le ON true`,
    [storeId, entryId],
  );
  const r = res.rows[0];
  return { store: storeOf(r), entry: entryOf(r) };
}
