// /api/v1/auth: password sign-in, accepting an invitation, who am I, sign-out and one's sessions.
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { MerchantActor } from '../../platform/auth/actor.ts';
import { auth } from '../../platform/auth/guard.ts';
import { declareRoutes, ENVELOPE_ERRORS } from '../../platform/http/route.ts';
import { merchantContext } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors/app-error.ts';
import { acceptInvitation } from '../invitations/invitations.service.ts';
import type { CommonPasswords } from '../passwords/common-passwords.ts';
import { signIn } from '../sign-in/sign-in.service.ts';
import { AcceptBody, Ended, Me, SessionList, SessionParams, SignedIn, SignInBody } from '../staff.schemas.ts';
import { endCurrentSession } from './sessions.service.ts';
import * as repo from './sessions.repository.ts';

const tags = ['Staff'];

function signedIn(actor: MerchantActor): { staffId: string; sessionId: string } {
  if (actor.staff?.via !== 'session' || !actor.staff.sessionId)
    throw new AppError('WRONG_TOKEN_KIND', 'This needs a staff session (sign in first)');
  return { staffId: actor.staff.id, sessionId: actor.staff.sessionId };
}

export function sessionsRoutes(common: CommonPasswords) {
  return async function routes(app: FastifyInstance) {
    const route = declareRoutes(app, { tags });
    const deps = app.deps;

    route.post('/sign-in', 'signIn', auth.public(), {
      summary: 'Sign in with email and password; sets the session cookie',
      description:
        'A wrong password and an unknown email get the same 401 SIGN_IN_FAILED. After 10 failures in 15 minutes for an account, or 100 in an hour from an address, 429 TOO_MANY_SIGN_INS with Retry-After. Without store_id, the most recently used store.',
      schema: { body: SignInBody, response: { 200: SignedIn, ...ENVELOPE_ERRORS } },
      handler: (request, reply) => signIn(deps, request.body, request, reply),
    });

    route.post('/invitations/accept', 'acceptStaffInvitation', auth.public(), {
      summary: 'Accept an invitation (or the first-run setup link): choose name and password; sets the session cookie',
      description:
        'Passwords: at least 15 characters (8 once the person has a passkey), at most 256, not a commonly used one. Someone who already has an account gives its password.',
      schema: { body: AcceptBody, response: { 200: SignedIn, ...ENVELOPE_ERRORS } },
      handler: (request, reply) => acceptInvitation(deps, common, request.body, request, reply),
    });

    route.get('/me', 'getMe', auth.merchantRead(), {
      summary: 'Who is signed in, at which store, with which role',
      schema: { response: { 200: Me } },
      handler: async (request) => {
        const ctx = merchantContext(request);
        const { staffId } = signedIn(ctx.actor);
        const res = await ctx.db.query<Static<typeof Me>>(
          `SELECT jsonb_build_object('id', p.id, 'name', p.name, 'email', p.email) AS staff, m.store_id, m.role, m.permissions, m.unit_id
           FROM staff_memberships m JOIN staff_people p ON p.id = m.staff_id WHERE m.store_id = $1 AND m.staff_id = $2`,
          [ctx.actor.storeId, staffId],
        );
        return res.rows[0];
      },
    });

    route.post('/sign-out', 'signOut', auth.merchantWrite(), {
      summary: 'End this session on the server and clear the cookie',
      schema: { response: { 200: Ended } },
      handler: async (request, reply) => {
        signedIn(merchantContext(request).actor);
        await endCurrentSession(deps, request, reply);
        return { ended: true };
      },
    });

    route.get('/sessions', 'listSessions', auth.merchantRead(), {
      summary: 'Your live sessions at this store',
      schema: { response: { 200: SessionList } },
      handler: async (request) => {
        const ctx = merchantContext(request);
        const me = signedIn(ctx.actor);
        const rows = await repo.listLiveSessions(ctx.db, {
          staffId: me.staffId,
          storeId: ctx.actor.storeId,
          at: ctx.clock.now(),
          idleMs: deps.config.staff.sessionIdleMs,
        });
        return { sessions: rows.map((r) => ({ ...r, current: r.id === me.sessionId })) };
      },
    });

    route.delete('/sessions/:sessionId', 'endSession', auth.merchantWrite(), {
      summary: 'End one of your sessions (another device, or this one)',
      schema: { params: SessionParams, response: { 200: Ended } },
      handler: async (request) => {
        const ctx = merchantContext(request);
        const me = signedIn(ctx.actor);
        const ended = await repo.endOwnSession(ctx.db, {
          sessionId: request.params.sessionId,
          staffId: me.staffId,
          storeId: ctx.actor.storeId,
          at: ctx.clock.now(),
        });
        if (!ended) throw notFound('Session');
        return { ended: true };
      },
    });
  };
}
