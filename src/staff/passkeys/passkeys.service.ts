// Passkeys (WebAuthn, discoverable credentials) through @simplewebauthn/server: each ceremony is
// "options" then "verify". The challenge of the options is stored server-side for five minutes and
// consumed before anything is verified, so a response can be replayed against nothing.
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { FastifyReply } from 'fastify';
import type { Queryable } from '../../platform/db/port.ts';
import { AppError, notFound } from '../../platform/errors/app-error.ts';
import type { SessionPrincipal } from '../sessions/sessions.repository.ts';
import { startSession, type SessionDeps } from '../sessions/sessions.service.ts';
import * as repo from './passkeys.repository.ts';
import type { AuthenticationBody, RegistrationBody } from './passkeys.schemas.ts';
import { ALGORITHMS, CHALLENGE_TTL_MS, relyingParty } from './relying-party.ts';

/** Whether the person has at least one passkey (the password rule allows 8 characters then). */
export function hasPasskey(db: Queryable, staffId: string): Promise<boolean> {
  return repo.hasPasskey(db, staffId);
}

/** The user handle is the person's id as 16 bytes: no email or name in it. */
function userHandle(staffId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(staffId.replace(/-/g, ''), 'hex'));
}

/** The challenge the browser signed, read from clientDataJSON; null when it is not readable. */
function challengeOf(clientDataJSON: string): string | null {
  try {
    const parsed = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof parsed.challenge === 'string' && parsed.challenge.length <= 200 ? parsed.challenge : null;
  } catch {
    return null;
  }
}

type Purpose = 'register' | 'authenticate';

/** Stores an options ceremony's challenge for CHALLENGE_TTL_MS (for registration: its person's and store's). */
async function storeChallenge(
  deps: SessionDeps,
  challenge: string,
  purpose: Purpose,
  who: { staff_id: string; store_id: string } | null,
): Promise<void> {
  const at = deps.clock.now();
  await repo.insertChallenge(deps.db, {
    challenge,
    purpose,
    staffId: who?.staff_id ?? null,
    storeId: who?.store_id ?? null,
    at,
    expiresAt: new Date(at.getTime() + CHALLENGE_TTL_MS),
  });
}

/** The challenge the browser signed, consumed (once); null when unreadable, not ours, used or expired. */
async function takeChallenge(
  deps: SessionDeps,
  clientDataJSON: string,
  purpose: Purpose,
  staffId: string | null,
  at: Date,
): Promise<string | null> {
  const challenge = challengeOf(clientDataJSON);
  const live = challenge && (await repo.consumeChallenge(deps.db, { challenge, purpose, staffId, at }));
  return live ? challenge : null;
}

export async function registrationOptions(deps: SessionDeps, who: SessionPrincipal) {
  const rp = relyingParty(deps.config);
  const existing = await repo.credentialIdsOf(deps.db, who.staff_id);
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: who.email,
    userDisplayName: who.name,
    userID: userHandle(who.staff_id),
    timeout: CHALLENGE_TTL_MS,
    attestationType: 'none',
    excludeCredentials: existing,
    // Discoverable: sign-in asks for no email, the passkey names its person.
    authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    supportedAlgorithmIDs: ALGORITHMS,
  });
  await storeChallenge(deps, options.challenge, 'register', who);
  return options;
}

export async function verifyRegistration(deps: SessionDeps, who: SessionPrincipal, body: RegistrationBody) {
  const rp = relyingParty(deps.config);
  const at = deps.clock.now();
  const challenge = await takeChallenge(deps, body.credential.response.clientDataJSON, 'register', who.staff_id, at);
  if (!challenge)
    throw new AppError(
      'PASSKEY_INVALID',
      'The registration was not started here, has expired or was already used; start again',
    );
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response: body.credential as never,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
      supportedAlgorithmIDs: ALGORITHMS,
    });
  } catch {
    throw new AppError('PASSKEY_INVALID', 'The passkey response does not verify');
  }
  if (!verified.verified) throw new AppError('PASSKEY_INVALID', 'The passkey response does not verify');
  const { credential } = verified.registrationInfo;
  const inserted = await repo.insertPasskey(deps.db, {
    credentialId: credential.id,
    staffId: who.staff_id,
    publicKey: credential.publicKey,
    counter: credential.counter,
    transports: credential.transports ?? body.credential.response.transports ?? [],
    name: body.name?.trim() || 'Passkey',
    at,
  });
  if (!inserted) throw new AppError('PASSKEY_INVALID', 'This passkey is already registered');
  return { id: credential.id, name: body.name?.trim() || 'Passkey', created_at: at.toISOString(), last_used_at: null };
}

export async function authenticationOptions(deps: SessionDeps) {
  const rp = relyingParty(deps.config);
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: 'preferred',
    timeout: CHALLENGE_TTL_MS,
  });
  await storeChallenge(deps, options.challenge, 'authenticate', null);
  return {
    challenge: options.challenge,
    rpId: options.rpId ?? rp.id,
    timeout: options.timeout ?? CHALLENGE_TTL_MS,
    userVerification: options.userVerification ?? 'preferred',
  };
}

/**
 * Verifies a passkey and starts a session. Every failure (unknown passkey, a challenge not ours or
 * used, a bad signature, a counter that went back, no enabled place at the store) is the same
 * SIGN_IN_FAILED, so the answer tells nothing about which accounts exist.
 */
export async function signInWithPasskey(
  deps: SessionDeps,
  body: AuthenticationBody,
  userAgent: string | undefined,
  reply: FastifyReply,
) {
  const failed = () => new AppError('SIGN_IN_FAILED', 'The passkey did not sign you in; try again or use another way');
  const rp = relyingParty(deps.config);
  const at = deps.clock.now();
  const challenge = await takeChallenge(deps, body.credential.response.clientDataJSON, 'authenticate', null, at);
  if (!challenge) throw failed();
  const passkey = await repo.findPasskey(deps.db, body.credential.id);
  if (!passkey) throw failed();
  const handle = body.credential.response.userHandle;
  if (handle && handle !== Buffer.from(userHandle(passkey.staff_id)).toString('base64url')) throw failed();
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response: body.credential as never,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(Buffer.from(passkey.public_key_hex, 'hex')),
        counter: Number(passkey.counter),
        transports: passkey.transports as never,
      },
      requireUserVerification: false,
    });
  } catch {
    throw failed();
  }
  if (!verified.verified) throw failed();
  const used = await repo.recordUse(deps.db, {
    credentialId: passkey.credential_id,
    counter: verified.authenticationInfo.newCounter,
    at,
  });
  if (!used) throw failed();
  const stores = await repo.enabledStores(deps.db, passkey.staff_id);
  const storeId = body.store_id ? stores.find((s) => s === body.store_id) : stores[0];
  if (!storeId) throw failed();
  const session = await startSession(deps, { staffId: passkey.staff_id, storeId, userAgent }, reply);
  return { store_id: storeId, expires_at: session.expiresAt };
}

export async function listOwnPasskeys(deps: SessionDeps, who: SessionPrincipal) {
  return { passkeys: await repo.listPasskeys(deps.db, who.staff_id) };
}

export async function removeOwnPasskey(deps: SessionDeps, who: SessionPrincipal, passkeyId: string) {
  if (!(await repo.deletePasskey(deps.db, { staffId: who.staff_id, credentialId: passkeyId })))
    throw notFound('Passkey');
  return listOwnPasskeys(deps, who);
}
