// Which column of the file is which field: the usual names other systems export (Fresha, Square,
// Timely, a spreadsheet), then the request's `mapping` for the rest. An unknown column that the
// mapping does not name refuses the file (400 UNKNOWN_COLUMN) before anything is written.
import { AppError } from '../platform/errors/app-error.ts';

export const CUSTOMER_FIELDS = [
  'external_id',
  'name',
  'first_name',
  'last_name',
  'email',
  'mobile',
  'notes',
  'marketing',
] as const;
export const APPOINTMENT_FIELDS = [
  'external_id',
  'unit',
  'service',
  'start',
  'minutes',
  'name',
  'email',
  'mobile',
  'price',
] as const;
export type CustomerField = (typeof CUSTOMER_FIELDS)[number];
export type AppointmentField = (typeof APPOINTMENT_FIELDS)[number];

/** Header spellings, compared after normalising (lower case, `_`/`-`/`.` as spaces, spaces collapsed). */
const COMMON: Record<string, string> = {
  'external id': 'external_id',
  id: 'external_id',
  'client id': 'external_id',
  'customer id': 'external_id',
  reference: 'external_id',
  name: 'name',
  'full name': 'name',
  'client name': 'name',
  'customer name': 'name',
  client: 'name',
  customer: 'name',
  email: 'email',
  'email address': 'email',
  'e mail': 'email',
  'client email': 'email',
  'customer email': 'email',
  mobile: 'mobile',
  'mobile number': 'mobile',
  phone: 'mobile',
  'phone number': 'mobile',
  telephone: 'mobile',
  'mobile phone': 'mobile',
  cell: 'mobile',
  'client mobile': 'mobile',
  'client phone': 'mobile',
  'customer phone': 'mobile',
};
const CUSTOMER_ALIASES: Record<string, CustomerField> = {
  ...(COMMON as Record<string, CustomerField>),
  'first name': 'first_name',
  firstname: 'first_name',
  'given name': 'first_name',
  forename: 'first_name',
  'last name': 'last_name',
  lastname: 'last_name',
  surname: 'last_name',
  'family name': 'last_name',
  notes: 'notes',
  note: 'notes',
  comments: 'notes',
  'client notes': 'notes',
  marketing: 'marketing',
  'accepts marketing': 'marketing',
  'marketing opt in': 'marketing',
  'marketing consent': 'marketing',
  'email marketing': 'marketing',
  'opted in': 'marketing',
};
const APPOINTMENT_ALIASES: Record<string, AppointmentField> = {
  ...(COMMON as Record<string, AppointmentField>),
  'appointment id': 'external_id',
  'booking id': 'external_id',
  'booking reference': 'external_id',
  unit: 'unit',
  'unit id': 'unit',
  staff: 'unit',
  'staff member': 'unit',
  'team member': 'unit',
  employee: 'unit',
  resource: 'unit',
  service: 'service',
  'service id': 'service',
  'service name': 'service',
  treatment: 'service',
  start: 'start',
  'starts at': 'start',
  'start time': 'start',
  'date time': 'start',
  'appointment start': 'start',
  scheduled: 'start',
  minutes: 'minutes',
  duration: 'minutes',
  length: 'minutes',
  'duration minutes': 'minutes',
  'duration mins': 'minutes',
  price: 'price',
  'price pence': 'price',
};

export const normaliseHeader = (h: string) =>
  h
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/[_\-.]+/g, ' ')
    .replace(/\s+/g, ' ');

/**
 * The request's `mapping` query parameter: a JSON object from a header (as written in the file) to
 * a field name, or to null to ignore that column. Malformed: 400 VALIDATION_FAILED.
 */
export function parseMapping(raw: string | undefined, fields: readonly string[]): Map<string, string | null> {
  const map = new Map<string, string | null>();
  if (raw === undefined || raw === '') return map;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new AppError(
      'VALIDATION_FAILED',
      'mapping must be a JSON object of "column": "field" (or null to ignore the column)',
    );
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new AppError(
      'VALIDATION_FAILED',
      'mapping must be a JSON object of "column": "field" (or null to ignore the column)',
    );
  }
  for (const [column, field] of Object.entries(parsed as Record<string, unknown>)) {
    if (field !== null && (typeof field !== 'string' || !fields.includes(field))) {
      throw new AppError('VALIDATION_FAILED', `mapping: "${column}" must map to one of ${fields.join(', ')}, or null`);
    }
    map.set(normaliseHeader(column), field as string | null);
  }
  return map;
}

/** For each column of the header, its field (null: ignored). Unknown or repeated fields refuse the file. */
export function resolveHeader(
  kind: 'customers' | 'appointments',
  header: string[],
  mapping: Map<string, string | null>,
): Array<string | null> {
  const aliases: Record<string, string> = kind === 'customers' ? CUSTOMER_ALIASES : APPOINTMENT_ALIASES;
  const seen = new Set<string>();
  return header.map((raw) => {
    const h = normaliseHeader(raw);
    const field = mapping.has(h) ? mapping.get(h)! : (aliases[h] ?? undefined);
    if (field === undefined) {
      throw new AppError(
        'UNKNOWN_COLUMN',
        `The column "${raw.slice(0, 60)}" is not one the import knows; name its field in mapping, or map it to null to ignore it`,
      );
    }
    if (field !== null) {
      if (seen.has(field)) throw new AppError('UNKNOWN_COLUMN', `Two columns are ${field}; map one of them to null`);
      seen.add(field);
    }
    return field;
  });
}

/** One record as {field: value}, blank values dropped. */
export function fieldsOf(columns: Array<string | null>, values: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  columns.forEach((field, i) => {
    const v = values[i];
    if (field && v !== undefined && v !== '') out[field] = v;
  });
  return out;
}
