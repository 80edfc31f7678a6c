// POST /api/v1/imports/customers: each row checked, matched (the store's external_id, else email,
// else mobile), then created, filled in, or left unchanged, a batch at a time. No messages are sent;
// customer.created and customer.updated events carry source 'import'.
import { randomUUID } from 'node:crypto';
import type { MerchantContext } from '../platform/context.ts';
import type { Tx } from '../platform/db/port.ts';
import { emit } from '../events/outbox.ts';
import { CUSTOMER_FIELDS } from './columns.ts';
import { runImport, type ImportInput, type ImportRow, type Report } from './import-run.ts';
import { personOf, SeenInFile, type Person } from './row-rules.ts';
import { matchCustomers, writeCustomers, type CustomerWrite } from './customers-import.repository.ts';
import type { ImportReportBody } from './imports.schemas.ts';

const YES = new Set(['yes', 'y', 'true', '1', 'opted in', 'subscribed', 'x']);
const NO = new Set(['no', 'n', 'false', '0', 'opted out', 'unsubscribed', '']);

interface Checked extends Person {
  line: number;
  external_id: string | null;
  notes: string | null;
  marketing: boolean | null;
}

function checkRow(row: ImportRow, report: Report, seen: SeenInFile): Checked | null {
  const f = row.fields;
  const person = personOf(row.line, f, report);
  if (!person) return null;
  const external_id = f.external_id?.trim() || null;
  if (external_id && external_id.length > 200) {
    report.error(row.line, 'external_id', 'INVALID_VALUE', 'external_id is longer than 200 characters');
    return null;
  }
  if (!person.email && !person.phone && !external_id) {
    report.error(
      row.line,
      'email',
      'CONTACT_REQUIRED',
      'A customer needs an email, a mobile or an external_id to be matched again',
    );
    return null;
  }
  const notes = f.notes ?? null;
  if (notes && notes.length > 2000) {
    report.error(row.line, 'notes', 'INVALID_VALUE', 'notes are longer than 2000 characters');
    return null;
  }
  let marketing: boolean | null = null;
  if (f.marketing !== undefined) {
    const v = f.marketing.trim().toLowerCase();
    if (YES.has(v)) marketing = true;
    else if (NO.has(v)) marketing = false;
    else {
      report.error(row.line, 'marketing', 'INVALID_VALUE', 'marketing must be yes or no');
      return null;
    }
  }
  if (
    seen.repeated(row.line, 'external_id', external_id, report) ||
    seen.repeated(row.line, 'email', person.email, report) ||
    seen.repeated(row.line, 'mobile', person.phone, report)
  )
    return null;
  seen.remember(row.line, 'external_id', external_id);
  seen.remember(row.line, 'email', person.email);
  seen.remember(row.line, 'mobile', person.phone);
  return { line: row.line, ...person, external_id, notes, marketing };
}

async function importBatch(
  ctx: MerchantContext,
  tx: Tx,
  rows: ImportRow[],
  report: Report,
  seen: SeenInFile,
  matched: Set<string>,
) {
  const storeId = ctx.actor.storeId;
  const checked = rows.map((r) => checkRow(r, report, seen)).filter((r): r is Checked => r !== null);
  if (checked.length === 0) return;
  const matches = await matchCustomers(
    tx,
    storeId,
    checked.map((c, i) => ({ i, external_id: c.external_id, email: c.email, phone: c.phone })),
  );
  const writes: CustomerWrite[] = [];
  const now = ctx.clock.now();
  for (const m of matches) {
    const c = checked[m.i];
    if (!m.id) {
      const id = randomUUID();
      writes.push({
        id,
        is_new: true,
        name: c.name,
        email: c.email,
        phone: c.phone,
        external_id: c.external_id,
        merchant_note: c.notes,
        marketing_opted_in: c.marketing,
      });
      report.body.created++;
      await emit(
        tx,
        {
          storeId,
          type: 'customer.created',
          data: { id, name: c.name, email: c.email, phone: c.phone, source: 'import' },
        },
        now,
      );
      continue;
    }
    if (m.erased) {
      report.error(c.line, 'row', 'CUSTOMER_ERASED', 'This customer asked to be deleted and cannot be imported again');
      continue;
    }
    if ((m.by_email && m.by_email !== m.id) || (m.by_phone && m.by_phone !== m.id)) {
      const field = m.by_email && m.by_email !== m.id ? 'email' : 'mobile';
      report.error(
        c.line,
        field,
        'CONTACT_IN_USE',
        `The ${field} belongs to another customer than the row's other details`,
      );
      continue;
    }
    if (c.external_id && m.external_id && m.external_id !== c.external_id) {
      report.error(
        c.line,
        'external_id',
        'EXTERNAL_ID_MISMATCH',
        'This customer was imported before under another external_id',
      );
      continue;
    }
    if (matched.has(m.id)) {
      report.error(c.line, 'row', 'DUPLICATE_IN_FILE', 'Another row of the file is the same customer');
      continue;
    }
    matched.add(m.id);
    // Fill what the person lacks; set what is the store's own (its id for them, its note, their consent here).
    const fill = { name: m.name ? null : c.name, email: m.email ? null : c.email, phone: m.phone ? null : c.phone };
    const next = {
      external_id: m.external_id ?? c.external_id,
      merchant_note: c.notes ?? m.merchant_note,
      marketing_opted_in: c.marketing ?? m.marketing_opted_in ?? false,
    };
    const changed = [
      ...(['name', 'email', 'phone'] as const).filter((k) => fill[k] !== null),
      ...(!m.related ? ['relationship'] : []),
      ...(m.related && next.external_id !== m.external_id ? ['external_id'] : []),
      ...(m.related && next.merchant_note !== m.merchant_note ? ['merchant_note'] : []),
      ...(m.related && next.marketing_opted_in !== m.marketing_opted_in ? ['marketing_opted_in'] : []),
    ];
    if (changed.length === 0) {
      report.body.unchanged++;
      continue;
    }
    writes.push({ id: m.id, is_new: false, ...fill, ...next });
    report.body.updated++;
    await emit(
      tx,
      {
        storeId,
        type: 'customer.updated',
        data: {
          id: m.id,
          name: m.name ?? c.name,
          phone: m.phone ?? c.phone,
          email: m.email ?? c.email,
          changed_fields: changed,
          source: 'import',
        },
      },
      now,
    );
  }
  if (writes.length) await writeCustomers(tx, storeId, writes, now.toISOString());
}

export async function importCustomers(
  ctx: MerchantContext,
  input: Omit<ImportInput, 'kind' | 'fields'>,
): Promise<ImportReportBody> {
  const seen = new SeenInFile();
  const matched = new Set<string>();
  return runImport(ctx, { ...input, kind: 'customers', fields: CUSTOMER_FIELDS }, (tx, rows, report) =>
    importBatch(ctx, tx, rows, report, seen, matched),
  );
}
