// GET /api/v1/customers/list (roster) and GET /api/v1/customers/search. The spec leaves the
// roster's parameter names and the search term's name unshown; these are recorded in docs/decisions/customers.md.
import { Type, type Static } from 'typebox';
import { Instant, Nullable, NullableInstant, Uuid } from '../../platform/http/schemas.ts';
import { customerContact } from '../customer-contact.schemas.ts';
import { LIFECYCLE_STAGES } from './lifecycle.ts';
import { offsetPageQuery, offsetPagination } from '../offset-page.schemas.ts';

export const ROSTER_PAGE = { default: 30, max: 100 } as const;
export const SEARCH_LIMIT = 20;
export const ROSTER_SORTS = ['recent', 'spend', 'visits', 'name'] as const;
export const ROSTER_FACETS = ['has_orders', 'has_stamps', 'marketing_opted_in'] as const;

const facet = `(${ROSTER_FACETS.join('|')})`;

export const RosterQuery = Type.Object(
  {
    store_id: Uuid,
    sort: Type.Optional(Type.Enum(ROSTER_SORTS, { default: 'recent' })),
    stage: Type.Optional(Type.Enum(LIFECYCLE_STAGES, { description: 'Only customers in this lifecycle stage' })),
    facets: Type.Optional(
      Type.String({
        pattern: `^(${facet}(,${facet})*)?$`,
        description: 'Comma-separated; every facet listed must hold (AND)',
      }),
    ),
    q: Type.Optional(Type.String({ maxLength: 200, description: 'Substring of name, email or phone (any spelling)' })),
    ...offsetPageQuery(ROSTER_PAGE),
  },
  { additionalProperties: false },
);
export type RosterQuery = Static<typeof RosterQuery>;

export const RosterRow = Type.Object({
  ...customerContact,
  last_visit_at: NullableInstant,
  lifecycle_stage: Type.Enum(LIFECYCLE_STAGES),
  total_visits: Type.Integer(),
  stamp_count: Type.Integer(),
  order_count: Type.Integer(),
  total_spent_pence: Type.Integer(),
  marketing_opted_in: Type.Boolean(),
});
export type RosterRow = Static<typeof RosterRow>;

export const RosterResponse = Type.Object({
  customers: Type.Array(RosterRow),
  pagination: Type.Object({
    ...offsetPagination,
    total_count: Type.Integer(),
  }),
});

export const SearchQuery = Type.Object(
  {
    store_id: Uuid,
    q: Type.Optional(
      Type.String({
        maxLength: 200,
        description: '2 or more characters filter by name, phone and email; shorter lists the 20 most recent',
      }),
    ),
  },
  { additionalProperties: false },
);
export type SearchQuery = Static<typeof SearchQuery>;

export const SearchRow = Type.Object({
  ...customerContact,
  last_seen: Nullable(Instant),
});
export type SearchRow = Static<typeof SearchRow>;

export const SearchResponse = Type.Object({ customers: Type.Array(SearchRow) });
