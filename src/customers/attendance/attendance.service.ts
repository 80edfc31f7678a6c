import type { MerchantContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors/app-error.ts';
import { hasLiveRelationship } from '../activity/relationship.repository.ts';
import { attendancePage } from './attendance.repository.ts';
import type { AttendanceQuery } from './attendance.schemas.ts';

export async function listAttendance(ctx: MerchantContext, customerId: string, query: AttendanceQuery) {
  const storeId = ctx.actor.storeId;
  if (!(await hasLiveRelationship(ctx.db, storeId, customerId))) throw notFound('Customer');
  const rows = await attendancePage(ctx.db, storeId, customerId, query.limit, query.offset);
  const bookings = rows.slice(0, query.limit);
  return {
    bookings,
    pagination: {
      limit: query.limit,
      offset: query.offset,
      has_more: rows.length > query.limit,
      next_offset: query.offset + bookings.length,
    },
  };
}
