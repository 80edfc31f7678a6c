// Units (not shown in the spec; a diary needs them): list, create, update. Deactivate is the
// PATCH with is_active false, the spec's style for service periods and services.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { auth } from '../../platform/auth/guard.ts';
import { merchantContext } from '../../platform/context.ts';
import {
  CreateUnitBody,
  ListUnitsQuery,
  UnitParams,
  UnitResponse,
  UnitsResponse,
  UpdateUnitBody,
} from './unit.schemas.ts';
import { createUnit, listStoreUnits, updateStoreUnit } from './units.service.ts';

export async function unitsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '',
    {
      config: { auth: auth.merchantRead() },
      schema: {
        operationId: 'listUnits',
        tags: ['Units'],
        summary: 'Units of the store, by sort then name',
        querystring: ListUnitsQuery,
        response: { 200: UnitsResponse },
      },
    },
    async (request) => listStoreUnits(merchantContext(request), request.query),
  );

  app.post(
    '',
    {
      config: { auth: auth.merchantWrite() },
      schema: {
        operationId: 'createUnit',
        tags: ['Units'],
        summary: 'Add a unit (staff member, chair, room or table)',
        body: CreateUnitBody,
        response: { 200: UnitResponse },
      },
    },
    async (request) => createUnit(merchantContext(request), request.body),
  );

  app.patch(
    '/:unitId',
    {
      config: { auth: auth.merchantWrite() },
      schema: {
        operationId: 'updateUnit',
        tags: ['Units'],
        summary: 'Partial update; is_active false deactivates (refused while upcoming appointments remain)',
        params: UnitParams,
        body: UpdateUnitBody,
        response: { 200: UnitResponse },
      },
    },
    async (request) => updateStoreUnit(merchantContext(request), request.params.unitId, request.body),
  );
}
