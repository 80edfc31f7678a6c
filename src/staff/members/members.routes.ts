// /api/v1/staff: the store's people, and changing one's role, permissions, unit or disabled.
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { auth } from '../../platform/auth/guard.ts';
import { merchantContext } from '../../platform/context.ts';
import { StaffList, StaffMemberAnswer, StaffParams, StaffPatch } from '../staff.schemas.ts';
import * as service from './members.service.ts';

const tags = ['Staff'];

export async function membersRoutes(app: FastifyInstance) {
  app.get(
    '',
    {
      config: { auth: auth.merchantRead() },
      schema: {
        operationId: 'listStaff',
        tags,
        summary: "The store's staff with their roles",
        response: { 200: StaffList },
      },
    },
    (request) => service.listStaff(merchantContext(request)),
  );

  app.patch<{ Params: Static<typeof StaffParams>; Body: StaffPatch }>(
    '/:staffId',
    {
      config: { auth: auth.merchantWrite() },
      schema: {
        operationId: 'updateStaff',
        tags,
        summary: "Change a person's role, permissions, unit or disabled",
        description:
          "Nobody raises their own role or permissions, or gives a role above their own; the store keeps an enabled owner (409 LAST_OWNER). Disabling ends the person's sessions at once; a role change applies from their next request.",
        params: StaffParams,
        body: StaffPatch,
        response: { 200: StaffMemberAnswer },
      },
    },
    (request) => service.updateStaff(merchantContext(request), request.params.staffId, request.body),
  );
}
