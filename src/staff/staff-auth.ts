// How staff sessions and API keys become merchant actors, and the role table's enforcement: the
// guard's MerchantCredentials (src/platform/auth/guard.ts), built once by app.ts.
import type { FastifyRequest } from 'fastify';
import { ENTITLEMENTS, MERCHANT_SCOPES, type MerchantActor } from '../platform/auth/actor.ts';
import type { MerchantCredentials } from '../platform/auth/guard.ts';
import { AppError } from '../platform/errors/app-error.ts';
import { secretHash } from './secrets.ts';
import { readSession, sessionToken, type SessionDeps } from './sessions/sessions.service.ts';
import { findLiveKey } from './api-keys/api-keys.repository.ts';
import { ROLE_TABLE, recordRuleFor, roleMay } from './roles.ts';

/** A store API key's recognisable prefix, so secret scanners can find a leaked one. */
export const API_KEY_PREFIX = 'bbo_live_';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A cookie-authenticated write must come from the service's own origin: the Origin header, when
 * sent, names PUBLIC_URL or the request's own Host; Fetch Metadata, when sent, says same-origin.
 * A client that sends neither (not a browser) is not a cross-site request.
 */
function assertSameOrigin(request: FastifyRequest, ownOrigin: string): void {
  if (SAFE_METHODS.has(request.method)) return;
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') {
    throw new AppError('CROSS_ORIGIN_REFUSED', "A signed-in write must come from this service's own pages");
  }
  const origin = request.headers.origin;
  if (typeof origin !== 'string') return;
  const o = origin.toLowerCase();
  const host = request.headers.host?.toLowerCase();
  if (o === ownOrigin || (host && (o === `http://${host}` || o === `https://${host}`))) return;
  throw new AppError('CROSS_ORIGIN_REFUSED', "A signed-in write must come from this service's own pages");
}

function operationOf(request: FastifyRequest): string {
  return (request.routeOptions.schema as { operationId?: string } | undefined)?.operationId ?? '';
}

export function staffCredentials(deps: SessionDeps): MerchantCredentials {
  return {
    isApiKey: (token) => token.startsWith(API_KEY_PREFIX),

    async apiKey(token) {
      const key = await findLiveKey(deps.db, secretHash(token), deps.clock.now());
      if (!key) throw new AppError('UNAUTHENTICATED', 'The API key is unknown or revoked');
      return {
        kind: 'merchant',
        storeId: key.store_id,
        userId: key.id,
        staffName: `API key ${key.name}`,
        scopes: key.scopes,
        entitlements: [...ENTITLEMENTS],
        permissions: [],
        staff: { via: 'api_key', id: key.id, role: null, unitId: null, sessionId: null },
      } satisfies MerchantActor;
    },

    async session(request) {
      const token = sessionToken(request);
      if (!token) return null;
      const s = await readSession(deps, token);
      if (!s) throw new AppError('UNAUTHENTICATED', 'The session has ended or expired; sign in again');
      assertSameOrigin(request, deps.config.staff.origin);
      return {
        kind: 'merchant',
        storeId: s.store_id,
        userId: s.staff_id,
        staffName: s.name,
        scopes: [...MERCHANT_SCOPES],
        entitlements: [...ENTITLEMENTS],
        permissions: s.permissions,
        staff: { via: 'session', id: s.staff_id, role: s.role, unitId: s.unit_id, sessionId: s.session_id },
      } satisfies MerchantActor;
    },

    declares: (operationId) => operationId in ROLE_TABLE,

    authorize(request, actor) {
      const operationId = operationOf(request);
      if (!roleMay(operationId, actor.staff!.role)) {
        const who = actor.staff!.role ? `The ${actor.staff!.role} role` : 'An API key';
        throw new AppError('ROLE_FORBIDDEN', `${who} may not call ${operationId}`);
      }
    },

    async authorizeRecord(request, actor) {
      const staff = actor.staff!;
      const rule = recordRuleFor(operationOf(request), staff.role);
      if (!rule) return;
      if (rule.kind === 'own_unit') {
        // The unit is named in the path: theirs or not, no lookup needed (a person without a unit has none).
        if (staff.unitId && (request.params as { unitId?: string } | undefined)?.unitId?.toLowerCase() === staff.unitId)
          return;
        throw new AppError('ROLE_FORBIDDEN', `The ${staff.role} role may not do this to another unit's calendar feed`);
      }
      const id =
        rule.from === 'body.appointment_id'
          ? (request.body as { appointment_id?: string } | undefined)?.appointment_id
          : (request.params as { customerId?: string } | undefined)?.customerId;
      // The route's own lookup answers a missing record; here only whose it is matters.
      const sql =
        rule.kind === 'own_unit_appointment'
          ? `SELECT (unit_id = $3) AS mine FROM appointments WHERE store_id = $1 AND id = $2`
          : `SELECT EXISTS (SELECT 1 FROM appointments WHERE store_id = $1 AND customer_id = $2 AND unit_id = $3) AS mine`;
      const res = await deps.db.query<{ mine: boolean | null }>(sql, [actor.storeId, id, staff.unitId]);
      const row = res.rows[0];
      if (rule.kind === 'own_unit_appointment' && !row) return;
      if (!row?.mine) {
        throw new AppError(
          'ROLE_FORBIDDEN',
          rule.kind === 'own_unit_appointment'
            ? 'The staff role may change only appointments on its own unit'
            : 'The staff role may read only customers it serves',
        );
      }
    },
  };
}
