// The summary report: the range checked, one statement, and the same answer as JSON or CSV.
import type { MerchantContext } from '../platform/context.ts';
import { readHandle } from '../platform/db/read-routing.plugin.ts';
import { AppError } from '../platform/errors/app-error.ts';
import { summary, type GroupBy, type SummaryRow } from './reports.repository.ts';

/** A year, and a leap day: a range is at most 366 days. */
export const MAX_RANGE_DAYS = 366;

export interface Summary {
  from: string;
  to: string;
  group_by: GroupBy;
  timezone: string;
  currency: string;
  groups: SummaryRow[];
}

function dayNumber(date: string, field: string): number {
  const ms = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== date)
    throw new AppError('VALIDATION_FAILED', `${field} is not a calendar date`);
  return ms / 86_400_000;
}

export async function summaryReport(
  ctx: MerchantContext,
  q: { from: string; to: string; group_by?: GroupBy },
): Promise<Summary> {
  const from = dayNumber(q.from, 'from');
  const to = dayNumber(q.to, 'to');
  if (to < from) throw new AppError('INVALID_TIME_RANGE', 'to must be on or after from');
  if (to - from + 1 > MAX_RANGE_DAYS)
    throw new AppError('RANGE_TOO_LONG', `A report covers at most ${MAX_RANGE_DAYS} days`);
  const groupBy = q.group_by ?? 'day';
  const db = await readHandle(ctx, ctx.actor.storeId);
  const [store, groups] = await Promise.all([
    db.query<{ timezone: string; currency: string }>('SELECT timezone, currency FROM stores WHERE id = $1', [
      ctx.actor.storeId,
    ]),
    summary(db, ctx.actor.storeId, q.from, q.to, groupBy),
  ]);
  return {
    from: q.from,
    to: q.to,
    group_by: groupBy,
    timezone: store.rows[0].timezone,
    currency: store.rows[0].currency,
    groups,
  };
}

const COLUMNS = [
  'key',
  'label',
  'appointments',
  'completed',
  'checked_in',
  'cancelled',
  'cancelled_by_customer',
  'cancelled_by_shop',
  'no_show',
  'no_show_rate',
  'booked_minutes',
  'working_minutes',
  'utilisation',
  'revenue_booked_pence',
  'revenue_settled_pence',
  'currency',
  'new_customers',
  'returning_customers',
] as const;

/** RFC 4180: a field with a comma, quote or line break is quoted; a leading =, +, - or @ is defused for spreadsheets. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function summaryCsv(s: Summary): string {
  return [COLUMNS.join(','), ...s.groups.map((g) => COLUMNS.map((c) => cell(g[c])).join(','))].join('\r\n') + '\r\n';
}
