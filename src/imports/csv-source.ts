// An uploaded CSV, read as it arrives: bytes counted against the import's own limit, decoded as
// strict UTF-8 (a BOM dropped), the delimiter (comma or semicolon) chosen from the header line, and
// parsed by csv-parse into records with their line numbers. Nothing holds the whole file.
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { AppError } from '../platform/errors/app-error.ts';

export interface CsvRecord {
  /** The record's line number in the file (the header is line 1). */
  line: number;
  values: string[];
}

/** The text of the upload, chunk by chunk; refuses bytes over the limit and anything not UTF-8. */
async function* utf8Text(body: AsyncIterable<Buffer | string>, limitBytes: number): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  let bytes = 0;
  for await (const chunk of body) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    bytes += buf.length;
    if (bytes > limitBytes)
      throw new AppError('IMPORT_TOO_LARGE', `The file is larger than ${limitBytes} bytes; split it`);
    let text: string;
    try {
      text = decoder.decode(buf, { stream: true });
    } catch {
      throw new AppError('INVALID_ENCODING', 'The file is not UTF-8; save it as "CSV UTF-8" and send it again');
    }
    if (text.includes('\0')) throw new AppError('INVALID_CSV', 'The file is not CSV text (it holds a NUL byte)');
    if (text) yield text;
  }
  try {
    const rest = decoder.decode();
    if (rest) yield rest;
  } catch {
    throw new AppError('INVALID_ENCODING', 'The file is not UTF-8 (it ends inside a character)');
  }
}

/** Comma unless the header line has more semicolons than commas (Excel in much of Europe). */
export function delimiterOf(headerLine: string): ',' | ';' {
  const count = (c: string) => headerLine.split(c).length - 1;
  return count(';') > count(',') ? ';' : ',';
}

/**
 * The records of the file in order, the header first (line 1). Empty lines are skipped; a row
 * with a different number of fields than the header is still yielded (the caller reports it).
 */
export async function* csvRecords(body: AsyncIterable<Buffer | string>, limitBytes: number): AsyncGenerator<CsvRecord> {
  const text = utf8Text(body, limitBytes);
  // Read up to the end of the first line to choose the delimiter, then hand everything on.
  let head = '';
  let done = false;
  while (!/[\r\n]/.test(head)) {
    const next = await text.next();
    if (next.done) {
      done = true;
      break;
    }
    head += next.value;
  }
  if (!head.trim()) throw new AppError('IMPORT_EMPTY', 'The file is empty');
  const delimiter = delimiterOf(head.split(/\r?\n|\r/, 1)[0]);
  async function* all() {
    yield head;
    if (!done) yield* text;
  }
  const parser = parse({
    delimiter,
    bom: true,
    relax_column_count: true,
    skip_empty_lines: true,
    info: true,
    trim: true,
  });
  const source = Readable.from(all());
  source.on('error', (err) => parser.destroy(err));
  source.pipe(parser);
  try {
    for await (const item of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      yield { line: item.info.lines, values: item.record };
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const e = err as { code?: string; lines?: number; message?: string };
    if (typeof e.code === 'string' && e.code.startsWith('CSV_')) {
      throw new AppError('INVALID_CSV', `The file is not valid CSV near line ${e.lines ?? '?'} (${e.code})`);
    }
    throw err;
  } finally {
    source.destroy();
  }
}

/** Records in groups of `size`, so each group goes to the database as one statement. */
export async function* batches<T>(items: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = [];
  for await (const item of items) {
    batch.push(item);
    if (batch.length >= size) {
      yield batch;
      batch = [];
    }
  }
  if (batch.length) yield batch;
}
