// What an appointment still owes. One definition, used by the create response (balance_pence) and
// by settle (the amount is derived here, never taken from the client).
import type { AppointmentRow } from '../booking-authority.ts';

type Money = Pick<AppointmentRow, 'price_pence' | 'deposit_pence' | 'settled_pence' | 'payment_status'>;

/**
 * The deposit counts as actually paid only while payment_status says so ('deposit_paid'); a
 * deposit that failed or was refunded was not paid. 'paid' means paid in full (online, or by
 * settles here), so nothing is outstanding whatever the arithmetic says.
 */
export function depositPaid(a: Money): number {
  return a.payment_status === 'deposit_paid' ? a.deposit_pence : 0;
}

/** price minus deposit actually paid minus everything already settled; never negative. */
export function outstandingOf(a: Money): number {
  if (a.payment_status === 'paid') return 0;
  return Math.max(0, a.price_pence - depositPaid(a) - a.settled_pence);
}
