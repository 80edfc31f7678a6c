// /api/v1/staff: the store's people, and changing one's role, permissions, unit or disabled.
import type { FastifyInstance } from 'fastify';
import { auth } from '../../platform/auth/guard.ts';
import { declareRoutes } from '../../platform/http/route.ts';
import { merchantContext } from '../../platform/context.ts';
import { StaffList, StaffMemberAnswer, StaffParams, StaffPatch } from '../staff.schemas.ts';
import * as service from './members.service.ts';

const tags = ['Staff'];

export async function membersRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags });
  route.get('', 'listStaff', auth.merchantRead(), {
    summary: "The store's staff with their roles",
    schema: { response: { 200: StaffList } },
    handler: (request) => service.listStaff(merchantContext(request)),
  });

  route.patch('/:staffId', 'updateStaff', auth.merchantWrite(), {
    summary: "Change a person's role, permissions, unit or disabled",
    description:
      "Nobody raises their own role or permissions, or gives a role above their own; the store keeps an enabled owner (409 LAST_OWNER). Disabling ends the person's sessions at once; a role change applies from their next request.",
    schema: { params: StaffParams, body: StaffPatch, response: { 200: StaffMemberAnswer } },
    handler: (request) => service.updateStaff(merchantContext(request), request.params.staffId, request.body),
  });
}
