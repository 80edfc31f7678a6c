// Which plan the customer search takes for a term (searchCustomers): walk the store's recency index,
// testing each relationship until the page is full, or read the term's matches through the store's
// trigram tokens and sort them. The walk reads about limit × (the store's relationships / matches)
// rows, the matches about one heap page each, so the walk is cheaper when matches² > limit × rows.
// PostgreSQL cannot make this choice for a substring (it multiplies the LIKE's and the tokens'
// selectivities as if independent, so its estimate of a common name's matches is 20-80 times low:
// docs/decisions/search-aggregates.md); the app makes it from the same statistics: the frequency of
// each of the term's tokens in store_customers.search_tokens (pg_stats.most_common_elems, kept for
// the large stores' tokens by its statistics target of 2,000) and the store's share of the rows
// (most_common_vals of store_id). A term has no more matches than its rarest token has rows, so that is
// the estimate. Read once per process and again after TTL_MS; a failure or no statistics (a table
// never analysed) chooses `matches`, whose cost follows the matches. Either plan returns the same rows.
import type { Queryable } from '../../platform/db/port.ts';
import { readSearchStatistics, type SearchPlan, type SearchStatistics } from './roster.repository.ts';
import { phoneDigits, searchTokens } from './text-filter.ts';

const TTL_MS = 60_000;
const MATCHES: SearchPlan = { kind: 'matches' };

export interface Frequencies {
  rows: number;
  tokens: Map<string, number>;
  /** The least frequency the list records: a token missing from it is at most this common. */
  tokenFloor: number;
  stores: Map<string, number>;
  storeFloor: number;
}

let cached: { at: number; value: Promise<Frequencies | null> } | null = null;

function frequencies(s: SearchStatistics | null): Frequencies | null {
  if (!s || !(s.rows > 0) || !s.elems?.length || !s.elem_freqs) return null;
  const n = s.elems.length;
  const tokens = new Map(s.elems.map((e, i) => [e, s.elem_freqs![i]]));
  const stores = new Map((s.stores ?? []).map((id, i) => [id, s.store_freqs![i]]));
  // most_common_elem_freqs ends with the least and greatest frequency and the null share.
  const tokenFloor = s.elem_freqs[n] ?? Math.min(...s.elem_freqs.slice(0, n));
  const storeFloor = s.store_freqs?.length ? Math.min(...s.store_freqs) : 1;
  return { rows: s.rows, tokens, tokenFloor, stores, storeFloor };
}

async function load(db: Queryable): Promise<Frequencies | null> {
  const now = Date.now();
  if (!cached || now - cached.at > TTL_MS) {
    cached = { at: now, value: readSearchStatistics(db).then(frequencies, () => null) };
  }
  return cached.value;
}

/** The plan for `term` in the store, from the statistics `f` (null: none, read the matches). */
export function planFor(f: Frequencies | null, storeId: string, term: string, limit: number): SearchPlan {
  const branches = [searchTokens(storeId, term.toLowerCase())];
  const digits = phoneDigits(term);
  if (digits) branches.push(searchTokens(storeId, digits));
  // A branch the index cannot serve (no run of 3) reads the store's rows in either plan: walk them.
  if (branches.some((tokens) => tokens.length === 0)) return { kind: 'walk', cap: null };
  if (!f) return MATCHES;
  const rows = (token: string) => (f.tokens.get(token) ?? f.tokenFloor) * f.rows;
  const matches = branches.reduce((sum, tokens) => sum + Math.min(...tokens.map(rows)), 0);
  const storeRows = (f.stores.get(storeId) ?? f.storeFloor) * f.rows;
  // The estimate is an upper bound ("smith@" has the rows of "smi" and no match): the walk stops after
  // twice the crossover's cost and the caller reads the matches instead (searchRoster).
  const crossover = Math.sqrt(limit * storeRows);
  return matches > crossover ? { kind: 'walk', cap: Math.ceil(2 * crossover) } : MATCHES;
}

export async function choosePlan(db: Queryable, storeId: string, term: string, limit: number): Promise<SearchPlan> {
  return planFor(await load(db), storeId, term, limit);
}
