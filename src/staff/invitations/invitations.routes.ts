// Invitations: /api/v1/staff/invitations (a manager or owner) and the operator's
// /admin/v1/stores/{storeId}/staff/invitations (a store's first owner).
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { auth } from '../../platform/auth/guard.ts';
import { adminContext, merchantContext } from '../../platform/context.ts';
import { Uuid } from '../../platform/http/schemas.ts';
import { Invitation, InviteBody } from '../staff.schemas.ts';
import type { InvitationMailer } from './invitation-mail.ts';
import * as service from './invitations.service.ts';

const StoreParams = Type.Object({ storeId: Uuid }, { additionalProperties: false });
const description =
  "Emails a link to the console's accept page with the token in the fragment (#token=...): 72 hours, single use; a new invitation to the same email replaces the old.";

export function invitationRoutes(mailer: InvitationMailer) {
  return async function routes(app: FastifyInstance) {
    app.post<{ Body: InviteBody }>(
      '/invitations',
      {
        config: { auth: auth.merchantWrite() },
        schema: {
          operationId: 'createStaffInvitation',
          tags: ['Staff'],
          summary: 'Invite a person to the store with a role',
          description,
          body: InviteBody,
          response: { 200: Invitation },
        },
      },
      (request) => service.inviteStaff(merchantContext(request), mailer, request.body),
    );
  };
}

export function adminInvitationRoutes(mailer: InvitationMailer) {
  return async function routes(app: FastifyInstance) {
    app.post<{ Params: Static<typeof StoreParams>; Body: InviteBody }>(
      '/stores/:storeId/staff/invitations',
      {
        config: { auth: auth.admin() },
        schema: {
          operationId: 'adminInviteStaff',
          tags: ['Operator'],
          summary: "Invite a store's staff (its first owner)",
          description,
          params: StoreParams,
          body: InviteBody,
          response: { 200: Invitation },
        },
      },
      (request) => service.inviteForStore(adminContext(request), mailer, request.params.storeId, request.body),
    );
  };
}
