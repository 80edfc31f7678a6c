// The checks a row's person fields pass, shared by both imports, with the rules the customer edit
// uses (docs/decisions/customers.md): names at most 80 characters, emails lower-cased with one @ and
// a dotted domain, mobiles UK (libphonenumber) stored as E.164.
import { ukMobileE164 } from '../platform/uk-mobile.ts';
import type { Report } from './import-run.ts';

const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s.]+$/;

export interface Person {
  name: string | null;
  email: string | null;
  phone: string | null;
}

/** The row's name, email and mobile normalised, or null after reporting the first fault. */
export function personOf(line: number, f: Record<string, string>, report: Report): Person | null {
  const name = (f.name ?? [f.first_name, f.last_name].filter(Boolean).join(' ')).trim() || null;
  if (name && [...name].length > 80) {
    report.error(line, 'name', 'NAME_TOO_LONG', 'The name is longer than 80 characters');
    return null;
  }
  const email = f.email ? f.email.trim().toLowerCase() : null;
  if (email && (email.length > 254 || !EMAIL.test(email))) {
    report.error(line, 'email', 'INVALID_EMAIL', 'The email address is malformed');
    return null;
  }
  let phone: string | null = null;
  if (f.mobile) {
    phone = ukMobileE164(f.mobile);
    if (!phone) {
      report.error(line, 'mobile', 'INVALID_PHONE', 'The mobile is not a UK mobile number');
      return null;
    }
  }
  return { name, email, phone };
}

/** Values that must be unique within one file: the first row keeps it, later rows are refused. */
export class SeenInFile {
  private readonly seen = new Map<string, number>();
  /** True (and reported) when another row of the file already had this value. */
  repeated(line: number, field: string, value: string | null, report: Report): boolean {
    if (!value) return false;
    const key = `${field}\u0000${value}`;
    const first = this.seen.get(key);
    if (first !== undefined) {
      report.error(line, field, 'DUPLICATE_IN_FILE', `The same ${field} is on line ${first} of the file`);
      return true;
    }
    return false;
  }
  remember(line: number, field: string, value: string | null): void {
    if (value) this.seen.set(`${field}\u0000${value}`, line);
  }
}
