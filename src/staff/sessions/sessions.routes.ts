// /api/v1/auth: password sign-in, accepting an invitation, who am I, sign-out and one's sessions.
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import type { MerchantActor } from '../../platform/auth/actor.ts';
import { auth } from '../../platform/auth/guard.ts';
import { merchantContext } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors/app-error.ts';
import { acceptInvitation } from '../invitations/invitations.service.ts';
import type { CommonPasswords } from '../passwords/common-passwords.ts';
import { signIn } from '../sign-in/sign-in.service.ts';
import { AcceptBody, Ended, Me, SessionList, SessionParams, SignedIn, SignInBody } from '../staff.schemas.ts';
import { endCurrentSession } from './sessions.service.ts';
import * as repo from './sessions.repository.ts';

const tags = ['Staff'];
// Public routes get no error responses from the guard's defaults: they answer in the envelope too.
const ERR = { '4xx': { $ref: 'ErrorEnvelope#' }, '5xx': { $ref: 'ErrorEnvelope#' } };

function signedIn(actor: MerchantActor): { staffId: string; sessionId: string } {
  if (actor.staff?.via !== 'session' || !actor.staff.sessionId)
    throw new AppError('WRONG_TOKEN_KIND', 'This needs a staff session (sign in first)');
  return { staffId: actor.staff.id, sessionId: actor.staff.sessionId };
}

export function sessionsRoutes(common: CommonPasswords) {
  return async function routes(app: FastifyInstance) {
    const deps = app.deps;

    app.post<{ Body: SignInBody }>(
      '/sign-in',
      {
        config: { auth: auth.public() },
        schema: {
          operationId: 'signIn',
          tags,
          summary: 'Sign in with email and password; sets the session cookie',
          description:
            'A wrong password and an unknown email get the same 401 SIGN_IN_FAILED. After 10 failures in 15 minutes for an account, or 100 in an hour from an address, 429 TOO_MANY_SIGN_INS with Retry-After. Without store_id, the most recently used store.',
          body: SignInBody,
          response: { 200: SignedIn, ...ERR },
        },
      },
      (request, reply) => signIn(deps, request.body, request, reply),
    );

    app.post<{ Body: Static<typeof AcceptBody> }>(
      '/invitations/accept',
      {
        config: { auth: auth.public() },
        schema: {
          operationId: 'acceptStaffInvitation',
          tags,
          summary:
            'Accept an invitation (or the first-run setup link): choose name and password; sets the session cookie',
          description:
            'Passwords: at least 15 characters (8 once the person has a passkey), at most 256, not a commonly used one. Someone who already has an account gives its password.',
          body: AcceptBody,
          response: { 200: SignedIn, ...ERR },
        },
      },
      (request, reply) => acceptInvitation(deps, common, request.body, request, reply),
    );

    app.get(
      '/me',
      {
        config: { auth: auth.merchantRead() },
        schema: {
          operationId: 'getMe',
          tags,
          summary: 'Who is signed in, at which store, with which role',
          response: { 200: Me },
        },
      },
      async (request) => {
        const ctx = merchantContext(request);
        const { staffId } = signedIn(ctx.actor);
        const res = await ctx.db.query<Static<typeof Me>>(
          `SELECT jsonb_build_object('id', p.id, 'name', p.name, 'email', p.email) AS staff, m.store_id, m.role, m.permissions, m.unit_id
           FROM staff_memberships m JOIN staff_people p ON p.id = m.staff_id WHERE m.store_id = $1 AND m.staff_id = $2`,
          [ctx.actor.storeId, staffId],
        );
        return res.rows[0];
      },
    );

    app.post(
      '/sign-out',
      {
        config: { auth: auth.merchantWrite() },
        schema: {
          operationId: 'signOut',
          tags,
          summary: 'End this session on the server and clear the cookie',
          response: { 200: Ended },
        },
      },
      async (request, reply) => {
        signedIn(merchantContext(request).actor);
        await endCurrentSession(deps, request, reply);
        return { ended: true };
      },
    );

    app.get(
      '/sessions',
      {
        config: { auth: auth.merchantRead() },
        schema: {
          operationId: 'listSessions',
          tags,
          summary: 'Your live sessions at this store',
          response: { 200: SessionList },
        },
      },
      async (request) => {
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
    );

    app.delete<{ Params: Static<typeof SessionParams> }>(
      '/sessions/:sessionId',
      {
        config: { auth: auth.merchantWrite() },
        schema: {
          operationId: 'endSession',
          tags,
          summary: 'End one of your sessions (another device, or this one)',
          params: SessionParams,
          response: { 200: Ended },
        },
      },
      async (request) => {
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
    );
  };
}
