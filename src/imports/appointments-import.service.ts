// POST /api/v1/imports/appointments: each row's unit and service found by id or name, its start read
// as the store's wall time, its person checked; then the batch goes to the booking authority
// (importAppointments), where the exclusion constraint decides each row. Imported appointments are
// source 'import': no confirmation or reminder is planned for them.
import { createHash } from 'node:crypto';
import type { MerchantContext } from '../platform/context.ts';
import type { Tx } from '../platform/db/port.ts';
import { importAppointments, type ImportedAppointment } from '../bookings/booking-authority.ts';
import { APPOINTMENT_FIELDS } from './columns.ts';
import { runImport, type ImportInput, type ImportRow, type Report } from './import-run.ts';
import { personOf, SeenInFile } from './row-rules.ts';
import { refreshStatisticsWhenSmall, storeCatalogue, type Catalogue } from './appointments-import.repository.ts';
import type { ImportReportBody } from './imports.schemas.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_LOCAL = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::00)?$/;
const UK_LOCAL = /^(\d{2})\/(\d{2})\/(\d{4}) (\d{2}):(\d{2})$/;

/** A wall time as YYYY-MM-DD HH:MM (ISO, or the UK's DD/MM/YYYY HH:MM), or null when it is no calendar time. */
export function wallTime(raw: string): string | null {
  const iso = ISO_LOCAL.exec(raw.trim());
  const uk = iso ? null : UK_LOCAL.exec(raw.trim());
  if (!iso && !uk) return null;
  const [y, mo, d, h, mi] = iso ? [iso[1], iso[2], iso[3], iso[4], iso[5]] : [uk![3], uk![2], uk![1], uk![4], uk![5]];
  const date = new Date(Date.UTC(+y, +mo - 1, +d, +h, +mi));
  if (date.getUTCMonth() !== +mo - 1 || date.getUTCDate() !== +d || +h > 23 || +mi > 59) return null;
  return `${y}-${mo}-${d} ${h}:${mi}`;
}

/** By id, else by its name (trimmed, any case); a name two of them share is ambiguous. */
function find<T extends { id: string; name: string }>(list: T[], raw: string): T | 'unknown' | 'ambiguous' {
  const v = raw.trim();
  if (UUID.test(v)) return list.find((x) => x.id === v.toLowerCase()) ?? 'unknown';
  const named = list.filter((x) => x.name.trim().toLowerCase() === v.toLowerCase());
  return named.length === 1 ? named[0] : named.length ? 'ambiguous' : 'unknown';
}

/** The unit or service the row names; null once the report says why there is no single one. */
function findNamed<T extends { id: string; name: string }>(
  list: T[],
  raw: string,
  field: 'unit' | 'service',
  line: number,
  report: Report,
): T | null {
  const found = find(list, raw);
  if (typeof found !== 'string') return found;
  const code = `${found === 'unknown' ? 'UNKNOWN' : 'AMBIGUOUS'}_${field.toUpperCase()}`;
  report.error(line, field, code, `No single ${field} of the store is "${raw.slice(0, 80)}"`);
  return null;
}

function checkRow(row: ImportRow, cat: Catalogue, report: Report, seen: SeenInFile): ImportedAppointment | null {
  const f = row.fields;
  const line = row.line;
  if (!f.unit) return (void report.error(line, 'unit', 'REQUIRED', 'The unit (staff member) is missing'), null);
  const unit = findNamed(cat.units, f.unit, 'unit', line, report);
  if (!unit) return null;
  if (!unit.bookable)
    return (void report.error(line, 'unit', 'UNIT_NOT_BOOKABLE', 'The unit is inactive or not bookable'), null);
  let service = null;
  if (f.service) {
    service = findNamed(cat.services, f.service, 'service', line, report);
    if (!service) return null;
  }
  if (!f.start) return (void report.error(line, 'start', 'REQUIRED', 'The start is missing'), null);
  const start = wallTime(f.start);
  if (!start)
    return (
      void report.error(line, 'start', 'INVALID_START', "The start must be YYYY-MM-DD HH:MM in the store's time zone"),
      null
    );
  let minutes = service?.duration_min ?? null;
  if (f.minutes !== undefined) minutes = /^\d{1,4}$/.test(f.minutes.trim()) ? Number(f.minutes) : -1;
  if (minutes === null)
    return (void report.error(line, 'minutes', 'REQUIRED', 'minutes are needed when no service is named'), null);
  if (minutes < 1 || minutes > 1440)
    return (
      void report.error(line, 'minutes', 'INVALID_MINUTES', 'minutes must be a whole number from 1 to 1440'), null
    );
  let price = service?.price_pence ?? 0;
  if (f.price !== undefined) {
    const m = /^£?\s*(\d{1,6})(?:\.(\d{1,2}))?$/.exec(f.price.trim());
    if (!m)
      return (void report.error(line, 'price', 'INVALID_VALUE', 'price must be in pounds, such as 30 or 30.50'), null);
    price = Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
  }
  const person = personOf(line, f, report);
  if (!person) return null;
  const external = f.external_id?.trim() || null;
  // Without an external_id, the row's own content is its identity: the same row again is the same appointment.
  const token = external
    ? `import:${external}`
    : `import:${createHash('sha256')
        .update([unit.id, start, person.email ?? '', person.phone ?? '', person.name ?? ''].join('\n'))
        .digest('hex')
        .slice(0, 32)}`;
  if (seen.repeated(line, 'external_id', token, report)) return null;
  seen.remember(line, 'external_id', token);
  return {
    line,
    unit_id: unit.id,
    service_id: service?.id ?? null,
    local_start: start,
    minutes,
    buffer_before: service?.buffer_before_min ?? 0,
    buffer_after: service?.buffer_after_min ?? 0,
    price_pence: price,
    email: person.email,
    phone: person.phone,
    name: person.name,
    client_token: token,
  };
}

async function importBatch(
  ctx: MerchantContext,
  tx: Tx,
  rows: ImportRow[],
  report: Report,
  seen: SeenInFile,
  cat: Catalogue,
  stats: { fresh: boolean },
) {
  const checked = rows.map((r) => checkRow(r, cat, report, seen)).filter((r): r is ImportedAppointment => r !== null);
  if (checked.length === 0) return;
  const outcomes = await importAppointments(ctx, tx, ctx.actor.storeId, checked);
  if (!stats.fresh && outcomes.filter((o) => o.outcome === 'created').length >= 50) {
    stats.fresh = true;
    await refreshStatisticsWhenSmall(tx);
  }
  for (const outcome of outcomes) {
    if (outcome.outcome === 'created') report.body.created++;
    else if (outcome.outcome === 'unchanged') report.body.unchanged++;
    else
      report.error(
        outcome.row,
        outcome.field ?? 'row',
        outcome.code ?? 'REFUSED',
        outcome.message ?? 'The row was refused',
      );
  }
}

export async function importAppointmentsFile(
  ctx: MerchantContext,
  input: Omit<ImportInput, 'kind' | 'fields'>,
): Promise<ImportReportBody> {
  const seen = new SeenInFile();
  const cat = await storeCatalogue(ctx.db, ctx.actor.storeId);
  const stats = { fresh: false };
  // 200 a statement: each row is a subtransaction with its triggers, and one statement must stay well
  // inside the adapter's 15 s read timeout on a busy host (docs/performance.md, issue 45).
  return runImport(
    ctx,
    { ...input, kind: 'appointments', fields: APPOINTMENT_FIELDS, batchRows: 200 },
    (tx, rows, report) => importBatch(ctx, tx, rows, report, seen, cat, stats),
  );
}
