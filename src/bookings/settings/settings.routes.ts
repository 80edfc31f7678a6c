// GET/PATCH /api/v1/bookings/settings: the store's online booking settings.
import type { FastifyInstance } from 'fastify';
import { auth } from '../../platform/auth/guard.ts';
import { declareRoutes } from '../../platform/http/route.ts';
import { merchantContext } from '../../platform/context.ts';
import { PatchSettingsBody, SettingsQuery, SettingsResponse } from './settings.schemas.ts';
import { getSettings, patchSettings } from './settings.service.ts';

const tags = ['Online booking'];

export async function settingsRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags });
  route.get('', 'getBookingSettings', auth.merchantRead(), {
    summary: "The store's online booking settings",
    schema: { querystring: SettingsQuery, response: { 200: SettingsResponse } },
    handler: async (request) => getSettings(merchantContext(request)),
  });
  route.patch('', 'updateBookingSettings', auth.merchantWrite(), {
    summary: "Change the store's online booking settings",
    schema: { body: PatchSettingsBody, response: { 200: SettingsResponse } },
    handler: async (request) => patchSettings(merchantContext(request), request.body),
  });
}
