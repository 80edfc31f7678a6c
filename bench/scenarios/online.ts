// Online booking: a customer's availability search over a month and over 90 days, for one service
// of a 10-unit store with a realistic diary (the generated appointments, holds and time-off) and
// working hours Tuesday to Saturday with a lunch break.
import type { CustomerActor } from '../../src/platform/auth/actor.ts';
import { DAY_MS, type Call, type Scenario } from './common.ts';

function availability(days: number): Scenario {
  let storeId = '';
  let serviceId = '';
  let customerId = '';
  return {
    name: `availability ${days} days (10 units)`,
    kind: 'read',
    async setup(env) {
      const store = env.fx.diary;
      storeId = store.id;
      serviceId = store.services[0];
      customerId = store.customers[0];
      await env.mint.customer(customerId);
    },
    call(i): Call {
      // Starting today and on each of the next six days in turn.
      const from = new Date(Date.now() + (i % 7) * DAY_MS).toISOString().slice(0, 10);
      const to = new Date(Date.parse(from) + (days - 1) * DAY_MS).toISOString().slice(0, 10);
      const actor: CustomerActor = { kind: 'customer', customerId, scopes: ['customer:read', 'customer:write'] };
      const query = { store_id: storeId, service_id: serviceId, from_date: from, to_date: to };
      return { method: 'GET', route: '/api/v1/bookings/availability', query, actor, idempotent: false };
    },
    async service() {
      const { searchAvailability } = await import('../../src/bookings/availability/availability.service.ts');
      return (ctx, call) => searchAvailability(ctx, call.query as any);
    },
  };
}

export const availabilityMonth = () => availability(31);
export const availabilityQuarter = () => availability(90);
