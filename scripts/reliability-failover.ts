// npm run test:reliability:failover [-- --scenario=NAME]: the failover drill. Builds the topology of
// deploy/patroni/ from Debian's packages (etcd, two Patroni nodes for PostgreSQL 15 in synchronous
// mode, HAProxy on 5470/5471: reliability/patroni-cluster.ts), runs reliability/proofs/failover.ts
// against it, prints its figures and tears everything down. Exits non-zero when a guarantee is
// violated or the drill did not finish in its time bound. Its ports (PostgreSQL 5461-5462, HAProxy
// 5470-5472, the three API processes 5473-5475, Patroni 18008-18009, etcd 23790 and 23800) meet none
// of the other proofs', so CI runs it beside them.
// Scenarios: sync (the default, what CI runs), async, replica-lost, replica-lost-strict, etcd-lost,
// haproxy-restart (reliability/proofs/failover-scenarios.ts).
import { clusterDown, clusterUp } from '../reliability/patroni-cluster.ts';
import { ProofRun } from '../reliability/proof.ts';
import { stopAll } from '../reliability/server-process.ts';
import { failoverDrill } from '../reliability/proofs/failover.ts';
import { SCENARIOS, type Scenario } from '../reliability/proofs/failover-scenarios.ts';
import { WRITE_URL } from '../reliability/patroni-cluster.ts';

const arg = process.argv.slice(2).find((a) => a.startsWith('--scenario='));
const scenario = (arg ? arg.slice('--scenario='.length) : 'sync') as Scenario;
if (!SCENARIOS.includes(scenario)) {
  console.error(`unknown scenario ${scenario}; one of ${SCENARIOS.join(', ')}`);
  process.exit(2);
}
/**
 * The whole drill, cluster included: about 3 minutes on this 2-core host while others' runs load it
 * (less on a quiet one). The bound only stops a hang: past it the drill fails.
 */
const BUDGET_MS = Number(process.env.FAILOVER_BUDGET_MS ?? 480_000);

const t0 = Date.now();
const run = new ProofRun(`failover (${scenario})`, BUDGET_MS, WRITE_URL, null);
let finished = false;

async function finish(reason?: string): Promise<never> {
  // A server process that died is a failure of the service, whatever else the drill saw: say so, with its last words.
  for (const s of run.servers) {
    if (s.pid !== undefined && !s.running)
      run.fail('a server process exited during the drill', `${s.name}:\n    ${s.output.slice(-40).join('\n    ')}`);
  }
  await stopAll(run.servers);
  for (const d of run.databases) await d.drop().catch(() => {});
  await clusterDown().catch((err) => console.log(`teardown: ${err.message}`));
  for (const [label, value] of run.figures) console.log(`  ${label}: ${value}`);
  for (const n of run.notes) console.log(`  note: ${n}`);
  for (const f of run.failures) console.log(`  FAILURE ${f}`);
  if (reason) console.log(`  FAILURE ${reason}`);
  const failed = !!reason || run.failureCount() > 0;
  console.log(
    `failover drill (${scenario}): ${failed ? 'FAILED' : 'passed'} in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  process.exit(failed ? 1 : 0);
}

const watchdog = setTimeout(() => {
  if (!finished) void finish(`cut by the time bound (${BUDGET_MS / 1000} s) before it finished`);
}, BUDGET_MS);
watchdog.unref();

console.log(`=== failover drill (${scenario}): a bad day mid-storm, behind HAProxy and Patroni ===`);
try {
  const { standby } = await clusterUp({ log: (line) => console.log(`  ${line}`), deferStandby: true });
  await failoverDrill(run, scenario, standby);
  finished = true;
  await finish();
} catch (err) {
  finished = true;
  await finish(`the drill could not complete: ${(err as Error).stack ?? err}`);
}
