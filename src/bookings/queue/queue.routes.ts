// The walk-in queue (prefix /api/v1/bookings/queue). Every operation needs the paid
// can_use_bookings entitlement and acts on the authenticated store only.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { auth } from '../../platform/auth/guard.ts';
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

export async function queueRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  // '' (not '/'): the path is exactly the prefix, /api/v1/bookings/queue, without a trailing slash.
  app.get(
    '',
    {
      config: { auth: auth.merchantRead({ entitlements }) },
      schema: {
        operationId: 'listQueue',
        tags,
        summary: 'Every waiting and called entry in join order, with derived place and expected wait',
        querystring: QueueListQuery,
        response: { 200: QueueList },
      },
    },
    async (request) => listQueue(merchantContext(request)),
  );

  app.post(
    '/join',
    {
      config: { auth: auth.merchantWrite({ entitlements }) },
      schema: {
        operationId: 'joinQueue',
        tags,
        summary: 'Adds a walk-in to the queue with a quoted wait (not in the spec; see docs/decisions/queue.md)',
        body: JoinBody,
        response: { 200: JoinResult },
      },
    },
    async (request) => joinQueue(merchantContext(request), request.body),
  );

  app.post(
    '/call',
    {
      config: { auth: auth.merchantWrite({ entitlements }) },
      schema: {
        operationId: 'callQueueEntry',
        tags,
        summary: 'Calls a waiting entry; a repeat is a noop',
        body: EntryBody,
        response: { 200: CallResult },
      },
    },
    async (request) => callEntry(merchantContext(request), request.body),
  );

  app.post(
    '/assign',
    {
      config: { auth: auth.merchantWrite({ entitlements }) },
      schema: {
        operationId: 'assignQueueEntry',
        tags,
        summary: 'Seats an entry at a unit now, booking a walk_in appointment through the booking authority',
        body: AssignBody,
        response: { 200: AssignResult },
      },
    },
    async (request) => assignEntry(merchantContext(request), request.body),
  );

  app.post(
    '/remove',
    {
      config: { auth: auth.merchantWrite({ entitlements }) },
      schema: {
        operationId: 'removeQueueEntry',
        tags,
        summary: 'Ends an entry as left or no_show',
        body: RemoveBody,
        response: { 200: RemoveResult },
      },
    },
    async (request) => removeEntry(merchantContext(request), request.body),
  );
}
