// GET/PATCH /api/v1/bookings/settings: the store's online booking settings.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { auth } from '../../platform/auth/guard.ts';
import { merchantContext } from '../../platform/context.ts';
import { PatchSettingsBody, SettingsQuery, SettingsResponse } from './settings.schemas.ts';
import { getSettings, patchSettings } from './settings.service.ts';

const tags = ['Online booking'];

export async function settingsRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '',
    {
      config: { auth: auth.merchantRead() },
      schema: {
        operationId: 'getBookingSettings',
        summary: "The store's online booking settings",
        tags,
        querystring: SettingsQuery,
        response: { 200: SettingsResponse },
      },
    },
    async (request) => getSettings(merchantContext(request)),
  );
  app.patch(
    '',
    {
      config: { auth: auth.merchantWrite() },
      schema: {
        operationId: 'updateBookingSettings',
        summary: "Change the store's online booking settings",
        tags,
        body: PatchSettingsBody,
        response: { 200: SettingsResponse },
      },
    },
    async (request) => patchSettings(merchantContext(request), request.body),
  );
}
