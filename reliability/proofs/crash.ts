// Proof 3: an acknowledged write survives a crash. Two server processes take a write load
// (create, then move, then settle, each with its own Idempotency-Key and client_token); at a
// random point one process is killed with SIGKILL and restarted. Clients whose request died with
// the process retry it with the same key, as a real client would. Afterwards every write that
// was answered 2xx must be in the database exactly as answered, no move is half done, no money is
// recorded without its appointment change, no idempotency key is stuck, and every retry of an
// acknowledged request replays the original answer.
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { SEED, rng, sleep } from '../env.ts';
import { errorCodeOf, http, pool, type HttpResult } from '../client.ts';
import { describe, type Proof, type ProofRun } from '../proof.ts';
import { startStack } from '../stack.ts';
import { insertStore, insertUnits, merchantToken } from '../seed.ts';

const CREATE = '/api/v1/bookings/appointments';
const MOVE = '/api/v1/bookings/appointments/reschedule';
const SETTLE = '/api/v1/bookings/appointments/settle';
const CLIENTS = 10;
const MAX_RUNS = 5;
/** Fewer kills than this prove too little: the budget must leave room for them (a starved run fails, it does not shrink to one). */
const MIN_RUNS = 2;
const PRICE = 3000;

interface Ack {
  path: string;
  body: Record<string, unknown>;
  key: string;
  answer: HttpResult;
}

interface Expected {
  id: string;
  unit: string;
  starts: string;
  ends: string;
  settled: boolean;
}

