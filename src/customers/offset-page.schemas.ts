// The offset-paged lists of a customer (the roster, attendance): the query's limit and offset, and
// the answer's pagination fields. Each list adds its own (the roster's total, attendance's next offset).
import { Type } from 'typebox';

/** A list's page size: the default and the largest a query may ask for. */
export interface PageSize {
  readonly default: number;
  readonly max: number;
}

/** The query's `limit` (1 to the page's max) and `offset`, to spread into the query's properties. */
export const offsetPageQuery = (page: PageSize) => ({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: page.max, default: page.default })),
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000_000, default: 0 })),
});

/** The answer's pagination fields every offset-paged list has, to spread into its `pagination` object. */
export const offsetPagination = {
  limit: Type.Integer(),
  offset: Type.Integer(),
  has_more: Type.Boolean(),
};
