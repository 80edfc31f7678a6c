// Proof: webhook delivery is at-least-once through crashes. Two API processes (WORKER_ENABLED=false)
// and two `npm run worker` processes share one PostgreSQL; a receiver on 127.0.0.1 records every
// request.
//  1. kill -9 of the only worker process in the middle of deliveries (its attempts in flight), then
//     a restart and a second worker: every event is delivered at least once, every signature
//     verifies, and duplicates carry the same webhook-id.
//  2. a receiver that answers 500 three times, then 200 (short schedule WEBHOOK_RETRY_SCHEDULE_MS):
//     delivered on the 4th attempt; the log shows the attempts with growing delays.
//  3. kill -9 of an API process while it is committing creates: every appointment that exists in the
//     database (answered or not) has its appointment.created delivered.
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { emit } from '../../src/events/outbox.ts';
import { sleep } from '../env.ts';
import { http } from '../client.ts';
import { describe, type Proof, type ProofRun } from '../proof.ts';
import { startStack, type Stack } from '../stack.ts';
import { insertStore, insertUnits, merchantToken } from '../seed.ts';
import { WorkerProcess } from '../worker-process.ts';
import { startProofReceiver, type ProofReceiver } from '../webhook-receiver.ts';

const ENDPOINTS = '/api/v1/webhooks/endpoints';
const CREATE = '/api/v1/bookings/appointments';
const ENV = {
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  // Proofs only: a short schedule (the service's default is 5 s, 5 min, 30 min, ... 24 h).
  WEBHOOK_RETRY_SCHEDULE_MS: '200,400,800,1600,3200',
  // A short attempt timeout makes a dead worker's lease (twice the timeout plus 2 s) run out in 4 s.
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_POLL_MS: '50',
  RATE_LIMIT_GLOBAL_PER_MIN: '10000000',
};

async function register(
  stack: Stack,
  storeId: string,
  url: string,
): Promise<{ id: string; secret: string; token: string }> {
  const token = await merchantToken(storeId);
  const r = await http(stack.servers[0].baseUrl, 'POST', ENDPOINTS, { token, body: { url } });
  if (r.status !== 200) throw new Error(`registering an endpoint: ${describe(r)}`);
  return { id: r.body.endpoint.id, secret: r.body.endpoint.secret, token };
}