export const crash: Proof = {
  name: 'crash',
  title: 'kill -9 under write load, restart: no acknowledged write lost',
  budgetMs: 50_000,
  async run(p: ProofRun) {
    const stack = await startStack(p, 'crash', { servers: 2, env: { RATE_LIMIT_GLOBAL_PER_MIN: '10000000' } });
    // Every operation of the load is part of the proof: a missing one fails it.
    stack.require('POST', CREATE);
    stack.require('POST', MOVE);
    stack.require('POST', SETTLE);
    const db = stack.database.db;
    const random = rng(SEED + 3);
    const store = await insertStore(db, 'Crash Cafe');
    const units = await insertUnits(db, store, CLIENTS);
    const token = await merchantToken(store);

    const acks: Ack[] = [];
    const expected = new Map<string, Expected>();
    let cut = 0;
    let retries = 0;
    let runs = 0;
    let unexpected = 0;
    const runTimes: number[] = [];

    /** One logical request: retried with the same key until it has a definitive answer. */
    async function send(client: number, path: string, body: Record<string, unknown>): Promise<HttpResult | null> {
      const key = randomUUID();
      let wasCut = false;
      for (let attempt = 0; attempt < 300; attempt++) {
        const server = stack.servers[(client + attempt) % stack.servers.length];
        const r = await http(server.baseUrl, 'POST', path, { token, body, idempotencyKey: key, timeoutMs: 20_000 });
        const transient =
          r.status === 0 || r.status === 503 || (r.status === 409 && errorCodeOf(r) === 'IDEMPOTENCY_IN_PROGRESS');
        if (!transient) {
          if (r.status === 200) acks.push({ path, body, key, answer: r });
          else {
            unexpected++;
            p.fail('a write under crash load was refused', `${path} ${describe(r)}`);
          }
          if (wasCut) cut++;
          return r.status === 200 ? r : null;
        }
        // Refused connections never reached a process; a reset or timeout may have been mid-request.
        if (r.status === 0 && r.error !== 'ECONNREFUSED') wasCut = true;
        retries++;
        if (r.error !== 'ECONNREFUSED') await sleep(attempt < 5 ? 20 : 100);
      }
      p.fail('a write never got a definitive answer', path);
      return null;
    }

    let slotCounter = 0;
    const nextSlot = () => {
      const start = Date.parse('2030-06-01T00:00:00Z') + slotCounter++ * 3600_000;
      return { starts_at: new Date(start).toISOString(), ends_at: new Date(start + 45 * 60_000).toISOString() };
    };

    async function client(c: number, stop: { now: boolean }) {
      const unit = units[c];
      while (!stop.now) {
        const slot = nextSlot();
        const created = await send(c, CREATE, {
          store_id: store,
          unit_id: unit,
          ...slot,
          price_pence: PRICE,
          guest_email: 'crash@example.com',
          client_token: randomUUID(),
        });
        if (!created) continue;
        const id = created.body.appointment.id as string;
        const e: Expected = { id, unit, starts: slot.starts_at, ends: slot.ends_at, settled: false };
        expected.set(id, e);
        if (stop.now) break;
        const to = nextSlot();
        const moved = await send(c, MOVE, { store_id: store, appointment_id: id, unit_id: unit, ...to });
        if (moved) Object.assign(e, { starts: to.starts_at, ends: to.ends_at });
        if (stop.now) break;
        const settled = await send(c, SETTLE, { store_id: store, appointment_id: id, method: 'cash' });
        if (settled) e.settled = true;
      }
    }

    while (runs < MAX_RUNS) {
      const avg = runTimes.length ? runTimes.reduce((a, b) => a + b) / runTimes.length : 0;
      // At least MIN_RUNS kills whatever the share of time: fewer prove too little (the suite's watchdog still bounds it).
      if (runs >= MIN_RUNS && p.timeLeft() < 10_000 + avg * 1.5) break;
      const t0 = Date.now();
      const stop = { now: false };
      const load = Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c, stop)));
      // A random point in the load: somewhere between 0.2 s and 1.5 s in.
      await sleep(200 + Math.floor(random() * 1300));
      const victim = stack.servers[runs % stack.servers.length];
      await victim.kill();
      // Requests that died with the process are retried on the survivor; then the victim restarts
      // and takes load again before the next run.
      await sleep(200);
      stop.now = true;
      await load;
      await victim.spawn();
      const after = { now: false };
      const again = Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c, after)));
      await sleep(200);
      after.now = true;
      await again;
      runs++;
      runTimes.push(Date.now() - t0);
    }

    // No idempotency key is stuck: no transaction-scoped key lock survives its process.
    const locks = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND a.datname = current_database()`,
    );
    p.check(locks.rows[0].n === 0, 'idempotency key locks still held after the crash', String(locks.rows[0].n));

    // Every acknowledged write is in the database exactly as answered.
    const rows = await db.query<{
      id: string;
      unit_id: string;
      starts_at: string;
      ends_at: string;
      bs: string;
      be: string;
      status: string;
      payment_status: string;
      settled_pence: number;
    }>(
      `SELECT id, unit_id, starts_at, ends_at, lower(block) AS bs, upper(block) AS be, status, payment_status, settled_pence FROM appointments WHERE store_id = $1`,
      [store],
    );
    const byId = new Map(rows.rows.map((r) => [r.id, r]));
    let losses = 0;
    for (const e of expected.values()) {
      const a = byId.get(e.id);
      const ok = !!a && a.unit_id === e.unit && a.starts_at === e.starts && a.ends_at === e.ends;
      if (!ok) {
        losses++;
        p.fail(
          'an acknowledged write is not in the database as answered',
          `${e.id}: expected ${e.starts}, found ${a ? a.starts_at : 'nothing'}`,
        );
        continue;
      }
      // No half-done move: the occupied block moved with the appointment.
      p.check(a.bs === a.starts_at && a.be === a.ends_at, 'half-done move: block and times disagree', e.id);
      if (e.settled) {
        if (!(a.status === 'completed' && a.settled_pence === PRICE)) losses++;
        p.check(
          a.status === 'completed' && a.payment_status === 'paid' && a.settled_pence === PRICE,
          'an acknowledged settlement is missing or partial',
          `${e.id}: ${a.status}/${a.payment_status}/${a.settled_pence}`,
        );
      }
    }
    p.check(
      rows.rowCount === expected.size,
      'appointments other than those acknowledged (a retry booked twice?)',
      `${rows.rowCount} rows for ${expected.size} acknowledged creates`,
    );

    // No settlement without its appointment change, and the running total matches the records.
    const money = await db.query<{
      id: string;
      status: string;
      payment_status: string;
      settled_pence: number;
      total: number | null;
    }>(
      `SELECT a.id, a.status, a.payment_status, a.settled_pence, (SELECT sum(amount_pence)::int FROM settlements s WHERE s.appointment_id = a.id) AS total
         FROM appointments a WHERE a.store_id = $1`,
      [store],
    );
    for (const m of money.rows) {
      const total = m.total ?? 0;
      p.check(
        total === m.settled_pence,
        'settled total disagrees with the settlement records',
        `${m.id}: ${m.settled_pence} vs ${total}`,
      );
      if (total > 0)
        p.check(
          m.status === 'completed' && m.payment_status === 'paid',
          'a settlement without its appointment change',
          `${m.id}: ${m.status}`,
        );
      p.check(total <= PRICE, 'money recorded twice', `${m.id}: ${total}`);
    }

    // Every idempotency record points at an effect that exists.
    const recs = await db.query<{ path: string; body: any }>('SELECT path, body FROM idempotency_records');
    for (const r of recs.rows) {
      const id = r.body?.appointment?.id ?? r.body?.appointment_id;
      if (id) p.check(byId.has(id), 'an idempotency record without its effect', `${r.path} ${id}`);
    }

    // Clients retrying with their keys get the original result.
    let replayed = 0;
    await pool(acks, 10, async (a, i) => {
      const r = await http(stack.servers[i % stack.servers.length].baseUrl, 'POST', a.path, {
        token,
        body: a.body,
        idempotencyKey: a.key,
      });
      if (
        p.check(
          r.status === 200 && isDeepStrictEqual(r.body, a.answer.body),
          'a retry with the original key did not replay the original answer',
          `${a.path}: ${describe(r)}`,
        )
      )
        replayed++;
    });

    p.check(runs >= MIN_RUNS, 'too few kill runs to prove anything', `${runs} of at least ${MIN_RUNS}`);
    // A kill with nothing in flight only restarts an idle server: the proof is about cut requests.
    p.check(cut > 0, 'no request was in flight at any kill', `${runs} kills`);
    p.figure('runs (kill -9 then restart)', runs);
    p.figure('operations', 'create, move, settle');
    p.figure('acknowledged writes checked', acks.length);
    p.figure('requests in flight at a kill, retried with their key', cut);
    p.figure('transient answers retried (transport, 503, in-progress)', retries);
    p.figure('retries replaying the original answer', `${replayed} of ${acks.length}`);
    p.figure('losses', losses);
    if (unexpected) p.figure('unexpected refusals', unexpected);
  },
};
