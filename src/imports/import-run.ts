// What both imports share: the file read as records, the header resolved to fields, the rows handed
// on in batches, and one transaction around the whole file. A dry run is the same run rolled back,
// so its report is the real run's report. Any refusal of the file (encoding, size, an unknown column,
// not CSV) rolls back every batch already written: nothing changes.
import type { MerchantContext } from '../platform/context.ts';
import type { Tx } from '../platform/db/port.ts';
import { AppError } from '../platform/errors/app-error.ts';
import { collectEvents, dropEvents, takeEvents } from '../events/outbox.ts';
import { writeCollected } from '../platform/flush.ts';
import { batches, csvRecords } from './csv-source.ts';
import { fieldsOf, parseMapping, resolveHeader } from './columns.ts';
import type { ImportReportBody } from './imports.schemas.ts';

/** Rows sent to the database in one statement: large enough to amortise the round trip, small enough to keep memory flat. */
export const BATCH_ROWS = 500;

export interface ImportRow {
  line: number;
  fields: Record<string, string>;
}

export interface ImportInput {
  kind: 'customers' | 'appointments';
  fields: readonly string[];
  body: AsyncIterable<Buffer | string>;
  limitBytes: number;
  mapping: string | undefined;
  dryRun: boolean;
  /** Rows a statement; BATCH_ROWS unless the kind needs fewer. */
  batchRows?: number;
}

export class Report {
  readonly body: ImportReportBody;
  constructor(dryRun: boolean) {
    this.body = { dry_run: dryRun, rows: 0, created: 0, updated: 0, unchanged: 0, skipped: 0, errors: [] };
  }
  error(row: number, field: string, code: string, message: string): void {
    this.body.skipped++;
    this.body.errors.push({ row, field, code, message });
  }
}

class RolledBack extends Error {}

/**
 * Runs the file through processBatch inside one transaction, events collected per batch and
 * written with it; commits, or for a dry run rolls back. Returns the report.
 */
export async function runImport(
  ctx: MerchantContext,
  input: ImportInput,
  processBatch: (tx: Tx, rows: ImportRow[], report: Report) => Promise<void>,
): Promise<ImportReportBody> {
  const mapping = parseMapping(input.mapping, input.fields);
  const report = new Report(input.dryRun);
  try {
    await ctx.db.transaction(async (tx) => {
      const records = csvRecords(input.body, input.limitBytes);
      const first = await records.next();
      if (first.done) throw new AppError('IMPORT_EMPTY', 'The file is empty');
      const columns = resolveHeader(input.kind, first.value.values, mapping);
      const width = first.value.values.length;
      async function* rows(): AsyncGenerator<ImportRow> {
        for await (const record of records) {
          report.body.rows++;
          if (record.values.length !== width) {
            report.error(
              record.line,
              'row',
              'COLUMN_COUNT',
              `The row has ${record.values.length} fields where the header has ${width}`,
            );
            continue;
          }
          yield { line: record.line, fields: fieldsOf(columns, record.values) };
        }
      }
      for await (const batch of batches(rows(), input.batchRows ?? BATCH_ROWS)) {
        collectEvents(tx);
        try {
          await processBatch(tx, batch, report);
          await writeCollected(tx, { audit: [], events: takeEvents(tx) });
        } finally {
          dropEvents(tx);
        }
      }
      if (report.body.rows === 0) throw new AppError('IMPORT_EMPTY', 'The file has a header row and no rows under it');
      if (input.dryRun) throw new RolledBack();
    });
  } catch (err) {
    if (!(err instanceof RolledBack)) throw err;
  }
  report.body.errors.sort((a, b) => a.row - b.row);
  return report.body;
}
