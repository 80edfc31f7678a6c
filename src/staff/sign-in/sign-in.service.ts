// Password sign-in. A wrong password and an unknown email get the same answer (401 SIGN_IN_FAILED)
// after the same argon2id work (an unknown email is verified against a dummy hash); both count
// towards the throttle. Signing in picks the store: store_id when given, else the person's most
// recently used one; the answer lists the others.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/errors/app-error.ts';
import { verifyPassword } from '../passwords/passwords.ts';
import { startSession, type SessionDeps } from '../sessions/sessions.service.ts';
import type { SignedIn, SignInBody } from '../staff.schemas.ts';
import * as repo from './sign-in.repository.ts';
import { assertNotThrottled, recordFailure, subjectsOf } from './throttle.ts';

const FAILED = 'The email or password is wrong';

export async function signIn(
  deps: SessionDeps,
  body: SignInBody,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<SignedIn> {
  const email = body.email.trim().toLowerCase();
  const subjects = subjectsOf(email, request.ip);
  await assertNotThrottled(deps.db, subjects, deps.clock.now());
  const person = await repo.findPersonByEmail(deps.db, email);
  const ok = await verifyPassword(person?.password_hash ?? null, body.password);
  const store =
    ok && person
      ? body.store_id
        ? person.stores.find((s) => s.store_id === body.store_id)
        : person.stores[0]
      : undefined;
  if (!person || !store) {
    await recordFailure(deps.db, subjects, deps.clock.now());
    throw new AppError('SIGN_IN_FAILED', FAILED);
  }
  await repo.clearAccountFailures(deps.db, subjects.account);
  return signedInAnswer(
    deps,
    { staffId: person.id, storeId: store.store_id, userAgent: request.headers['user-agent'] ?? null },
    reply,
  );
}

/** Starts the session and answers who is signed in where (sign-in and accepting an invitation). */
export async function signedInAnswer(
  deps: SessionDeps,
  who: { staffId: string; storeId: string; userAgent: string | null },
  reply: FastifyReply,
): Promise<SignedIn> {
  await startSession(deps, who, reply);
  const res = await deps.db.query<Omit<SignedIn, 'stores'> & { stores: SignedIn['stores'] }>(
    `SELECT jsonb_build_object('id', p.id, 'name', p.name, 'email', p.email) AS staff, m.store_id, m.role, m.permissions, m.unit_id,
            (SELECT coalesce(jsonb_agg(jsonb_build_object('store_id', o.store_id, 'name', s.name, 'role', o.role) ORDER BY s.name, o.store_id), '[]')
               FROM staff_memberships o JOIN stores s ON s.id = o.store_id
              WHERE o.staff_id = p.id AND NOT o.disabled) AS stores
       FROM staff_memberships m JOIN staff_people p ON p.id = m.staff_id
      WHERE m.store_id = $1 AND m.staff_id = $2`,
    [who.storeId, who.staffId],
  );
  return res.rows[0];
}