async function waitUntil(
  p: ProofRun,
  what: string,
  ok: () => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<boolean> {
  const deadline = Date.now() + Math.min(timeoutMs, Math.max(2_000, p.timeLeft() - 5_000));
  while (Date.now() < deadline) {
    if (await ok()) return true;
    await sleep(50);
  }
  p.fail('timed out', what);
  return false;
}

async function workerKill(p: ProofRun, stack: Stack, rx: ProofReceiver, workers: WorkerProcess[]) {
  const db = stack.database.db;
  const store = await insertStore(db, 'Webhook Kill');
  const ep = await register(stack, store, rx.url('/kill'));
  // Answers take a while, so attempts are in flight when the worker dies.
  rx.respond((d) => ({ status: 200, delayMs: d.path === '/kill' ? 60 : 0 }));
  const EVENTS = 300;
  for (let i = 0; i < EVENTS; i++)
    await emit(db, { storeId: store, type: 'appointment.created', data: { n: i } }, new Date());
  const ids = new Set(
    (await db.query<{ id: string }>('SELECT id FROM events WHERE store_id = $1', [store])).rows.map((r) => r.id),
  );
  // The events are committed; the only worker starts on them now and is killed early in the run.
  workers.push(await WorkerProcess.start(stack.database.url, ENV, 'worker1'));
  await waitUntil(
    p,
    'first deliveries before the kill',
    () => rx.got.filter((d) => d.path === '/kill').length >= 40,
    20_000,
  );
  // From here the receiver holds its answers, so the next attempts are certainly unanswered when the
  // worker dies: the kill always cuts deliveries in flight, whatever the machine's speed.
  rx.respond((d) => ({ status: 200, delayMs: d.path === '/kill' ? 30_000 : 0 }));
  await waitUntil(p, 'an attempt in flight at the kill', () => rx.pending('/kill') > 0, 10_000);
  const inFlight = rx.pending('/kill');
  await workers[0].kill();
  rx.respond((d) => ({ status: 200, delayMs: d.path === '/kill' ? 60 : 0 }));
  p.check(inFlight > 0, 'no delivery was in flight at the worker kill');
  p.figure(
    'worker kill: requests received before kill -9 / unanswered at it',
    `${rx.got.filter((d) => d.path === '/kill').length} / ${inFlight}`,
  );
  await workers[0].spawn();
  workers.push(await WorkerProcess.start(stack.database.url, ENV, 'worker2'));
  const seen = () => new Set(rx.got.filter((d) => d.path === '/kill').map((d) => d.webhookId));
  await waitUntil(
    p,
    `every event delivered after the worker restart (${seen().size} of ${EVENTS})`,
    () => [...ids].every((id) => seen().has(id)),
    30_000,
  );
  const got = rx.got.filter((d) => d.path === '/kill');
  const missing = [...ids].filter((id) => !seen().has(id));
  p.check(
    missing.length === 0,
    'an event was never delivered after a worker kill -9',
    `${missing.length} of ${EVENTS}`,
  );
  let badId = 0;
  let badSig = 0;
  const signer = new Webhook(ep.secret);
  for (const d of got) {
    if (d.webhookId !== d.bodyId) badId++;
    try {
      signer.verify(d.body, {
        'webhook-id': d.webhookId,
        'webhook-timestamp': d.timestamp,
        'webhook-signature': d.signature,
      });
    } catch {
      badSig++;
    }
  }
  p.check(badId === 0, 'a delivery carried a webhook-id other than its event id', String(badId));
  p.check(badSig === 0, 'a delivery signature did not verify', String(badSig));
  p.figure(
    'worker kill: events / requests received (duplicates, same webhook-id)',
    `${EVENTS} / ${got.length} (${got.length - seen().size})`,
  );
  const retried = (
    await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND attempts > 1',
      [ep.id],
    )
  ).rows[0].n;
  p.figure('worker kill: deliveries attempted again after their lease ran out', retried);
  // Each attempt cut by the kill was claimed (attempts 1) and never recorded, so its lease ran out and it was claimed again.
  p.check(retried > 0, 'no delivery cut by the kill was attempted again after its lease ran out', String(retried));
  await waitUntil(
    p,
    'every delivery recorded as delivered',
    async () =>
      (
        await db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status <> 'delivered'",
          [ep.id],
        )
      ).rows[0].n === 0,
    10_000,
  );
}

async function flaky(p: ProofRun, stack: Stack, rx: ProofReceiver) {
  const db = stack.database.db;
  const store = await insertStore(db, 'Webhook Flaky');
  const ep = await register(stack, store, rx.url('/flaky'));
  rx.respond((d, nth) => ({ status: d.path === '/flaky' && nth <= 3 ? 500 : 200 }));
  await emit(db, { storeId: store, type: 'appointment.created', data: { flaky: true } }, new Date());
  await waitUntil(
    p,
    'the flaky receiver got 4 attempts',
    () => rx.got.filter((d) => d.path === '/flaky').length >= 4,
    20_000,
  );
  let log: any[] = [];
  await waitUntil(
    p,
    'the 4th attempt logged',
    async () => {
      const r = await http(stack.servers[1].baseUrl, 'GET', `${ENDPOINTS}/${ep.id}/deliveries`, { token: ep.token });
      log = r.status === 200 ? r.body.deliveries : [];
      return log.length >= 4;
    },
    10_000,
  );
  const oldestFirst = [...log].reverse();
  p.check(
    oldestFirst.map((a) => a.attempt).join() === '1,2,3,4',
    'attempts not numbered 1 to 4',
    oldestFirst.map((a) => a.attempt).join(),
  );
  p.check(
    oldestFirst.map((a) => a.http_status).join() === '500,500,500,200',
    'attempt statuses not 500, 500, 500, 200',
    oldestFirst.map((a) => a.http_status).join(),
  );
  p.check(
    log[0]?.delivery_status === 'delivered',
    'the event is not recorded as delivered',
    String(log[0]?.delivery_status),
  );
  const gaps = oldestFirst.slice(1).map((a, i) => Date.parse(a.attempted_at) - Date.parse(oldestFirst[i].attempted_at));
  p.figure('500 x3 then 200: delays between attempts (ms; schedule 200, 400, 800 +-10%)', gaps.join(', '));
  p.check(
    gaps.length === 3 && gaps[0] >= 180 && gaps[1] > gaps[0] && gaps[2] > gaps[1],
    'retry delays did not grow',
    gaps.join(', '),
  );
  const extra = rx.got.filter((d) => d.path === '/flaky').length;
  p.check(extra === 4, 'the flaky receiver got other than 4 requests', String(extra));
}

