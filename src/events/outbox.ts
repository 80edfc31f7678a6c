// The outbox as features call it: emit() with an event type of the catalogue (event-types.ts). The
// collector itself (collect, take, drop, the one INSERT) belongs to the platform: platform/outbox.ts.
import type { Tx } from '../platform/db/port.ts';
import { emit as emitEvent } from '../platform/outbox.ts';
import type { EventType } from './event-types.ts';

export {
  collectEvents,
  dropEvents,
  takeEvents,
  writeEvents,
} from '../platform/outbox.ts';

export interface EventInput {
  storeId: string;
  type: EventType;
  /** The resource as it is after the change (plus changed_fields / previous where that helps). */
  data: Record<string, unknown>;
}

/** Records an event of this transaction; occurredAt comes from the request's clock. */
export function emit(tx: Tx, event: EventInput, occurredAt: Date): Promise<void> {
  return emitEvent(tx, event, occurredAt);
}
