// The operator surface, under /admin/v1, on only when ADMIN_TOKEN is set.
import type { FastifyInstance } from 'fastify';
import { auth } from '../platform/auth/guard.ts';
import { declareRoutes } from '../platform/http/route.ts';
import { adminContext } from '../platform/context.ts';
import { Unit, UnitFields } from '../bookings/units/unit.schemas.ts';
import { Type } from 'typebox';
import * as s from './admin.schemas.ts';
import * as service from './admin.service.ts';
import { activityAdminRoutes } from './activity.admin.ts';
import { messagesAdminRoutes } from '../notifications/messages/messages.admin.ts';

const tags = ['Operator'];

export async function adminRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags });
  const { tokens } = app.deps;

  route.post('/stores', 'adminCreateStore', auth.admin(), {
    summary: 'Create a store',
    schema: { body: s.CreateStoreBody, response: { 200: s.StoreResult } },
    handler: (req) => service.createStore(adminContext(req), req.body),
  });

  route.patch('/stores/:storeId', 'adminUpdateStore', auth.admin(), {
    summary: 'Change the settings of a store',
    schema: { params: s.StoreParams, body: s.UpdateStoreBody, response: { 200: s.StoreResult } },
    handler: (req) => service.updateStore(adminContext(req), req.params.storeId, req.body),
  });

  route.post('/stores/:storeId/units', 'adminCreateUnit', auth.admin(), {
    summary: 'Add a unit to a store',
    schema: {
      params: s.StoreParams,
      body: Type.Object(UnitFields, { additionalProperties: false }),
      response: { 200: Type.Object({ unit: Unit }) },
    },
    handler: (req) => service.createUnit(adminContext(req), req.params.storeId, req.body),
  });

  route.post('/stores/:storeId/holds', 'adminCreateHold', auth.admin(), {
    summary: 'Place a checkout hold on a unit',
    schema: { params: s.StoreParams, body: s.CreateHoldBody, response: { 200: s.HoldResult } },
    handler: (req) => service.createHold(adminContext(req), req.params.storeId, req.body),
  });

  route.post('/stores/:storeId/memberships', 'adminAddMembership', auth.admin(), {
    summary: 'Give a customer a relationship with a store',
    schema: { params: s.StoreParams, body: s.MembershipBody, response: { 200: s.MembershipResult } },
    handler: (req) => service.addMembership(adminContext(req), req.params.storeId, req.body.customer_id),
  });

  route.post('/customers', 'adminCreateCustomer', auth.admin(), {
    summary: 'Create a customer',
    schema: { body: s.CreateCustomerBody, response: { 200: s.CustomerResult } },
    handler: (req) => service.createCustomer(adminContext(req), req.body),
  });

  route.post('/customers/:customerId/erase', 'adminEraseCustomer', auth.admin(), {
    summary: 'Erase a customer (data-protection deletion)',
    schema: { params: s.CustomerParams, response: { 200: s.EraseResult } },
    handler: (req) => service.eraseCustomer(adminContext(req), req.params.customerId),
  });

  route.post('/tokens', 'adminMintToken', auth.admin(), {
    summary: 'Mint a merchant or customer token',
    schema: { body: s.TokenBody, response: { 200: s.TokenResult } },
    handler: (req) => service.mintToken(adminContext(req), tokens, req.body),
  });

  await app.register(activityAdminRoutes);
  await app.register(messagesAdminRoutes);
}
