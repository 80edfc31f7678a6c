import type { MerchantContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors/app-error.ts';
import { hasLiveRelationship } from '../store-customer.repository.ts';
import { attendancePage } from './attendance.repository.ts';
import { ATTENDANCE_PAGE, type AttendanceQuery } from './attendance.schemas.ts';
import { readHandle } from '../../platform/db/read-routing.plugin.ts';

export async function listAttendance(ctx: MerchantContext, customerId: string, query: AttendanceQuery) {
  const storeId = ctx.actor.storeId;
  const db = await readHandle(ctx); // the replica when it has every write this store made
  if (!(await hasLiveRelationship(db, storeId, customerId))) throw notFound('Customer');
  // The schema fills the defaults; the fallbacks only satisfy the type checker.
  const limit = query.limit ?? ATTENDANCE_PAGE.default;
  const offset = query.offset ?? 0;
  const rows = await attendancePage(db, storeId, customerId, limit, offset);
  const bookings = rows.slice(0, limit);
  return {
    bookings,
    pagination: {
      limit,
      offset,
      has_more: rows.length > limit,
      next_offset: offset + bookings.length,
    },
  };
}
