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
 * The store's search tokens a value containing `text` must carry (db/functions/customer-search-keys.sql,
 * bbo_search_tokens): each trigram inside a run of letters and digits of the lower-cased text, prefixed
 * by the first 8 hex digits of the store id. Only ASCII runs are used: a trigram of ASCII letters and
 * digits inside a word of the text is inside the same word of any value containing the text, so the
 * tokens are a necessary condition and the LIKE beside them decides. Empty when the text has no run of
 * 3 (a 2-letter needle): the search then reads the store's relationships without the index.
 */
export function searchTokens(storeId: string, text: string): string[] {
  const prefix = `${storeId.toLowerCase().slice(0, 8)}:`;
  const tokens = new Set<string>();
  for (const word of text.toLowerCase().split(/[^a-z0-9]+/)) {
    // A run touching a non-ASCII letter is part of a longer word in PostgreSQL's eyes: its inner
    // trigrams are still that word's, so they stay valid.
    for (let i = 0; i + 3 <= word.length; i++) tokens.add(prefix + word.slice(i, i + 3));
  }
  return [...tokens];
}

/**
 * A WHERE fragment over store_customers `sc` for `term` in store `storeId`, numbering its placeholders
 * from `next`. Each branch is a LIKE on the relationship's copy of the customer's lower(name), email
 * or phone (migration 280), behind the store's trigram tokens, which the GIN index
 * store_customers_search_tokens serves: a search reads this store's matches, not the platform's.
 */
export function textFilter(term: string, next: number, storeId: string, useTokens = true): TextFilter {
  const lowered = term.toLowerCase();
  const pattern = `%${likeEscape(lowered)}%`;
  const params: unknown[] = [pattern];
  // useTokens false: the LIKE alone, for a plan that walks the store's rows in an index's order and
  // tests each (the customer search's recency walk, search-plan.ts); the matches are the same.
  const tokens = useTokens ? searchTokens(storeId, lowered) : [];
  let text = `(sc.search_name LIKE $${next} OR sc.search_email LIKE $${next})`;
  if (tokens.length) {
    params.push(tokens);
    text = `(sc.search_tokens @> $${next + 1}::text[] AND ${text})`;
  }
  const branches = [text];
  const digits = phoneDigits(term);
  if (digits) {
    const n = next + params.length;
    params.push(`%${digits}%`);
    const digitTokens = useTokens ? searchTokens(storeId, digits) : [];
    let phone = `sc.search_phone LIKE $${n}`;
    if (digitTokens.length) {
      params.push(digitTokens);
      phone = `(sc.search_tokens @> $${n + 1}::text[] AND ${phone})`;
    }
    branches.push(phone);
  }
  return { sql: `(${branches.join(' OR ')})`, params };
}
