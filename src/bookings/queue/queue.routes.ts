// The walk-in queue (prefix /api/v1/bookings/queue). Every operation needs the paid
// can_use_bookings entitlement and acts on the authenticated store only.
import type { FastifyInstance } from 'fastify';
import { auth } from '../../platform/auth/guard.ts';
import { declareRoutes } from '../../platform/http/route.ts';
import { merchantContext } from '../../platform/context.ts';
import {
  AssignBody,
  AssignResult,
  CallResult,
  EntryBody,
  JoinBody,
  JoinResult,
  QueueList,
  QueueListQuery,
  RemoveBody,
  RemoveResult,
} from './queue.schemas.ts';
import { assignEntry, callEntry, joinQueue, listQueue, removeEntry } from './queue.service.ts';

const tags = ['Walk-in queue'];
const entitlements: ['can_use_bookings'] = ['can_use_bookings'];

export async function queueRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags });

  // '' (not '/'): the path is exactly the prefix, /api/v1/bookings/queue, without a trailing slash.
  route.get('', 'listQueue', auth.merchantRead({ entitlements }), {
    summary: 'Every waiting and called entry in join order, with derived place and expected wait',
    schema: { querystring: QueueListQuery, response: { 200: QueueList } },
    handler: async (request) => listQueue(merchantContext(request)),
  });

  route.post('/join', 'joinQueue', auth.merchantWrite({ entitlements }), {
    summary: 'Adds a walk-in to the queue with a quoted wait (not in the spec; see docs/decisions/queue.md)',
    schema: { body: JoinBody, response: { 200: JoinResult } },
    handler: async (request) => joinQueue(merchantContext(request), request.body),
  });

  route.post('/call', 'callQueueEntry', auth.merchantWrite({ entitlements }), {
    summary: 'Calls a waiting entry; a repeat is a noop',
    schema: { body: EntryBody, response: { 200: CallResult } },
    handler: async (request) => callEntry(merchantContext(request), request.body),
  });

  route.post('/assign', 'assignQueueEntry', auth.merchantWrite({ entitlements }), {
    summary: 'Seats an entry at a unit now, booking a walk_in appointment through the booking authority',
    schema: { body: AssignBody, response: { 200: AssignResult } },
    handler: async (request) => assignEntry(merchantContext(request), request.body),
  });

  route.post('/remove', 'removeQueueEntry', auth.merchantWrite({ entitlements }), {
    summary: 'Ends an entry as left or no_show',
    schema: { body: RemoveBody, response: { 200: RemoveResult } },
    handler: async (request) => removeEntry(merchantContext(request), request.body),
  });
}
