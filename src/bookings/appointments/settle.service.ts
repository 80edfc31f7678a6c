// Settle: record the outstanding balance as taken outside the platform (cash or the shop's own card
// machine). The six rules of the spec:
//  1. the amount is derived here (price - deposit actually paid - already settled), never sent;
//  2. a successful settle completes the appointment;
//  3. totals accumulate (settled_pence moves with every settlements row, in one transaction);
//  4. nothing outstanding is the no-op gate: nothing_owed or already_settled, never a second record;
//  5. the loser of a race waits on the row lock and then reads already_settled, naming the winner;
//  6. a no-show is never settled here.
import type { MerchantContext } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import { audit } from '../../platform/audit.ts';
import { AppError, notFound } from '../../platform/errors/app-error.ts';
import { outstandingOf } from './appointment-money.ts';
import { emit } from '../../events/outbox.ts';
import { presentAppointment } from './appointments.service.ts';
import * as repo from './appointments.repository.ts';
import type { SettleBody, SettleResponse } from './appointments.schemas.ts';

/** Statuses that can take money here; settling completes them (completed stays completed). */
const SETTLEABLE = new Set(['confirmed', 'checked_in', 'completed']);

export async function settle(ctx: MerchantContext, body: SettleBody): Promise<SettleResponse> {
  const { storeId, userId, staffName } = ctx.actor;
  return inTransaction(ctx, async (tx) => {
    // Rule 5: the row lock serialises colleagues settling at once; the second reads the first's result.
    const a = await repo.lockAppointment(tx, storeId, body.appointment_id);
    if (!a) throw notFound('Appointment');
    if (a.status === 'no_show') throw new AppError('NO_SHOW_NOT_SETTLEABLE', 'A no-show is never settled here');
    if (!SETTLEABLE.has(a.status)) {
      throw new AppError('INVALID_TRANSITION', `A ${a.status} appointment cannot be settled`);
    }
    const base = { appointment_id: a.id, currency: a.currency, outstanding_pence: 0, collected_pence: 0 };
    const outstanding = outstandingOf(a);

    if (outstanding === 0) {
      const last = await repo.latestSettlement(tx, storeId, a.id);
      if (!last) {
        // Nothing was ever owed here (price 0, paid online, or the deposit covered it).
        return {
          ...base, outcome: 'nothing_owed', status: a.status, payment_status: a.payment_status,
          settled_total_pence: a.settled_pence, method: null, settled_at: null, settled_by_you: false, settled_by_name: null,
        };
      }
      return {
        ...base, outcome: 'already_settled', status: a.status, payment_status: a.payment_status,
        settled_total_pence: a.settled_pence, method: last.method, settled_at: last.settled_at,
        settled_by_you: userId !== null && last.settled_by_user_id === userId, settled_by_name: last.settled_by_name,
      };
    }

    const now = ctx.clock.now();
    // The whole outstanding amount is collected, so nothing remains and the booking is paid.
    const after = { status: 'completed', paymentStatus: 'paid' };
    await repo.recordSettlement(
      tx,
      { storeId, appointmentId: a.id, amountPence: outstanding, currency: a.currency, method: body.method, userId, staffName, at: now },
      after,
    );
    await audit(tx, ctx, {
      action: 'appointment.settled',
      entity: 'appointment',
      entityId: a.id,
      details: { amount_pence: outstanding, method: body.method, from: a.status, to: after.status },
    });
    const settled = { ...a, status: after.status, payment_status: after.paymentStatus, settled_pence: a.settled_pence + outstanding };
    await emit(tx, {
      storeId,
      type: 'appointment.settled',
      data: {
        ...presentAppointment(settled),
        settlement: { amount_pence: outstanding, currency: a.currency, method: body.method, settled_at: now.toISOString(), settled_by_name: staffName },
        previous: { status: a.status, payment_status: a.payment_status },
      },
    }, now);
    return {
      ...base, outcome: 'settled', status: after.status, payment_status: after.paymentStatus,
      collected_pence: outstanding, settled_total_pence: a.settled_pence + outstanding, method: body.method,
      settled_at: now.toISOString(), settled_by_you: true, settled_by_name: staffName,
    };
  });
}
