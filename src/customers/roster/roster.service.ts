import type { MerchantContext } from '../../platform/context.ts';
import { rosterCount, rosterMatchesPage, rosterPage, searchCustomers } from './roster.repository.ts';
import { ROSTER_PAGE, SEARCH_LIMIT, type RosterQuery, type SearchQuery } from './roster.schemas.ts';
import { choosePlan } from './search-plan.ts';
import { readHandle } from '../../platform/db/read-routing.plugin.ts';

/** Search filters only from this many characters; a shorter term lists the most recent customers. */
const SEARCH_MIN_CHARS = 2;

export async function listRoster(ctx: MerchantContext, query: RosterQuery) {
  const q = query.q?.trim();
  // The schema fills the defaults; the fallbacks only satisfy the type checker.
  const sort = query.sort ?? 'recent';
  const limit = query.limit ?? ROSTER_PAGE.default;
  const offset = query.offset ?? 0;
  const filter = {
    storeId: ctx.actor.storeId,
    now: ctx.clock.now().toISOString(),
    stage: query.stage,
    facets: query.facets ? query.facets.split(',') : [],
    q: q || undefined,
  };
  const paging = { sort, limit, offset };
  const db = await readHandle(ctx); // the replica when it has every write this store made
  let rows;
  let total;
  if (filter.q) {
    // The page carries the total; only a page past the end has to count separately.
    const matches = await rosterMatchesPage(db, filter, paging);
    rows = matches.rows;
    total = matches.total ?? (await rosterCount(db, filter));
  } else {
    [rows, total] = await Promise.all([rosterPage(db, filter, paging), rosterCount(db, filter)]);
  }
  const customers = rows.slice(0, limit);
  return {
    customers,
    pagination: { limit, offset, has_more: rows.length > limit, total_count: total },
  };
}

export async function searchRoster(ctx: MerchantContext, query: SearchQuery) {
  const term = query.q?.trim() ?? '';
  const db = await readHandle(ctx); // the replica when it has every write this store made
  const needle = term.length >= SEARCH_MIN_CHARS ? term : null;
  const plan = needle ? await choosePlan(db, ctx.actor.storeId, needle, SEARCH_LIMIT) : undefined;
  let customers = await searchCustomers(db, ctx.actor.storeId, needle, SEARCH_LIMIT, plan);
  // A capped walk that did not fill the page gave up (the term was rarer than its tokens): the matches.
  if (plan?.kind === 'walk' && plan.cap !== null && customers.length < SEARCH_LIMIT) {
    customers = await searchCustomers(db, ctx.actor.storeId, needle, SEARCH_LIMIT, { kind: 'matches' });
  }
  return { customers };
}
