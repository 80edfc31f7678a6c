// Invitations: a manager or owner invites a person by email with a role (72 hours, single use, a
// new one to the same email replaces the old); accepting sets the name and password and signs the
// person in. The operator invites a store's first owner; the first-run setup link (no store, no
// email, 24 hours) makes the first owner of a fresh database.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MerchantActor } from '../../platform/auth/actor.ts';
import { audit } from '../../platform/audit.ts';
import { inTransaction, type AdminContext, type MerchantContext, type RequestContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Tx } from '../../platform/db/port.ts';
import { hashPassword, assertPasswordAllowed, verifyPassword } from '../passwords/passwords.ts';
import type { CommonPasswords } from '../passwords/common-passwords.ts';
import { hasPasskey } from '../passkeys/passkeys.service.ts';
import { ROLE_RANK, type Role } from '../roles.ts';
import { newSecret, secretHash } from '../secrets.ts';
import type { SessionDeps } from '../sessions/sessions.service.ts';
import { signedInAnswer } from '../sign-in/sign-in.service.ts';
import type { AcceptBody, InviteBody, SignedIn } from '../staff.schemas.ts';
import type { InvitationMailer } from './invitation-mail.ts';
import * as repo from './invitations.repository.ts';

export const INVITATION_HOURS = 72;
export const SETUP_HOURS = 24;

/** The role the actor acts with: a signed-in member's own; a bearer JWT acts as the store's owner did before roles. */
export function actingRole(actor: MerchantActor): Role {
  return actor.staff?.role ?? 'owner';
}

function present(row: repo.InvitationRow) {
  return { invitation: { id: row.id, email: row.email ?? '', role: row.role, expires_at: row.expires_at } };
}

async function invite(
  ctx: RequestContext,
  mailer: InvitationMailer,
  input: { storeId: string; body: InviteBody; invitedBy: { id: string | null; name: string | null } },
) {
  const { storeId, body } = input;
  const email = body.email.trim().toLowerCase();
  const unitId = body.unit_id ?? null;
  if (unitId && !(await repo.unitOfStore(ctx.db, storeId, unitId)))
    throw new AppError('VALIDATION_FAILED', 'unit_id is not a unit of this store');
  const token = newSecret();
  const at = ctx.clock.now();
  const row = await inTransaction(ctx, async (tx) => {
    if (await repo.isMember(tx, storeId, email))
      throw new AppError('CONFLICT', 'That person already works at this store: change their role instead');
    const made = await repo.replaceInvitation(tx, {
      storeId,
      email,
      name: body.name?.trim() ?? null,
      role: body.role,
      permissions: body.permissions ?? [],
      unitId,
      tokenHash: secretHash(token),
      invitedBy: input.invitedBy.id,
      at,
      expiresAt: new Date(at.getTime() + INVITATION_HOURS * 3_600_000),
    });
    await audit(tx, ctx, {
      action: 'staff.invited',
      entity: 'staff_invitation',
      entityId: made.id,
      details: { store_id: storeId, role: made.role },
    });
    return made;
  });
  const storeName = (await repo.storeName(ctx.db, storeId)) ?? 'the shop';
  await mailer.send({
    storeId,
    to: email,
    storeName,
    role: row.role,
    invitedBy: input.invitedBy.name,
    token,
    hours: INVITATION_HOURS,
    sentAt: at.toISOString(),
    expiresAt: new Date(row.expires_at).toISOString(),
  });
  return present(row);
}

/** POST /api/v1/staff/invitations: nobody invites above their own role (a manager never makes an owner). */
export async function inviteStaff(ctx: MerchantContext, mailer: InvitationMailer, body: InviteBody) {
  const role = actingRole(ctx.actor);
  if (ROLE_RANK[body.role] > ROLE_RANK[role])
    throw new AppError('ROLE_FORBIDDEN', `A ${role} may not invite an ${body.role}`);
  const invitedBy =
    ctx.actor.staff?.via === 'session'
      ? { id: ctx.actor.staff.id, name: ctx.actor.staffName }
      : { id: null, name: ctx.actor.staffName };
  return invite(ctx, mailer, { storeId: ctx.actor.storeId, body, invitedBy });
}

/** POST /admin/v1/stores/{storeId}/staff/invitations: the operator invites a store's people (its first owner). */
export async function inviteForStore(ctx: AdminContext, mailer: InvitationMailer, storeId: string, body: InviteBody) {
  if (!(await repo.storeName(ctx.db, storeId))) throw new AppError('NOT_FOUND', 'Store not found');
  return invite(ctx, mailer, { storeId, body, invitedBy: { id: null, name: null } });
}

