// A signed-in customer flipping a notification toggle for one of their stores (upsert).
import type { CustomerActor } from '../../src/platform/auth/actor.ts';
import type { Call, Scenario } from './common.ts';

export function preferenceUpsert(): Scenario {
  let pairs: { customer_id: string; store_id: string }[] = [];
  return {
    name: 'preference upsert',
    kind: 'write',
    async setup(env) {
      const res = await env.db.query<{ customer_id: string; store_id: string }>(
        `SELECT sc.customer_id, sc.store_id FROM store_customers sc JOIN customers c ON c.id = sc.customer_id
          WHERE c.erased_at IS NULL ORDER BY hashtext(sc.customer_id::text || sc.store_id::text) LIMIT 500`,
      );
      pairs = res.rows;
      for (const p of pairs) await env.mint.customer(p.customer_id);
    },
    call(i): Call {
      const p = pairs[i % pairs.length];
      const actor: CustomerActor = {
        kind: 'customer',
        customerId: p.customer_id,
        scopes: ['customer:read', 'customer:write'],
      };
      const body = { storeId: p.store_id, marketingEnabled: i % 2 === 0, messagesMuted: i % 5 === 0 };
      return { method: 'POST', route: '/api/v1/notifications/preferences', body, actor, idempotent: true };
    },
    async service() {
      const { savePreferences } = await import('../../src/notifications/preferences.service.ts');
      return (ctx, call) => savePreferences(ctx, call.body as any);
    },
  };
}
