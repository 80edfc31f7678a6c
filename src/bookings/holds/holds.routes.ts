// Customer holds: POST /api/v1/bookings/holds, POST /{holdId}/confirm, DELETE /{holdId}.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { auth } from '../../platform/auth/guard.ts';
import { customerContext } from '../../platform/context.ts';
import { ConfirmBody, ConfirmResponse, HoldBody, HoldParams, HoldResponse, ReleaseResponse } from './holds.schemas.ts';
import { confirmHold, createHold, releaseHold } from './holds.service.ts';
import { holdAddressHash, holdAddressKey } from './hold-caps.ts';

const tags = ['Online booking'];

export async function holdsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const addressKey = holdAddressKey(fastify.deps.config.authSecret);
  const caps = fastify.deps.config.holdCaps;

  app.post(
    '',
    {
      config: { auth: auth.customerWrite(), onlineCors: true },
      schema: {
        operationId: 'createHold',
        tags,
        summary:
          'Hold an offered start for hold_minutes while the customer checks out; without unit_id the first free unit is taken',
        body: HoldBody,
        response: { 200: HoldResponse },
      },
    },
    async (request) =>
      createHold(customerContext(request), request.body, {
        addressHash: holdAddressHash(addressKey, request.body.store_id, request),
        ...caps,
      }),
  );

  app.post(
    '/:holdId/confirm',
    {
      config: { auth: auth.customerWrite(), onlineCors: true },
      schema: {
        operationId: 'confirmHold',
        tags,
        summary: 'Book the held slot (source online); a retry returns the same appointment with reused true',
        params: HoldParams,
        body: ConfirmBody,
        response: { 200: ConfirmResponse },
      },
    },
    async (request) => confirmHold(customerContext(request), request.params.holdId, request.body ?? {}),
  );

  app.delete(
    '/:holdId',
    {
      config: { auth: auth.customerWrite(), onlineCors: true },
      schema: {
        operationId: 'releaseHold',
        tags,
        summary: 'Let a hold go; idempotent',
        params: HoldParams,
        response: { 200: ReleaseResponse },
      },
    },
    async (request) => releaseHold(customerContext(request), request.params.holdId),
  );
}
