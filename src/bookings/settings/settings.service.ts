// The store's online booking settings: read and change (merchant). Audited.
import { inTransaction, type MerchantContext } from '../../platform/context.ts';
import { audit } from '../../platform/audit.ts';
import { notFound } from '../../platform/errors/app-error.ts';
import { normaliseOrigins } from './origins.ts';
import { asSlugRefusal } from './booking-page-slug.ts';
import { normaliseShopDetails } from './shop-details.ts';
import * as repo from './settings.repository.ts';
import { SETTING_NAMES, type PatchSettingsBody, type SettingsResponse } from './settings.schemas.ts';

export async function getSettings(ctx: MerchantContext): Promise<SettingsResponse> {
  const settings = await repo.readSettings(ctx.db, ctx.actor.storeId);
  if (!settings) throw notFound('Store');
  return { settings };
}

export async function patchSettings(ctx: MerchantContext, body: PatchSettingsBody): Promise<SettingsResponse> {
  const { store_id: _ignored, ...fields } = body as Record<string, unknown>;
  if (Array.isArray(fields.cors_origins)) fields.cors_origins = normaliseOrigins(fields.cors_origins as string[]);
  normaliseShopDetails(fields);
  return inTransaction(ctx, async (tx) => {
    const settings = await repo.updateSettings(tx, ctx.actor.storeId, fields, ctx.clock.now()).catch(asSlugRefusal);
    if (!settings) throw notFound('Store');
    await audit(tx, ctx, {
      action: 'store.settings_updated',
      entity: 'store',
      entityId: ctx.actor.storeId,
      details: { fields: SETTING_NAMES.filter((c) => fields[c] !== undefined) },
    });
    return { settings };
  });
}
