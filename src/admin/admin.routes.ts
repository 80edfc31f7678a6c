// The operator surface, under /admin/v1, on only when ADMIN_TOKEN is set.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { auth } from '../platform/auth/guard.ts';
import { adminContext } from '../platform/context.ts';
import { Unit, UnitFields } from '../bookings/units/unit.schemas.ts';
import { Type } from 'typebox';
import * as s from './admin.schemas.ts';
import * as service from './admin.service.ts';
import { activityAdminRoutes } from './activity.admin.ts';
import { messagesAdminRoutes } from '../notifications/messages/messages.admin.ts';

const tags = ['Operator'];
const rule = { auth: auth.admin() };

export async function adminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { tokens } = fastify.deps;

  app.post(
    '/stores',
    {
      config: rule,
      schema: {
        operationId: 'adminCreateStore',
        summary: 'Create a store',
        tags,
        body: s.CreateStoreBody,
        response: { 200: s.StoreResult },
      },
    },
    (req) => service.createStore(adminContext(req), req.body),
  );

  app.patch(
    '/stores/:storeId',
    {
      config: rule,
      schema: {
        operationId: 'adminUpdateStore',
        summary: 'Change the settings of a store',
        tags,
        params: s.StoreParams,
        body: s.UpdateStoreBody,
        response: { 200: s.StoreResult },
      },
    },
    (req) => service.updateStore(adminContext(req), req.params.storeId, req.body),
  );

  app.post(
    '/stores/:storeId/units',
    {
      config: rule,
      schema: {
        operationId: 'adminCreateUnit',
        summary: 'Add a unit to a store',
        tags,
        params: s.StoreParams,
        body: Type.Object(UnitFields, { additionalProperties: false }),
        response: { 200: Type.Object({ unit: Unit }) },
      },
    },
    (req) => service.createUnit(adminContext(req), req.params.storeId, req.body),
  );

  app.post(
    '/stores/:storeId/holds',
    {
      config: rule,
      schema: {
        operationId: 'adminCreateHold',
        summary: 'Place a checkout hold on a unit',
        tags,
        params: s.StoreParams,
        body: s.CreateHoldBody,
        response: { 200: s.HoldResult },
      },
    },
    (req) => service.createHold(adminContext(req), req.params.storeId, req.body),
  );

  app.post(
    '/stores/:storeId/memberships',
    {
      config: rule,
      schema: {
        operationId: 'adminAddMembership',
        summary: 'Give a customer a relationship with a store',
        tags,
        params: s.StoreParams,
        body: s.MembershipBody,
        response: { 200: s.MembershipResult },
      },
    },
    (req) => service.addMembership(adminContext(req), req.params.storeId, req.body.customer_id),
  );

  app.post(
    '/customers',
    {
      config: rule,
      schema: {
        operationId: 'adminCreateCustomer',
        summary: 'Create a customer',
        tags,
        body: s.CreateCustomerBody,
        response: { 200: s.CustomerResult },
      },
    },
    (req) => service.createCustomer(adminContext(req), req.body),
  );

  app.post(
    '/customers/:customerId/erase',
    {
      config: rule,
      schema: {
        operationId: 'adminEraseCustomer',
        summary: 'Erase a customer (data-protection deletion)',
        tags,
        params: s.CustomerParams,
        response: { 200: s.EraseResult },
      },
    },
    (req) => service.eraseCustomer(adminContext(req), req.params.customerId),
  );

  app.post(
    '/tokens',
    {
      config: rule,
      schema: {
        operationId: 'adminMintToken',
        summary: 'Mint a merchant or customer token',
        tags,
        body: s.TokenBody,
        response: { 200: s.TokenResult },
      },
    },
    (req) => service.mintToken(adminContext(req), tokens, req.body),
  );

  await app.register(activityAdminRoutes);
  await app.register(messagesAdminRoutes);
}
