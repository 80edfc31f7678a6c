// Customer holds: POST /api/v1/bookings/holds, POST /{holdId}/confirm, DELETE /{holdId}.
import type { FastifyInstance } from 'fastify';
import { auth } from '../../platform/auth/guard.ts';
import { declareRoutes } from '../../platform/http/route.ts';
import { customerContext } from '../../platform/context.ts';
import { ConfirmBody, ConfirmResponse, HoldBody, HoldParams, HoldResponse, ReleaseResponse } from './holds.schemas.ts';
import { confirmHold, createHold, releaseHold } from './holds.service.ts';
import { holdAddressHash, holdAddressKey } from './hold-caps.ts';

const tags = ['Online booking'];

export async function holdsRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags, config: { onlineCors: true } });
  const addressKey = holdAddressKey(app.deps.config.authSecret);
  const caps = app.deps.config.holdCaps;

  route.post('', 'createHold', auth.customerWrite(), {
    summary:
      'Hold an offered start for hold_minutes while the customer checks out; without unit_id the first free unit is taken',
    schema: { body: HoldBody, response: { 200: HoldResponse } },
    handler: async (request) =>
      createHold(customerContext(request), request.body, {
        addressHash: holdAddressHash(addressKey, request.body.store_id, request),
        ...caps,
      }),
  });

  route.post('/:holdId/confirm', 'confirmHold', auth.customerWrite(), {
    summary: 'Book the held slot (source online); a retry returns the same appointment with reused true',
    schema: { params: HoldParams, body: ConfirmBody, response: { 200: ConfirmResponse } },
    handler: async (request) => confirmHold(customerContext(request), request.params.holdId, request.body ?? {}),
  });

  route.delete('/:holdId', 'releaseHold', auth.customerWrite(), {
    summary: 'Let a hold go; idempotent',
    schema: { params: HoldParams, response: { 200: ReleaseResponse } },
    handler: async (request) => releaseHold(customerContext(request), request.params.holdId),
  });
}
