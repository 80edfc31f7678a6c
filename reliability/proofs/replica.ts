// Proof: a merchant never reads data older than their own last write, with a read replica in use.
// A primary and a streaming replica are built on this machine (reliability/topology.ts), the
// replica with recovery_min_apply_delay = 500 ms so that it is always behind. Two server processes
// read from it (DATABASE_READ_URL). Writers book and at once read the day back, on the same
// process (the store's remembered position decides) or on the other one (the client sends
// X-Read-After back): every read must show its write. Readers meanwhile read stores nobody writes
// to, which the replica may serve: its share is reported. Mid-run the replica is stopped: no request
// may fail, and the reads move to the primary. It is started again and its use resumes.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { sleep } from '../env.ts';
import { http } from '../client.ts';
import { describe, type Proof, type ProofRun } from '../proof.ts';
import { createDatabase, urlFor } from '../db.ts';
import { ServerProcess } from '../server-process.ts';
import { insertAppointment, insertStore, insertUnits, merchantToken } from '../seed.ts';
import {
  startPrimary,
  startReplica,
  startReplicaAgain,
  stopReplica,
  topologyDown,
  urlOf,
  waitForReplay,
  type TopologyOptions,
} from '../topology.ts';

const CREATE = '/api/v1/bookings/appointments';
const WRITERS = 12;
const READERS = 4;
const MIN_PAIRS = 1_000;
const TOPOLOGY: TopologyOptions = {
  prefix: 'bbo_rel_rp',
  primaryPort: 5445,
  replicaPort: 5446,
  pgbouncerPort: 5447,
  applyDelayMs: 500,
  dir: '/tmp/bbo-rel-replica',
};

const diaryPath = (store: string, day: string) =>
  `/api/v1/bookings/diary?store_id=${store}&from_date=${day}&to_date=${day}`;
const idsIn = (body: any): string[] =>
  (body?.units ?? []).flatMap((u: any) => (u.appointments ?? []).map((a: any) => a.id));

/**
 * Statements the replica has run in the proof's database other than the routers' polls
 * (pg_stat_statements, preloaded by the topology): the reads it served. null when it is down.
 */
async function replicaReads(url: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1_000 });
  try {
    await client.connect();
    const res = await client.query<{ n: string }>(
      `SELECT coalesce(sum(calls), 0)::text AS n FROM pg_stat_statements
        WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND query NOT LIKE '%pg_last_wal_replay_lsn%' AND query NOT LIKE '%pg_stat_statements%'`,
    );
    return Number(res.rows[0].n);
  } catch {
    return null;
  } finally {
    await client.end().catch(() => {});
  }
}

