// CORS origins as a store keeps them: scheme://host[:port], lower case, no path, no wildcard.
// Nothing here ever opens a store to every origin.
import { AppError } from '../../platform/errors/app-error.ts';

const ORIGIN = /^https?:\/\/[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*(:\d{1,5})?$/;

export function normaliseOrigin(raw: string): string | null {
  const origin = raw.trim().toLowerCase().replace(/\/$/, '');
  return ORIGIN.test(origin) ? origin : null;
}

/** Distinct, normalised; an entry that is not an origin is refused by name. */
export function normaliseOrigins(list: string[]): string[] {
  return [
    ...new Set(
      list.map((raw) => {
        const origin = normaliseOrigin(raw);
        if (!origin)
          throw new AppError('INVALID_ORIGIN', `cors_origins: "${raw.slice(0, 80)}" is not scheme://host[:port]`);
        return origin;
      }),
    ),
  ];
}
