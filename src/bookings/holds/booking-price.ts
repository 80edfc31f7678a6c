// The price and deposit an online booking snapshots.
//
// deposit_policy is stored as the merchant gave it; online checkout reads two shapes from it:
//   { "amount_pence": 1000 }  a fixed deposit (capped at the price), or
//   { "percent": 20 }         a share of the price, rounded to the penny.
// Anything else (null, {}, a zero) asks no deposit. See docs/decisions.md, "Online booking".

/** The variant's (or service's) price plus the add-ons', per head for a per_person service. */
export function priceOf(service: { price_pence: number; price_type: string }, partySize: number): number {
  return service.price_type === 'per_person' ? service.price_pence * partySize : service.price_pence;
}

export function depositOf(policy: Record<string, unknown> | null, price: number): number {
  if (!policy) return 0;
  const amount = policy.amount_pence;
  if (typeof amount === 'number' && Number.isInteger(amount) && amount > 0) return Math.min(amount, price);
  const percent = policy.percent;
  if (typeof percent === 'number' && percent > 0) return Math.min(price, Math.round((price * Math.min(percent, 100)) / 100));
  return 0;
}
