// Units (not shown in the spec; a diary needs them): list, create, update. Deactivate is the
// PATCH with is_active false, the spec's style for service periods and services.
import type { FastifyInstance } from 'fastify';
import { auth } from '../../platform/auth/guard.ts';
import { merchantContext } from '../../platform/context.ts';
import { declareRoutes } from '../../platform/http/route.ts';
import {
  CreateUnitBody,
  ListUnitsQuery,
  UnitParams,
  UnitResponse,
  UnitsResponse,
  UpdateUnitBody,
} from './unit.schemas.ts';
import { createUnit, listStoreUnits, updateStoreUnit } from './units.service.ts';

export async function unitsRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags: ['Units'] });

  route.get('', 'listUnits', auth.merchantRead(), {
    summary: 'Units of the store, by sort then name',
    schema: { querystring: ListUnitsQuery, response: { 200: UnitsResponse } },
    handler: async (request) => listStoreUnits(merchantContext(request), request.query),
  });

  route.post('', 'createUnit', auth.merchantWrite(), {
    summary: 'Add a unit (staff member, chair, room or table)',
    schema: { body: CreateUnitBody, response: { 200: UnitResponse } },
    handler: async (request) => createUnit(merchantContext(request), request.body),
  });

  route.patch('/:unitId', 'updateUnit', auth.merchantWrite(), {
    summary: 'Partial update; is_active false deactivates (refused while upcoming appointments remain)',
    schema: { params: UnitParams, body: UpdateUnitBody, response: { 200: UnitResponse } },
    handler: async (request) => updateStoreUnit(merchantContext(request), request.params.unitId, request.body),
  });
}