export const replica: Proof = {
  name: 'replica',
  title:
    'read replica (500 ms behind): every read after its own write shows it; the replica stopped mid-run costs no error',
  budgetMs: 50_000,
  async run(p: ProofRun) {
    if (process.getuid?.() !== 0) p.skip('building clusters needs root (pg_createcluster)');
    const t0 = Date.now();
    const servers: ServerProcess[] = [];
    try {
      await startPrimary(TOPOLOGY);
      const primaryServer = urlOf(TOPOLOGY.primaryPort);
      const database = await createDatabase(primaryServer, 'replica');
      const db = database.db;
      const writerStores: Array<{ store: string; unit: string; token: string }> = [];
      for (let w = 0; w < WRITERS; w++) {
        const store = await insertStore(db, `Writer ${w}`);
        const [unit] = await insertUnits(db, store, 1);
        writerStores.push({ store, unit, token: await merchantToken(store, { userId: `writer-${w}` }) });
      }
      const readerStores: Array<{ store: string; token: string }> = [];
      for (let r = 0; r < READERS; r++) {
        const store = await insertStore(db, `Reader ${r}`);
        const [unit] = await insertUnits(db, store, 1);
        for (let h = 0; h < 6; h++)
          await insertAppointment(db, {
            storeId: store,
            unitId: unit,
            startsAt: new Date(Date.parse('2030-03-01T09:00:00Z') + h * 3600_000),
            minutes: 45,
          });
        readerStores.push({ store, token: await merchantToken(store, { userId: `reader-${r}` }) });
      }
      // Counts what the replica serves (the extension's view replicates; the replica preloads its library).
      await db.query('CREATE EXTENSION IF NOT EXISTS pg_stat_statements');
      await database.db.close();
      // The replica is copied from the primary with the database already in it.
      await startReplica(TOPOLOGY);
      await waitForReplay(TOPOLOGY, database.name);
      const replicaUrl = urlFor(urlOf(TOPOLOGY.replicaPort), database.name);
      const env: Record<string, string> = {
        DATABASE_READ_URL: replicaUrl,
        DB_READ_POLL_MS: '50',
        RATE_LIMIT_GLOBAL_PER_MIN: '10000000',
        WORKER_ENABLED: 'false',
        ...(p.redisUrl ? { REDIS_URL: p.redisUrl } : {}),
      };
      const started = await Promise.allSettled(
        [1, 2].map((i) => ServerProcess.start({ databaseUrl: database.url, env, name: `server${i}` })),
      );
      for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
      p.servers.push(...servers);
      const failedStart = started.find((s) => s.status === 'rejected');
      if (failedStart) throw (failedStart as PromiseRejectedResult).reason;
      p.figure('set-up (primary, replica, two servers)', `${((Date.now() - t0) / 1000).toFixed(1)} s`);

      let pairs = 0;
      let stale = 0;
      let errors = 0;
      let reads = 0;
      let readsWhileDown = 0;
      let replicaDown = false;
      const phase = { stop: false };
      const slot = new Map<number, number>();
      const writer = async (w: number) => {
        const { store, unit, token } = writerStores[w];
        for (let i = 0; !phase.stop; i++) {
          const n = slot.get(w) ?? 0;
          slot.set(w, n + 1);
          const start = Date.parse('2030-06-01T00:00:00Z') + Math.floor(n / 20) * 86_400_000 + (n % 20) * 3600_000;
          const day = new Date(start).toISOString().slice(0, 10);
          const a = servers[i % 2];
          const created = await http(a.baseUrl, 'POST', CREATE, {
            token,
            body: {
              store_id: store,
              unit_id: unit,
              starts_at: new Date(start).toISOString(),
              ends_at: new Date(start + 1800_000).toISOString(),
              guest_email: 'replica@example.com',
              client_token: randomUUID(),
            },
          });
          if (created.status !== 200) {
            errors++;
            p.fail('a write failed', describe(created));
            continue;
          }
          const id = created.body.appointment.id;
          // Half the reads on the same process with nothing but the store's remembered position;
          // half on the other process, carrying the write's position back as a client may.
          const other = i % 4 >= 2;
          const headers: Record<string, string> = {};
          const position = created.headers?.get('x-read-after');
          if (other && position) headers['x-read-after'] = position;
          const read = await http((other ? servers[(i + 1) % 2] : a).baseUrl, 'GET', diaryPath(store, day), {
            token,
            headers,
          });
          reads++;
          if (replicaDown) readsWhileDown++;
          if (read.status !== 200) {
            errors++;
            p.fail('a read failed', describe(read));
            continue;
          }
          pairs++;
          if (!idsIn(read.body).includes(id)) {
            stale++;
            p.fail(
              'a read did not show its own write',
              `${other ? 'other process, X-Read-After ' + position : 'same process'}: ${id} missing`,
            );
          }
        }
      };
      const reader = async (r: number) => {
        const { store, token } = readerStores[r];
        for (let i = 0; !phase.stop; i++) {
          const read = await http(servers[(r + i) % 2].baseUrl, 'GET', diaryPath(store, '2030-03-01'), { token });
          reads++;
          if (replicaDown) readsWhileDown++;
          if (read.status !== 200 || idsIn(read.body).length !== 6) {
            errors++;
            p.fail('a read of an unchanged store failed or was wrong', describe(read));
          }
        }
      };

      // Long enough for MIN_PAIRS before the replica stops, bounded by the budget.
      const runMs = Math.max(6_000, Math.min(20_000, p.timeLeft() - 25_000));
      const servedBefore = await replicaReads(replicaUrl);
      const readsBefore = reads;
      const tRun = Date.now();
      const load = Promise.all([
        ...Array.from({ length: WRITERS }, (_, w) => writer(w)),
        ...Array.from({ length: READERS }, (_, r) => reader(r)),
      ]);
      // Until 60% of the run (and at least MIN_PAIRS pairs): the replica is in use.
      // On a slow machine it runs longer, inside the budget, until most of the pairs are made.
      while ((Date.now() - tRun < runMs * 0.6 || pairs < MIN_PAIRS * 0.85) && p.timeLeft() > 30_000) await sleep(100);
      const servedAtStop = await replicaReads(replicaUrl);
      const readsAtStop = reads - readsBefore;
      const pairsAtStop = pairs;
      replicaDown = true;
      await stopReplica(TOPOLOGY);
      const tDown = Date.now();
      await sleep(Math.max(2_000, runMs * 0.25));
      const pairsWhileDown = pairs - pairsAtStop;
      // Back up: its use resumes (after the router's hold-down).
      await startReplicaAgain(TOPOLOGY);
      replicaDown = false;
      const downMs = Date.now() - tDown;
      await sleep(1_500);
      const servedBack = await replicaReads(replicaUrl);
      await sleep(2_000);
      const servedLater = await replicaReads(replicaUrl);
      while (pairs < MIN_PAIRS && p.timeLeft() > 10_000) await sleep(100);
      phase.stop = true;
      await load;

      const servedByReplica = servedAtStop! - servedBefore!;
      const resumedReads = servedLater! - servedBack!;
      p.figure('write-then-read pairs', pairs);
      p.figure('pairs while the replica was stopped', pairsWhileDown);
      p.figure('stale reads (a read missing its own write)', stale);
      p.figure('errors (any request not answered 200)', errors);
      p.figure('reads in all (pairs and readers)', reads);
      p.figure('reads while the replica was stopped', readsWhileDown);
      p.figure(
        'share of reads served by the replica while it ran',
        `${((100 * servedByReplica) / Math.max(1, readsAtStop)).toFixed(0)}% (${servedByReplica} of ${readsAtStop} reads)`,
      );
      p.figure('reads the replica served in the 2 s after it came back', resumedReads);
      p.figure('replica stopped for', `${(downMs / 1000).toFixed(1)} s`);
      p.check(pairs >= MIN_PAIRS, 'fewer write-then-read pairs than the proof needs', `${pairs} < ${MIN_PAIRS}`);
      p.check(pairsWhileDown > 0 && readsWhileDown > 0, 'no reads were made while the replica was stopped');
      p.check(servedByReplica > 0, 'the replica served no reads: routing never used it');
      p.check(resumedReads > 0, 'the replica was not used again after it came back');
      p.figure('total', `${((Date.now() - t0) / 1000).toFixed(1)} s`);
    } finally {
      await Promise.all(servers.map((s) => s.kill().catch(() => {})));
      await topologyDown(TOPOLOGY).catch(() => {});
    }
  },
};
