// Micro-benchmark behind a finding in docs/performance/history/round-16.md: node's CPU a merchant's
// create with the database taken out. The service's app (buildApp, every plugin and hook: the token
// check, schemas, security headers, compression, rate limits, the Idempotency-Key's hash, the request
// context, the response serializer) and one bare Fastify route, each answering
// POST /api/v1/bookings/appointments through app.inject, with a database that answers the create's
// statement at once with a fixed appointment. Rounds alternate the two; the first round warms up.
// Run: ./node_modules/.bin/node bench/micro/create-node-work.ts [turns]
import { randomBytes, randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { loadConfig } from '../../src/config.ts';
import { buildApp } from '../../src/app.ts';
import type { Database } from '../../src/platform/db/port.ts';
import { TokenMint } from '../harness/tokens.ts';

const turns = Number(process.argv[2] ?? 10_000);
const STORE = 'd9ce8dd1-39c9-f0f0-1df1-35021b2fb140';
const UNIT = '8f003e52-19a0-894d-6886-037a5a81d3b3';
const SERVICE = '47ef9e2b-355d-5d0f-36b5-b206621a18f2';
// An appointment as bbo_appointment_json presents it (bench data, scale 0.01).
const answer = {
  reused: false,
  appointment: {
    id: '497e4718-d551-394d-fda0-634d6c962f0e',
    source: 'merchant',
    status: 'confirmed',
    ends_at: '2101-01-01T10:00:00.000Z',
    unit_id: UNIT,
    children: 0,
    currency: 'GBP',
    store_id: STORE,
    starts_at: '2101-01-01T09:30:00.000Z',
    guest_name: 'Bench Guest',
    party_size: 1,
    service_id: SERVICE,
    customer_id: null,
    guest_email: 'bench.guest@example.org',
    guest_phone: null,
    high_chairs: 0,
    is_override: false,
    price_pence: 6000,
    balance_pence: 6000,
    deposit_pence: 0,
    payment_status: 'none',
  },
};

// Answers the create's one statement; any other statement is counted and fails the run at the end.
const result = { rows: [{ result: { replayed: false, body: answer } }], rowCount: 1 };
let others = 0;
const db = {
  engine: 'pg',
  async query(sql: string) {
    if (sql.includes('bbo_merchant_book')) return result;
    others++;
    return { rows: [], rowCount: 0 };
  },
  async transaction(fn: (tx: unknown) => unknown) {
    return fn(db);
  },
  async exec() {},
  async ping() {},
  async close() {},
} as unknown as Database;

const secret = randomBytes(32).toString('hex');
const config = loadConfig({
  ...process.env,
  DATABASE_URL: '',
  AUTH_SECRET: secret,
  LOG_LEVEL: 'warn',
  RATE_LIMIT_GLOBAL_PER_MIN: '10000000',
});
const token = await new TokenMint(secret).merchant(STORE);
const at = (i: number, minutes: number) =>
  new Date(Date.UTC(2101, 0, 1) + i * 3_600_000 + minutes * 60_000).toISOString();
const body = (i: number) =>
  JSON.stringify({
    store_id: STORE,
    unit_id: UNIT,
    service_id: SERVICE,
    starts_at: at(i, 0),
    ends_at: at(i, 30),
    guest_name: `Bench Guest ${i}`,
    guest_email: `bench.guest${i}@example.org`,
  });

async function measure(
  name: string,
  app: { inject: (o: object) => Promise<{ statusCode: number; body: string }> },
): Promise<void> {
  const t = process.cpuUsage();
  for (let i = 0; i < turns; i++) {
    const headers = {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      'idempotency-key': `${randomUUID()}-${i}`,
    };
    const res = await app.inject({ method: 'POST', url: '/api/v1/bookings/appointments', headers, payload: body(i) });
    if (res.statusCode !== 200) throw new Error(`${name} answered ${res.statusCode}: ${res.body.slice(0, 200)}`);
  }
  const c = process.cpuUsage(t);
  console.log(`${name}: ${((c.user + c.system) / turns / 1000).toFixed(3)} ms of CPU a create`);
}

const service = await buildApp({ config, db });
const bare = Fastify({ logger: false });
bare.post('/api/v1/bookings/appointments', async () => answer);
await bare.ready();
for (let round = 0; round < 4; round++) {
  console.log(round === 0 ? 'round 1 (warm-up)' : `round ${round + 1}`);
  await measure('  service', service);
  await measure('  bare route', bare);
}
if (others > 0) throw new Error(`the service sent ${others} statements besides the create's`);
await service.close();
await bare.close();
