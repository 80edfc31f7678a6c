// Bookable services with their variants and add-ons. Archiving is is_active false, never a delete.
// A price or duration change touches only the service: appointments carry their own snapshot.
import type { MerchantContext } from '../../platform/context.ts';
import { inTransaction } from '../../platform/context.ts';
import type { Tx } from '../../platform/db/port.ts';
import { audit } from '../../platform/audit.ts';
import { emit } from '../../events/outbox.ts';
import { changedFields } from '../../events/changes.ts';
import { badRequest, notFound } from '../../platform/errors/app-error.ts';
import * as repo from './services.repository.ts';
import * as options from './service-options.repository.ts';
import type { AddonChange, CreateBody, Service, UpdateBody, VariantChange } from './services.schemas.ts';

export async function listServices(ctx: MerchantContext, includeArchived: boolean): Promise<{ services: Service[] }> {
  return { services: await repo.listServices(ctx.db, ctx.actor.storeId, includeArchived) };
}

function assertParty(min: number, max: number, stored: { min?: boolean; max?: boolean } = {}): void {
  if (min > max) {
    const which = (name: string, value: number, isStored?: boolean) =>
      `${name} (${value}${isStored ? ', stored' : ''})`;
    throw badRequest(
      `${which('party_min', min, stored.min)} must not be greater than ${which('party_max', max, stored.max)}`,
    );
  }
}

async function load(tx: Tx, storeId: string, id: string): Promise<Service> {
  const service = await repo.findService(tx, storeId, id);
  if (!service) throw new Error(`service ${id} vanished inside its own transaction`);
  return service;
}

export async function createService(ctx: MerchantContext, body: CreateBody): Promise<{ service: Service }> {
  const { store_id: _storeId, client_token, variants = [], addons = [], ...fields } = body;
  const partyMin = fields.party_min ?? 1;
  const partyMax = fields.party_max ?? partyMin; // a party_min alone also sets the largest party
  assertParty(partyMin, partyMax);
  const storeId = ctx.actor.storeId;
  return inTransaction(ctx, async (tx) => {
    const storeCurrency = await repo.storeCurrency(tx, storeId);
    if (!storeCurrency) throw notFound('Store');
    const currency = fields.currency ?? storeCurrency;
    const id = await repo.insertService(
      tx,
      storeId,
      client_token ?? null,
      { ...fields, currency, party_min: partyMin, party_max: partyMax },
      ctx.clock.now().toISOString(),
    );
    if (!id) {
      // The token was used before (maybe by a concurrent request that just committed): return that service as it is.
      const existing = await repo.findServiceIdByToken(tx, storeId, client_token!);
      if (!existing) throw new Error('client_token conflict without a row to return');
      return { service: await load(tx, storeId, existing) };
    }
    for (const v of variants) await options.insertVariant(tx, storeId, id, v);
    for (const a of addons) await options.insertAddon(tx, storeId, id, a);
    await audit(tx, ctx, {
      action: 'service.create',
      entity: 'service',
      entityId: id,
      details: { variants: variants.length, addons: addons.length },
    });
    const service = await load(tx, storeId, id);
    await emit(tx, { storeId, type: 'service.created', data: service }, ctx.clock.now());
    return { service };
  });
}

/** Items that name an id must name each one once; items without one create, so they need a name. */
function checkItems(kind: 'variants' | 'addons', items: Array<{ id?: string; name?: string }>): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (item.id === undefined && item.name === undefined)
      throw badRequest(`body.${kind}[${i}].name is required for a new item (no id)`);
    if (item.id !== undefined) {
      if (seen.has(item.id)) throw badRequest(`body.${kind}[${i}].id appears twice`);
      seen.add(item.id);
    }
  });
}

export async function updateService(
  ctx: MerchantContext,
  serviceId: string,
  body: UpdateBody,
): Promise<{ service: Service }> {
  const { store_id: _storeId, variants = [], addons = [], ...fields } = body;
  checkItems('variants', variants);
  checkItems('addons', addons);
  const storeId = ctx.actor.storeId;
  return inTransaction(ctx, async (tx) => {
    const stored = await repo.lockService(tx, storeId, serviceId);
    if (!stored) throw notFound('Service');
    // A change to one bound is checked against the other as stored.
    assertParty(fields.party_min ?? stored.party_min, fields.party_max ?? stored.party_max, {
      min: fields.party_min === undefined,
      max: fields.party_max === undefined,
    });
    const before = await load(tx, storeId, serviceId);
    await repo.updateService(tx, storeId, serviceId, fields, ctx.clock.now().toISOString());
    await applyVariants(tx, storeId, serviceId, variants);
    await applyAddons(tx, storeId, serviceId, addons);
    await audit(tx, ctx, {
      action:
        fields.is_active === false
          ? 'service.archive'
          : fields.is_active === true
            ? 'service.restore'
            : 'service.update',
      entity: 'service',
      entityId: serviceId,
      // Field names only, never values (a description or deposit policy is the shop's business).
      details: { fields: Object.keys(fields), variants: variants.length, addons: addons.length },
    });
    const service = await load(tx, storeId, serviceId);
    // A change that changes nothing emits nothing; variants and addons count as one field each.
    const changed = changedFields(before, service);
    if (changed.length > 0)
      await emit(
        tx,
        { storeId, type: 'service.updated', data: { ...service, changed_fields: changed } },
        ctx.clock.now(),
      );
    return { service };
  });
}

async function applyVariants(tx: Tx, storeId: string, serviceId: string, items: VariantChange[]): Promise<void> {
  for (const [i, item] of items.entries()) {
    if (item.id === undefined) {
      await options.insertVariant(tx, storeId, serviceId, { ...item, name: item.name! });
    } else if (!(await options.updateVariant(tx, storeId, serviceId, { ...item, id: item.id }))) {
      throw badRequest(`body.variants[${i}].id is not a variant of this service`);
    }
  }
}

async function applyAddons(tx: Tx, storeId: string, serviceId: string, items: AddonChange[]): Promise<void> {
  for (const [i, item] of items.entries()) {
    if (item.id === undefined) {
      await options.insertAddon(tx, storeId, serviceId, { ...item, name: item.name! });
    } else if (!(await options.updateAddon(tx, storeId, serviceId, { ...item, id: item.id }))) {
      throw badRequest(`body.addons[${i}].id is not an add-on of this service`);
    }
  }
}
