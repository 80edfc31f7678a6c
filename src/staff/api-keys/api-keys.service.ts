// Store API keys for a shop's own software: `bbo_live_` and 256 random bits, shown once, kept only
// as a SHA-256. A key acts with its scopes and, by the role table, as a manager may, except on
// staff, keys and one's own sign-in (src/staff/roles.ts). Revoking takes effect at the next request.
import { audit } from '../../platform/audit.ts';
import { inTransaction, type MerchantContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors/app-error.ts';
import { newSecret, secretHash } from '../secrets.ts';
import { API_KEY_PREFIX } from '../staff-auth.ts';
import * as repo from './api-keys.repository.ts';

function present(row: repo.ApiKeyRow) {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes,
    hint: `${API_KEY_PREFIX}...${row.key_hint}`,
    created_at: row.created_at,
    last_used_at: row.last_used_at,
  };
}

export async function createApiKey(ctx: MerchantContext, body: { name: string; scopes: string[] }) {
  const key = `${API_KEY_PREFIX}${newSecret()}`;
  const createdBy = ctx.actor.staff?.via === 'session' ? ctx.actor.staff.id : null;
  const row = await inTransaction(ctx, async (tx) => {
    const made = await repo.insertKey(tx, {
      storeId: ctx.actor.storeId,
      name: body.name.trim(),
      scopes: [...new Set(body.scopes)],
      keyHash: secretHash(key),
      hint: key.slice(-4),
      createdBy,
      at: ctx.clock.now(),
    });
    await audit(tx, ctx, {
      action: 'api_key.created',
      entity: 'api_key',
      entityId: made.id,
      details: { name: made.name, scopes: made.scopes },
    });
    return made;
  });
  return { api_key: present(row), key };
}

export async function listApiKeys(ctx: MerchantContext) {
  return { api_keys: (await repo.listKeys(ctx.db, ctx.actor.storeId)).map(present) };
}

export async function revokeApiKey(ctx: MerchantContext, keyId: string) {
  return inTransaction(ctx, async (tx) => {
    const gone = await repo.revokeKey(tx, { storeId: ctx.actor.storeId, keyId, at: ctx.clock.now() });
    if (!gone) throw notFound('API key');
    await audit(tx, ctx, {
      action: 'api_key.revoked',
      entity: 'api_key',
      entityId: gone.id,
      details: { name: gone.name },
    });
    return { revoked: true };
  });
}
