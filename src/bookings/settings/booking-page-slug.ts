// The booking page's slug and switch as the stores table guards them (migration 130): the unique
// index decides a taken slug (no check-then-write), the CHECK refuses a page on without a slug.
// Both become clear refusals here, for the merchant's PATCH and the operator's store PATCH alike.
import { AppError } from '../../platform/errors/app-error.ts';
import { PG, pgCode, pgConstraint } from '../../platform/db/pg-errors.ts';

export function asSlugRefusal(err: unknown): never {
  if (pgCode(err) === PG.uniqueViolation && pgConstraint(err) === 'stores_booking_page_slug_key') {
    throw new AppError('BOOKING_PAGE_SLUG_TAKEN', 'That booking page address is taken by another shop; choose another booking_page_slug');
  }
  if (pgCode(err) === PG.checkViolation && pgConstraint(err) === 'stores_booking_page_needs_slug') {
    throw new AppError('BOOKING_PAGE_SLUG_REQUIRED', 'Set a booking_page_slug before enabling the booking page');
  }
  throw err;
}
