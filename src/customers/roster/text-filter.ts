// The text filter shared by the roster and search: a substring of the name or email, or of the
// phone when the term is written like a phone number in any spelling.

/** Escapes LIKE's wildcards so a typed % or _ matches itself. */
function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (m) => `\\${m}`);
}

/**
 * The digits to look for inside an E.164 phone, or null when the term is not phone-like.
 * "07700 900123", "(07700) 900-123", "+44 7700 900123", "447700900123" and "0044 7700 900123"
 * all find +447700900123: a leading 00 (international prefix) or 0 (UK trunk prefix) is dropped,
 * because E.164 holds neither.
 */
export function phoneDigits(term: string): string | null {
  if (!/^[0-9+()\-.\s]+$/.test(term)) return null;
  let digits = term.replace(/\D/g, '');
  if (digits.startsWith('00')) digits = digits.slice(2);
  else if (digits.startsWith('0')) digits = digits.slice(1);
  // Fewer digits than this match too much of any phone column to mean a phone.
  return digits.length >= 3 ? digits : null;
}

export interface TextFilter {
  sql: string;
  params: unknown[];
}

/**
 * A WHERE fragment over store_customers `sc` for `term`, numbering its placeholders from `next`.
 * Each branch is a LIKE on the relationship's copy of the customer's lower(name), email or phone
 * (migration 280), which the per-store trigram index store_customers_search_trgm serves: a search
 * reads this store's matches, not the platform's.
 */
export function textFilter(term: string, next: number): TextFilter {
  const pattern = `%${likeEscape(term.toLowerCase())}%`;
  const params: unknown[] = [pattern];
  const branches = [`sc.search_name LIKE $${next}`, `sc.search_email LIKE $${next}`];
  const digits = phoneDigits(term);
  if (digits) {
    params.push(`%${digits}%`);
    branches.push(`sc.search_phone LIKE $${next + 1}`);
  }
  return { sql: `(${branches.join(' OR ')})`, params };
}
