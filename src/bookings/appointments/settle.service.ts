// Settle: record the outstanding balance as taken outside the platform (cash or the shop's own card
// machine). The six rules of the spec:
//  1. the amount is derived here (price - deposit actually paid - already settled), never sent;
//  2. a successful settle completes the appointment;
//  3. totals accumulate (settled_pence moves with every settlements row, in one transaction);
//  4. nothing outstanding is the no-op gate: nothing_owed or already_settled, never a second record;
//  5. the loser of a race waits on the row lock and then reads already_settled, naming the winner;
//  6. a no-show is never settled here.
//
// One statement, bbo_settle (db/functions/settle.sql): the Idempotency-Key claim, the row lock, the
// rules in that order, the settlements row and the appointment's totals, the audit row, the event and
// the idempotency record, in one round trip.
import type { MerchantContext } from '../../platform/context.ts';
import { oneStatementWrite } from '../../platform/one-statement.ts';
import type { SettleBody, SettleResponse } from './appointments.schemas.ts';
import { settleWrite } from './appointments.writes.ts';

export function settle(ctx: MerchantContext, body: SettleBody): Promise<SettleResponse> {
  const { storeId, userId, staffName } = ctx.actor;
  return oneStatementWrite(ctx, settleWrite, {
    store_id: storeId,
    appointment_id: body.appointment_id,
    method: body.method,
    user_id: userId,
    staff_name: staffName,
  });
}
