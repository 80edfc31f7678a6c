// Appointment history by person (searchAppointmentPeople).
import type { MerchantContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { findStoreZone } from '../diary/store-days.ts';
import { searchPeople, type PersonRow } from './appointment-search.repository.ts';
import { readHandle } from '../../platform/db/read-routing.plugin.ts';
import { searchTokens } from '../../customers/roster/text-filter.ts';
import {
  DEFAULT_PEOPLE,
  DEFAULT_VISITS,
  MIN_QUERY_LENGTH,
  type PersonSummary,
  type SearchQuery,
  type SearchResponse,
} from './appointment-search.schemas.ts';

/** The needle as searched and echoed: trimmed, inner whitespace collapsed to one space, lower-cased. */
export function normaliseNeedle(q: string): string {
  return q.trim().replace(/\s+/g, ' ').toLowerCase();
}

/** LIKE treats % and _ as wildcards and \ as the escape; a needle containing them means them literally. */
function likePattern(needle: string): string {
  return `%${needle.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function toPeople(rows: PersonRow[]): PersonSummary[] {
  const people = new Map<string, PersonSummary>();
  for (const row of rows) {
    let person = people.get(row.key);
    if (!person) {
      person = {
        key: row.key,
        customer_id: row.customer_id,
        name: row.name ?? '',
        email: row.email,
        currency: row.currency,
        visits: row.visits,
        no_shows: row.no_shows,
        cancelled: row.cancelled,
        unresolved: row.unresolved,
        first_visit: row.first_visit,
        last_visit: row.last_visit,
        next_visit: row.next_visit,
        spend_pence: row.spend_pence,
        recent: [],
      };
      people.set(row.key, person);
    }
    if (row.r_id) {
      person.recent.push({
        id: row.r_id,
        starts_at: row.r_starts_at,
        ends_at: row.r_ends_at,
        status: row.r_status,
        payment_status: row.r_payment_status,
        price_pence: row.r_price_pence,
        currency: row.r_currency,
        unit_name: row.r_unit_name,
      });
    }
  }
  return [...people.values()];
}

export async function searchAppointmentPeople(ctx: MerchantContext, query: SearchQuery): Promise<SearchResponse> {
  const needle = normaliseNeedle(query.q);
  if ([...needle].length < MIN_QUERY_LENGTH) {
    throw new AppError('QUERY_TOO_SHORT', `q needs at least ${MIN_QUERY_LENGTH} characters`);
  }
  const db = await readHandle(ctx); // the replica when it has every write this store made
  const store = await findStoreZone(db, ctx.actor.storeId);
  const rows = await searchPeople(db, {
    storeId: store.id,
    pattern: likePattern(needle),
    tokens: searchTokens(store.id, needle),
    now: ctx.clock.now(),
    limit: query.limit ?? DEFAULT_PEOPLE,
    visitLimit: query.visit_limit ?? DEFAULT_VISITS,
  });
  return {
    store_id: store.id,
    timezone: store.timezone,
    query: needle,
    total: rows[0]?.total ?? 0,
    people: toPeople(rows),
  };
}
