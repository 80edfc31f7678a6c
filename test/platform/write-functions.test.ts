// The typed handoff between TypeScript and the write functions of db/functions/ (issue 42): every
// function called through oneStatementWrite has a request and a result schema (a `*.writes.ts`
// module beside its caller), each request schema names exactly the keys the SQL reads, and the
// checks at the call refuse a renamed field on either side. The key check reads the SQL, so a
// renamed field fails here for every function, whether or not another test sends it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Type } from 'typebox';
import { startTestApp } from '../support/app.ts';
import { callSql, oneStatementWrite, writeFunction, type WriteFunction } from '../../src/platform/one-statement.ts';
import { depositPaid } from '../../src/bookings/deposits/deposits.writes.ts';
import { merchantBook } from '../../src/bookings/booking-authority.writes.ts';
import type { MerchantContext } from '../../src/platform/context.ts';
import { elementKeys, IN_TRANSACTION_SIGNATURE, requestKeys, sqlFunctions, WRITE_SIGNATURE } from './sql-writes.ts';

const SRC = join(import.meta.dirname, '../../src');

/**
 * Write functions called by name, unchecked: none since src/classes/ declared its own
 * (classes.writes.ts), and oneStatementWrite takes only a declared function. It stays empty: a new
 * write function needs its schema.
 */
const UNCHECKED: string[] = [];