async function apiKill(p: ProofRun, stack: Stack, rx: ProofReceiver) {
  const db = stack.database.db;
  const store = await insertStore(db, 'Webhook API Kill');
  const units = await insertUnits(db, store, 8);
  await register(stack, store, rx.url('/api-kill'));
  rx.respond(() => ({ status: 200 }));
  const token = await merchantToken(store);
  const victim = stack.servers[0];
  const answered = new Set<string>();
  let cut = 0;
  let slot = 0;
  let stop = false;
  const client = async (c: number) => {
    while (!stop) {
      const start = Date.parse('2031-01-01T00:00:00Z') + slot++ * 3600_000;
      const r = await http(victim.baseUrl, 'POST', CREATE, {
        token,
        timeoutMs: 10_000,
        body: {
          store_id: store,
          unit_id: units[c],
          starts_at: new Date(start).toISOString(),
          ends_at: new Date(start + 1800_000).toISOString(),
          guest_email: 'hook@example.com',
          client_token: randomUUID(),
        },
      });
      if (r.status === 200) answered.add(r.body.appointment.id);
      else if (r.status === 0) {
        cut++; // in flight when the process went
        return;
      }
    }
  };
  const load = Promise.all(units.map((_, c) => client(c)));
  // Kill once the load is well under way (some creates answered), whatever the machine's speed.
  for (const until = Date.now() + 3_000; answered.size < 20 && Date.now() < until; ) await sleep(20);
  await victim.kill();
  stop = true;
  await load;
  const committed = (
    await db.query<{ id: string }>('SELECT id FROM appointments WHERE store_id = $1', [store])
  ).rows.map((r) => r.id);
  const delivered = () =>
    new Set(rx.got.filter((d) => d.path === '/api-kill').map((d) => JSON.parse(d.body).data?.id as string));
  await waitUntil(
    p,
    'every committed appointment delivered after the API kill',
    () => committed.every((id) => delivered().has(id)),
    20_000,
  );
  const missing = committed.filter((id) => !delivered().has(id));
  p.check(
    missing.length === 0,
    'a committed appointment.created was never delivered after kill -9 of its API process',
    `${missing.length} of ${committed.length}`,
  );
  // Eight clients send without pause, so the kill cuts some; a kill that cut none proved nothing.
  p.check(cut > 0, 'no create was in flight at the API kill');
  p.figure(
    'API kill: appointments committed / answered before kill -9 / delivered / creates cut',
    `${committed.length} / ${answered.size} / ${committed.length - missing.length} / ${cut}`,
  );
  await victim.spawn();
}

export const webhooks: Proof = {
  name: 'webhooks',
  title: 'webhooks at least once: worker kill -9, 500 x3 then 200, API kill -9 after commit',
  budgetMs: 60_000,
  async run(p: ProofRun) {
    const rx = await startProofReceiver();
    const workers: WorkerProcess[] = [];
    try {
      const stack = await startStack(p, 'webhooks', { servers: 2, env: { ...ENV, WORKER_ENABLED: 'false' } });
      // All three parts are the proof: a missing endpoint fails it rather than dropping a part.
      stack.require('POST', ENDPOINTS);
      stack.require('POST', CREATE);
      await workerKill(p, stack, rx, workers);
      await flaky(p, stack, rx);
      await apiKill(p, stack, rx);
    } finally {
      for (const w of workers) await w.kill();
      await rx.close();
    }
  },
};
