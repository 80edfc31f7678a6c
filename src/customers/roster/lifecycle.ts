// The five lifecycle stages, computed in SQL relative to the request's "now" (docs/decisions/customers.md).
// Every relationship is in exactly one stage; the first matching rule wins.
export const LIFECYCLE_STAGES = ['new', 'active', 'stale', 'lapsed', 'returning'] as const;
export type LifecycleStage = (typeof LIFECYCLE_STAGES)[number];

/** A visit within this many days makes a customer current (new, active or returning). */
export const ACTIVE_DAYS = 30;
/** Beyond this many days without a visit a customer is lapsed; a return after such a gap is "returning". */
export const LAPSED_DAYS = 90;

/**
 * SQL for the stage of the store_customers row aliased `row`, with `now` an SQL expression
 * (timestamptz) holding the clock's instant. With no visit yet, the relationship's start stands in for the last visit.
 */
export function stageSql(now: string, row = 'sc'): string {
  const recent = `coalesce(${row}.last_visit_at, ${row}.first_seen_at)`;
  const since = (days: number) => `${now} - interval '${days} days'`;
  return `CASE
    WHEN ${row}.total_visits <= 1 AND ${recent} >= ${since(ACTIVE_DAYS)} THEN 'new'
    WHEN ${row}.last_visit_at >= ${since(ACTIVE_DAYS)} AND ${row}.previous_visit_at < ${row}.last_visit_at - interval '${LAPSED_DAYS} days' THEN 'returning'
    WHEN ${row}.last_visit_at >= ${since(ACTIVE_DAYS)} THEN 'active'
    WHEN ${recent} >= ${since(LAPSED_DAYS)} THEN 'stale'
    ELSE 'lapsed'
  END`;
}

/**
 * A range on recency that every row of `stage` satisfies, whatever its other columns (each follows
 * from the stage's own rule above). Added beside the stage test so the store_customers_recency index
 * can narrow the rows before the stage is computed; it never changes the result.
 */
export function stageRangeSql(stage: LifecycleStage, now: string, row = 'sc'): string {
  const recent = `coalesce(${row}.last_visit_at, ${row}.first_seen_at)`;
  const since = (days: number) => `${now} - interval '${days} days'`;
  switch (stage) {
    case 'new':
    case 'active':
    case 'returning':
      return `${recent} >= ${since(ACTIVE_DAYS)}`;
    case 'stale':
      return `${recent} >= ${since(LAPSED_DAYS)}`;
    case 'lapsed':
      return `${recent} < ${since(LAPSED_DAYS)}`;
  }
}
