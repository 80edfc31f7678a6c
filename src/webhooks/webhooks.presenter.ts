// The endpoint as the API shows it: an allow-list of fields. The secret is never part of it; create
// and rotate add it to their own answers.
import type { EndpointRow } from './endpoints.repository.ts';

/** The row without its store (the caller's own, by the route). */
export type EndpointView = Omit<EndpointRow, 'store_id'>;

export function presentEndpoint(row: EndpointRow): EndpointView {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    event_types: row.event_types,
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