/**
 * An owner's invitation with every permission an owner starts with, no unit and no inviter: the
 * first-run setup link's (no store, no email) and the demo owner's (first-run.ts).
 */
export function ownerInvitation(input: {
  storeId: string | null;
  email: string | null;
  name: string | null;
  token: string;
  at: Date;
  hours: number;
}): Parameters<typeof repo.replaceInvitation>[1] {
  const { storeId, email, name, at } = input;
  return {
    storeId,
    email,
    name,
    role: 'owner',
    permissions: ['can_process_payments'],
    unitId: null,
    tokenHash: secretHash(input.token),
    invitedBy: null,
    at,
    expiresAt: new Date(at.getTime() + input.hours * 3_600_000),
  };
}

/** The first-run setup link's token: an owner invitation with no store and no email, 24 hours. */
export async function createSetupToken(db: SessionDeps['db'], at: Date): Promise<string> {
  const token = newSecret();
  await db.transaction((tx) =>
    repo.replaceInvitation(
      tx,
      ownerInvitation({ storeId: null, email: null, name: null, token, at, hours: SETUP_HOURS }),
    ),
  );
  return token;
}

/**
 * Audits a person's joining a store by an invitation (by password or through the identity
 * provider): the person who joined is the actor.
 */
export async function auditJoined(
  tx: Tx,
  source: { requestId: string; clock: Clock },
  joined: { storeId: string; staffId: string; name: string; role: string; invitationId: string; via?: 'oidc' },
): Promise<void> {
  const actor: MerchantActor = {
    kind: 'merchant',
    storeId: joined.storeId,
    userId: joined.staffId,
    staffName: joined.name,
    scopes: [],
    entitlements: [],
    permissions: [],
  };
  await audit(
    tx,
    { actor, ...source },
    {
      action: 'staff.joined',
      entity: 'staff',
      entityId: joined.staffId,
      details: { role: joined.role, invitation_id: joined.invitationId, ...(joined.via ? { via: joined.via } : {}) },
    },
  );
}

const INVALID = 'The invitation is unknown, expired, already used or replaced by a newer one';

/**
 * POST /api/v1/auth/invitations/accept: takes the invitation (once), creates the person or, for
 * one who already works elsewhere, checks their password, adds the membership, and signs them in.
 * Every refusal rolls the whole back: the invitation stays usable.
 */
export async function acceptInvitation(
  deps: SessionDeps,
  common: CommonPasswords,
  body: AcceptBody,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<SignedIn> {
  const at = deps.clock.now();
  const name = body.name.trim();
  if (!name) throw new AppError('VALIDATION_FAILED', 'name must not be blank');
  const who = await deps.db.transaction(async (tx) => {
    const inv = await repo.takeInvitation(tx, secretHash(body.token), at);
    if (!inv) throw new AppError('INVITATION_INVALID', INVALID);
    // The setup link makes the first owner of a database with no staff account, and no other.
    if (!inv.store_id && (await repo.anyStaff(tx))) throw new AppError('INVITATION_INVALID', INVALID);
    const email = (inv.email ?? body.email ?? '').trim().toLowerCase();
    if (!email) throw new AppError('VALIDATION_FAILED', "The setup link needs the owner's email");
    const person = await repo.personByEmail(tx, email);
    let staffId: string;
    if (person?.password_hash) {
      // Someone who already has an account joins with the password they have.
      if (!(await verifyPassword(person.password_hash, body.password)))
        throw new AppError('SIGN_IN_FAILED', 'This email already has an account: use its password');
      staffId = person.id;
    } else {
      await assertPasswordAllowed(
        body.password,
        { hasPasskey: person ? await hasPasskey(tx as SessionDeps['db'], person.id) : false },
        common,
      );
      const passwordHash = await hashPassword(body.password);
      if (person) {
        await repo.setPassword(tx, { staffId: person.id, name, passwordHash, at });
        staffId = person.id;
      } else {
        staffId = await repo.insertPerson(tx, { email, name, passwordHash, at });
      }
    }
    const storeId = inv.store_id ?? (await repo.setupStore(tx, at));
    await repo.insertMembership(tx, {
      storeId,
      staffId,
      role: inv.role,
      permissions: inv.permissions,
      unitId: inv.unit_id,
      at,
    });
    await auditJoined(
      tx,
      { requestId: request.id, clock: deps.clock },
      { storeId, staffId, name, role: inv.role, invitationId: inv.id },
    );
    return { staffId, storeId };
  });
  return signedInAnswer(deps, { ...who, userAgent: request.headers['user-agent'] ?? null }, reply);
}
