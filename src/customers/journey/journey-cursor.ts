// The journey cursor: the instant of the last event seen (microseconds, UTC) and its id, so that a
// page boundary falling between events that share a timestamp neither repeats nor skips any.
// A plain ISO 8601 instant is accepted too and means "strictly older than this instant".

/** Sorts below every uuid: with a plain instant, (ts, id) < (instant, MIN) is exactly ts < instant. */
const MIN_ID = '00000000-0000-0000-0000-000000000000';

export interface JourneyCursor {
  /** An instant PostgreSQL parses as timestamptz, or 'infinity' for the newest page. */
  at: string;
  id: string;
}

export const NEWEST: JourneyCursor = { at: 'infinity', id: MIN_ID };

export function parseCursor(before: string | undefined): JourneyCursor {
  if (!before) return NEWEST;
  const [at, id] = before.split('~');
  return { at, id: id ? id.toLowerCase() : MIN_ID };
}

/** `key` is the event's instant as PostgreSQL rendered it with microseconds (journey.repository). */
export function formatCursor(key: string, id: string): string {
  return `${key}~${id}`;
}
