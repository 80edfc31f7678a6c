// The booking page's slug and switch as the stores table guards them (migration 130): the unique
// index decides a taken slug (no check-then-write), the CHECK refuses a page on without a slug.
// A reserved slug (migration 201) is refused by its CHECK. All become clear refusals here, for the
// merchant's PATCH and the operator's store PATCH alike.
import { AppError } from '../../platform/errors/app-error.ts';
import { PG, pgCode, pgConstraint } from '../../platform/db/pg-errors.ts';

/** Words the routes under /book use (static files, the embed script, the manage page) and a few
 * more a shop could be confused with; migration 201's constraint holds the same list. */
export const RESERVED_SLUGS = [
  'admin',
  'api',
  'assets',
  'book',
  'console',
  'docs',
  'embed',
  'embed-js',
  'favicon',
  'health',
  'manage',
  'static',
] as const;

export function asSlugRefusal(err: unknown): never {
  if (pgCode(err) === PG.checkViolation && pgConstraint(err) === 'stores_booking_page_slug_reserved') {
    throw new AppError(
      'BOOKING_PAGE_SLUG_RESERVED',
      `That booking page address is used by the page itself; choose a booking_page_slug other than ${RESERVED_SLUGS.join(', ')}`,
    );
  }
  if (pgCode(err) === PG.uniqueViolation && pgConstraint(err) === 'stores_booking_page_slug_key') {
    throw new AppError(
      'BOOKING_PAGE_SLUG_TAKEN',
      'That booking page address is taken by another shop; choose another booking_page_slug',
    );
  }
  if (pgCode(err) === PG.checkViolation && pgConstraint(err) === 'stores_booking_page_needs_slug') {
    throw new AppError('BOOKING_PAGE_SLUG_REQUIRED', 'Set a booking_page_slug before enabling the booking page');
  }
  throw err;
}
