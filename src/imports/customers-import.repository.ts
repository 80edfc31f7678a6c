// The customer import's SQL: one statement to match a batch, one to write it.
import type { Tx } from '../platform/db/port.ts';

export interface CustomerMatch {
  i: number;
  /** The customer the row is: by the store's external_id, else by email, else by mobile. */
  id: string | null;
  by_email: string | null;
  by_phone: string | null;
  name: string | null;
  email: string | null;
  phone: string | null;
  erased: boolean;
  related: boolean;
  external_id: string | null;
  merchant_note: string | null;
  marketing_opted_in: boolean | null;
}

/** Each row's match, in one statement (each lookup is one of the unique indexes). */
export async function matchCustomers(
  tx: Tx,
  storeId: string,
  rows: Array<{ i: number; external_id: string | null; email: string | null; phone: string | null }>,
): Promise<CustomerMatch[]> {
  const res = await tx.query<CustomerMatch>(
    `WITH r AS (
       SELECT r.i,
              (SELECT sc.customer_id FROM store_customers sc WHERE sc.store_id = $1 AND sc.external_id = r.external_id) AS by_external,
              (SELECT c.id FROM customers c WHERE c.email = r.email) AS by_email,
              (SELECT c.id FROM customers c WHERE c.phone = r.phone) AS by_phone
         FROM jsonb_to_recordset($2::jsonb) AS r(i integer, external_id text, email text, phone text))
     SELECT r.i, coalesce(r.by_external, r.by_email, r.by_phone) AS id, r.by_email, r.by_phone,
            c.name, c.email, c.phone, c.erased_at IS NOT NULL AS erased, sc.customer_id IS NOT NULL AS related,
            sc.external_id, sc.merchant_note, sc.marketing_opted_in
       FROM r
       LEFT JOIN customers c ON c.id = coalesce(r.by_external, r.by_email, r.by_phone)
       LEFT JOIN store_customers sc ON sc.store_id = $1 AND sc.customer_id = c.id
      ORDER BY r.i`,
    [storeId, JSON.stringify(rows)],
  );
  return res.rows;
}

export interface CustomerWrite {
  id: string;
  is_new: boolean;
  name: string | null;
  email: string | null;
  phone: string | null;
  external_id: string | null;
  merchant_note: string | null;
  marketing_opted_in: boolean | null;
}

/**
 * The batch's writes in one statement: new people inserted, blanks of matched people filled (an
 * import never overwrites a person's name, email or mobile: one person across stores), and the
 * store's relationship created or set to the merged id, note and consent (the caller merged them).
 */
export async function writeCustomers(tx: Tx, storeId: string, rows: CustomerWrite[], at: string): Promise<void> {
  await tx.query(
    `WITH r AS (
       SELECT * FROM jsonb_to_recordset($2::jsonb) AS r(id uuid, is_new boolean, name text, email text, phone text,
                                                      external_id text, merchant_note text, marketing_opted_in boolean)),
     inserted AS (
       INSERT INTO customers (id, name, email, phone, created_at, updated_at)
       SELECT r.id, r.name, r.email, r.phone, $3::timestamptz, $3::timestamptz FROM r WHERE r.is_new),
     filled AS (
       UPDATE customers c
          SET name = coalesce(c.name, r.name), email = coalesce(c.email, r.email), phone = coalesce(c.phone, r.phone), updated_at = $3
         FROM r
        WHERE NOT r.is_new AND c.id = r.id
          AND ((c.name IS NULL AND r.name IS NOT NULL) OR (c.email IS NULL AND r.email IS NOT NULL) OR (c.phone IS NULL AND r.phone IS NOT NULL)))
     INSERT INTO store_customers (store_id, customer_id, external_id, merchant_note, merchant_note_updated_at, marketing_opted_in,
                                  first_seen_at, last_seen_at, updated_at)
     SELECT $1, r.id, r.external_id, r.merchant_note, CASE WHEN r.merchant_note IS NOT NULL THEN $3::timestamptz END,
            coalesce(r.marketing_opted_in, false), $3::timestamptz, $3::timestamptz, $3
       FROM r
     -- The values are the final ones (the caller merged the file's over the stored): set as given.
     ON CONFLICT (store_id, customer_id) DO UPDATE
        SET external_id = EXCLUDED.external_id,
            merchant_note = EXCLUDED.merchant_note,
            merchant_note_updated_at = CASE WHEN EXCLUDED.merchant_note IS DISTINCT FROM store_customers.merchant_note
                                            THEN EXCLUDED.merchant_note_updated_at ELSE store_customers.merchant_note_updated_at END,
            marketing_opted_in = EXCLUDED.marketing_opted_in,
            updated_at = $3::timestamptz`,
    [storeId, JSON.stringify(rows), at],
  );
}
