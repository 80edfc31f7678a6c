// The create's floor on node's side (round 16): the same database call as
// POST /api/v1/bookings/appointments (bbo_merchant_book, through the service's adapter, pool and
// embedded engine), behind one bare Fastify route: no token check, no schemas, no security headers,
// compression, request context, rate limits, metrics, logging or workers. Whatever the service does
// below this rate is the cost of its own work around the database call. Not a service: it trusts the
// body's store_id and names every actor "bench". Run beside the service:
//   node bench/embedded.ts --scenarios "create appointment" --only floor,noworkers \
//     --variants "floor:BENCH_SERVER_SCRIPT=bench/floor-server.ts;noworkers:WORKER_ENABLED=false"
import Fastify from 'fastify';
import { randomUUID } from 'node:crypto';
import { loadConfigOrExit } from '../src/config.ts';
import { openDatabase } from '../src/platform/db/open.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { callSql } from '../src/platform/one-statement.ts';
import { readIdempotencyClaim } from '../src/platform/idempotency.ts';
import { embeddedCluster } from '../src/platform/db/embedded-postgres.adapter.ts';

const config = loadConfigOrExit();
const db = await openDatabase(config);
await migrate(db);
const app = Fastify({ logger: false });
app.get('/readyz', async () => ({ ok: true }));
const sql = callSql('bbo_merchant_book');
const PATH = '/api/v1/bookings/appointments';
app.post(PATH, async (req, reply) => {
  const b = req.body as Record<string, any>;
  // The service's own Idempotency-Key claim (its hash and lock key), in the shape the function takes.
  const c = readIdempotencyClaim(req, `merchant/${b.store_id}`);
  const claim = c && {
    principal: c.principal,
    method: c.method,
    path: c.path,
    key: c.key,
    request_hash: c.requestHash,
    lock_key: c.lockKey,
  };
  const actor = {
    store_id: b.store_id,
    actor_kind: 'merchant',
    actor_id: 'bench',
    actor_name: 'Bench Staff',
    request_id: randomUUID(),
  };
  const booking = {
    store_id: b.store_id,
    unit_id: b.unit_id,
    service_id: b.service_id ?? null,
    customer_id: b.customer_id ?? null,
    guest_name: b.guest_name ?? null,
    guest_email: b.guest_email?.toLowerCase() ?? null,
    guest_phone: null,
    party_size: 1,
    price_pence: null,
    starts_at: b.starts_at,
    ends_at: b.ends_at,
    block_starts_at: null,
    block_ends_at: null,
    override: false,
    client_token: null,
    created_by: 'bench',
  };
  try {
    const r = await db.query<{ result: { body: unknown } }>(sql, [
      claim && JSON.stringify(claim),
      JSON.stringify(actor),
      new Date().toISOString(),
      JSON.stringify(booking),
    ]);
    return r.rows[0].result.body;
  } catch (err: any) {
    if (err.code === '23P01') return reply.code(409).send({ error: { code: 'SLOT_TAKEN', message: 'taken' } });
    if (err.code === 'BB001') return reply.code(422).send({ error: { code: err.message, message: err.detail } });
    throw err;
  }
});
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
process.on(
  'SIGTERM',
  () =>
    void app
      .close()
      .then(() => db.close())
      .then(async () => (await embeddedCluster())?.stop())
      .then(() => process.exit(0)),
);
