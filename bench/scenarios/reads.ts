// Read scenarios: the diary for a week of a 10-unit store, appointment search, the live queue
// (30 waiting), the roster of the 100,000-customer store sorted by spend with a facet and a text
// filter, customer search and the journey page of customers with long timelines.
import { DAY_MS, merchant, NEEDLES, type Call, type Scenario } from './common.ts';

function mondayUtc(now = new Date()): number {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return midnight - ((new Date(midnight).getUTCDay() + 6) % 7) * DAY_MS;
}
const dateOnly = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function diaryWeek(): Scenario {
  let storeId = '';
  return {
    name: 'diary week (10 units)',
    kind: 'read',
    async setup(env) {
      storeId = env.fx.diary.id;
      await env.mint.merchant(storeId);
    },
    call(i): Call {
      // Last week, this week, next week in turn.
      const from = mondayUtc() + ((i % 3) - 1) * 7 * DAY_MS;
      const query = {
        store_id: storeId,
        from_date: dateOnly(from),
        to_date: dateOnly(from + 6 * DAY_MS),
        include_cancelled: false,
      };
      return { method: 'GET', route: '/api/v1/bookings/diary', query, actor: merchant(storeId), idempotent: false };
    },
    async service() {
      const { readDiary } = await import('../../src/bookings/diary/diary.service.ts');
      return (ctx, call) => readDiary(ctx, call.query as any);
    },
  };
}

export function appointmentSearch(): Scenario {
  let storeId = '';
  return {
    name: 'appointment search',
    kind: 'read',
    async setup(env) {
      storeId = env.fx.large.id;
      await env.mint.merchant(storeId);
    },
    call(i): Call {
      const query = { store_id: storeId, q: NEEDLES[i % NEEDLES.length], limit: 20, visit_limit: 12 };
      return {
        method: 'GET',
        route: '/api/v1/bookings/appointments/search',
        query,
        actor: merchant(storeId),
        idempotent: false,
      };
    },
    async service() {
      const { searchAppointmentPeople } = await import(
        '../../src/bookings/appointment-search/appointment-search.service.ts'
      );
      return (ctx, call) => searchAppointmentPeople(ctx, call.query as any);
    },
  };
}

export function queueList(): Scenario {
  let storeId = '';
  return {
    name: 'queue list (30 waiting)',
    kind: 'read',
    async setup(env) {
      storeId = env.fx.diary.id;
      await env.mint.merchant(storeId);
    },
    call(): Call {
      return {
        method: 'GET',
        route: '/api/v1/bookings/queue',
        query: { store_id: storeId },
        actor: merchant(storeId),
        idempotent: false,
      };
    },
    async service() {
      const { listQueue } = await import('../../src/bookings/queue/queue.service.ts');
      return (ctx) => listQueue(ctx);
    },
  };
}

export function rosterBySpend(): Scenario {
  let storeId = '';
  return {
    name: 'roster by spend + facet + text',
    kind: 'read',
    async setup(env) {
      storeId = env.fx.large.id;
      await env.mint.merchant(storeId);
    },
    call(i): Call {
      const query = {
        store_id: storeId,
        sort: 'spend',
        facets: 'has_orders',
        q: NEEDLES[i % NEEDLES.length],
        limit: 30,
        offset: 0,
      };
      return { method: 'GET', route: '/api/v1/customers/list', query, actor: merchant(storeId), idempotent: false };
    },
    async service() {
      const { listRoster } = await import('../../src/customers/roster/roster.service.ts');
      return (ctx, call) => listRoster(ctx, call.query as any);
    },
  };
}

export function customerSearch(): Scenario {
  let storeId = '';
  return {
    name: 'customer search',
    kind: 'read',
    async setup(env) {
      storeId = env.fx.large.id;
      await env.mint.merchant(storeId);
    },
    call(i): Call {
      const query = { store_id: storeId, q: NEEDLES[(i * 7) % NEEDLES.length] };
      return { method: 'GET', route: '/api/v1/customers/search', query, actor: merchant(storeId), idempotent: false };
    },
    async service() {
      const { searchRoster } = await import('../../src/customers/roster/roster.service.ts');
      return (ctx, call) => searchRoster(ctx, call.query as any);
    },
  };
}

export function journeyPage(): Scenario {
  let storeId = '';
  let customers: string[] = [];
  return {
    name: 'journey page',
    kind: 'read',
    async setup(env) {
      storeId = env.fx.large.id;
      await env.mint.merchant(storeId);
      // Regulars with long timelines, mixed with the store's ordinary customers.
      const res = await env.db.query<{ customer_id: string }>(
        `SELECT sc.customer_id FROM store_customers sc JOIN customers c ON c.id = sc.customer_id
          WHERE sc.store_id = $1 AND c.erased_at IS NULL ORDER BY sc.total_visits DESC, sc.customer_id LIMIT 100`,
        [storeId],
      );
      customers = [...res.rows.map((r) => r.customer_id), ...env.fx.large.customers.slice(0, 100)];
    },
    call(i): Call {
      const id = customers[i % customers.length];
      const query = { store_id: storeId, limit: 25 };
      return {
        method: 'GET',
        route: `/api/v1/customers/${id}/journey`,
        query,
        actor: merchant(storeId),
        idempotent: false,
      };
    },
    async service() {
      const { customerJourney } = await import('../../src/customers/journey/journey.service.ts');
      return (ctx, call) => customerJourney(ctx, call.route.split('/')[4], call.query as any);
    },
  };
}
