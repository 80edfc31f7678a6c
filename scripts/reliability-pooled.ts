// node scripts/reliability-pooled.ts [proof ...]: the reliability proofs through PgBouncer 1.18 in
// transaction mode. Builds a primary (127.0.0.1:5448) and PgBouncer (5449) with
// reliability/topology.ts, runs scripts/reliability.ts with RELIABILITY_DATABASE_URL pointing at
// PgBouncer and RELIABILITY_POOLED=true (servers, workers and the proofs' own pools send no named
// prepared statements), and tears the topology down. Without arguments it runs the proofs that
// the issue names (storm, crash, idempotency, event stream, webhooks, messages).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { DEFAULT_TOPOLOGY, topologyDown, topologyUp, urlOf } from '../reliability/topology.ts';

const POOLED_PROOFS = ['race-storm', 'crash', 'idempotency', 'event-stream', 'webhooks', 'messages'];
const proofs = process.argv.slice(2).length ? process.argv.slice(2) : POOLED_PROOFS;
// Its own clusters and ports, so it can run beside scripts/topology.ts's deployment and the replica proof.
const o = {
  ...DEFAULT_TOPOLOGY,
  prefix: 'bbo_rel_pool',
  primaryPort: 5448,
  replicaPort: 5440,
  pgbouncerPort: 5449,
  dir: '/tmp/bbo-topology-pooled',
};

const t0 = Date.now();
await topologyDown(o);
await topologyUp(o, { replica: false, pgbouncer: true });
console.log(
  `primary and PgBouncer up in ${((Date.now() - t0) / 1000).toFixed(1)} s: proofs through ${urlOf(o.pgbouncerPort)}`,
);
const { TEST_DATABASE_URL: _ignored, ...env } = process.env;
const code = await new Promise<number>((resolve) => {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'reliability.ts'), ...proofs], {
    stdio: 'inherit',
    env: {
      ...env,
      RELIABILITY_DATABASE_URL: urlOf(o.pgbouncerPort),
      RELIABILITY_POOLED: 'true',
      RELIABILITY_BUDGET_MS: env.RELIABILITY_BUDGET_MS ?? '300000',
    },
  });
  child.on('exit', (c) => resolve(c ?? 1));
});
await topologyDown(o);
process.exit(code);