const sourceFiles = (readdirSync(SRC, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
const declared: WriteFunction[] = [];
for (const file of sourceFiles.filter((f) => f.endsWith('.writes.ts'))) {
  const mod = (await import(join(SRC, file))) as Record<string, unknown>;
  for (const value of Object.values(mod)) {
    if (value && typeof value === 'object' && 'fn' in value && 'checkRequest' in value)
      declared.push(value as WriteFunction);
  }
}
const all = sqlFunctions();
// The one-statement writes, and those called inside their caller's transaction (bbo_import_appointments).
const writes = [...all.values()]
  .filter((f) => WRITE_SIGNATURE.test(f.params) || IN_TRANSACTION_SIGNATURE.test(f.params))
  .map((f) => f.name)
  .sort();

test('every write function has a schema', () => {
  assert.ok(writes.length >= 15, `found only ${writes.length} write functions: is the reader still right?`);
  const schemed = new Set(declared.map((d) => d.fn));
  assert.deepEqual(
    writes.filter((n) => !schemed.has(n)),
    UNCHECKED,
  );
  for (const d of declared)
    assert.ok(writes.includes(d.fn), `${d.fn} has a schema but is no write function in db/functions/`);
});

test("the replay is the statement's: no write function claims, the statement claims first", () => {
  // db/functions/README.md: a write function stores its reply (bbo_write_finish) and never answers
  // one; callSql runs bbo_idempotency_claim ahead of it in one COALESCE.
  const claiming = writes.filter((n) => /bbo_idempotency_claim\s*\(/.test(all.get(n)!.body));
  assert.deepEqual(claiming, []);
  assert.match(
    callSql('bbo_x'),
    /^SELECT coalesce\(bbo_idempotency_claim\(\$1::jsonb, \$3::timestamptz\), bbo_x\(\$1::jsonb, /,
  );
});

test('no write function is called by name', () => {
  const byName = new Set<string>();
  for (const file of sourceFiles) {
    const text = readFileSync(join(SRC, file), 'utf8');
    for (const m of text.matchAll(/oneStatementWrite(?:<[^(]*>)?\(\s*\w+,\s*'(\w+)'/g)) byName.add(m[1]);
  }
  assert.deepEqual([...byName].sort(), UNCHECKED);
});

test("each request schema names exactly the keys its function reads (req->>'field'), and refuses others", () => {
  for (const d of declared) {
    const sent = Object.keys((d.request as { properties: object }).properties).sort();
    const read = [...requestKeys(all, d.fn)].sort();
    assert.deepEqual(
      sent.filter((k) => !read.includes(k)),
      [],
      `${d.fn}: sent but never read by the SQL`,
    );
    assert.deepEqual(
      read.filter((k) => !sent.includes(k)),
      [],
      `${d.fn}: read by the SQL but not in the schema`,
    );
    assert.equal(
      (d.request as { additionalProperties?: boolean }).additionalProperties,
      false,
      `${d.fn}: the request must refuse unknown keys`,
    );
  }
});

test('each array of objects in a request names exactly the keys its function reads of each element', () => {
  let arrays = 0;
  for (const d of declared) {
    for (const [field, schema] of Object.entries(
      (
        d.request as {
          properties: Record<
            string,
            { type?: string; items?: { properties?: object; additionalProperties?: boolean } }
          >;
        }
      ).properties,
    )) {
      if (schema.type !== 'array' || !schema.items?.properties) continue;
      arrays++;
      const sent = Object.keys(schema.items.properties).sort();
      const read = [...elementKeys(all, d.fn, field)].sort();
      assert.ok(read.length > 0, `${d.fn}: no reads of ${field}'s elements found: is the reader still right?`);
      assert.deepEqual(sent, read, `${d.fn}: the keys of each ${field} element`);
      assert.equal(schema.items.additionalProperties, false, `${d.fn}: each ${field} element must refuse unknown keys`);
    }
  }
  assert.ok(arrays >= 1, 'bbo_import_appointments sends rows');
});

test('the reader follows req into the function it is passed to, less the keys set on the way', () => {
  const hold = requestKeys(all, 'bbo_page_hold');
  assert.ok(hold.has('service_id') && hold.has('customer_cap'), 'bbo_customer_hold reads these of the page hold');
  assert.ok(!hold.has('customer_id'), 'bbo_page_hold sets customer_id itself');
  assert.ok(requestKeys(all, 'bbo_merchant_book').has('block_starts_at'), 'read by bbo_occupied_block');
});

test('a renamed field fails at the call: the request before it is sent, the result when it comes back', async () => {
  const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
  {
    const store = await t.fx.store({ timezone: 'Europe/London' });
    let sent = 0;
    const db = {
      ...t.db,
      query: (...args: Parameters<typeof t.db.query>) => {
        sent++;
        return t.db.query(...args);
      },
    } as typeof t.db;
    const ctx = {
      actor: { kind: 'merchant', storeId: store.id, userId: null, staffName: null },
      db,
      clock: { now: () => new Date('2026-06-01T09:00:00Z') },
      requestId: 'req-w42',
      log: t.app.log,
      idempotency: null,
      replayed: false,
    } as unknown as MerchantContext;
    const missing = '00000000-0000-4000-8000-000000000042';
    // The request: appointment_id spelt as the route's path parameter would be.
    await assert.rejects(
      oneStatementWrite(ctx, depositPaid, { store_id: store.id, appointmentId: missing } as never),
      /bbo_deposit_paid: the request does not match its schema.*appointment_id/,
    );
    assert.equal(sent, 0, 'nothing reaches the database');
    // The result: the create answers {appointment, reused}; a schema that expects `reused` under
    // another name refuses the answer, and the real schema takes the same function's answer.
    const unit = await t.fx.unit(store.id);
    const booking = (hour: number) => ({
      store_id: store.id,
      unit_id: unit.id,
      service_id: null,
      customer_id: null,
      guest_name: null,
      guest_email: 'g@example.com',
      guest_phone: null,
      party_size: 1,
      price_pence: null,
      starts_at: `2026-06-02T${hour}:00:00Z`,
      ends_at: `2026-06-02T${hour}:30:00Z`,
      block_starts_at: null,
      block_ends_at: null,
      override: false,
      client_token: null,
      created_by: null,
    });
    const renamed = writeFunction(
      'bbo_merchant_book',
      merchantBook.request,
      Type.Object({ appointment: Type.Object({}), was_reused: Type.Boolean() }),
    );
    await assert.rejects(
      oneStatementWrite(ctx, renamed, booking(10)),
      /bbo_merchant_book: the result does not match its schema.*was_reused/,
    );
    const ok = await oneStatementWrite(ctx, merchantBook, booking(11));
    assert.deepEqual(
      [ok.reused, ok.appointment.starts_at, ok.appointment.status],
      [false, '2026-06-02T11:00:00.000Z', 'confirmed'],
    );
  }
});
