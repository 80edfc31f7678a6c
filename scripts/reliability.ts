// npm run test:reliability: the reliability and security proofs (docs/reliability.md).
// Each proof owns its databases (bbo_rel_*) and server processes and reports its figures. A part
// it needs that is missing fails it; only a service the run was not given (no REDIS_TEST_URL) skips.
// Exits non-zero when a guarantee is violated or a proof did not finish. Bounded in time: every
// proof scales its rounds to its share of the budget, and a watchdog stops the suite if it overruns.
import { writeFileSync } from 'node:fs';
import { SERVER_URL, REDIS_URL, SUITE_BUDGET_MS } from '../reliability/env.ts';
import { dropAll, dropStale } from '../reliability/db.ts';
import { stopAll } from '../reliability/server-process.ts';
import { stopShared } from '../reliability/stack.ts';
import { Missing, ProofRun, Skip, type Proof } from '../reliability/proof.ts';
import { raceStorm } from '../reliability/proofs/race-storm.ts';
import { idempotency } from '../reliability/proofs/idempotency.ts';
import { crash } from '../reliability/proofs/crash.ts';
import { databaseLoss } from '../reliability/proofs/database-loss.ts';
import { fuzz } from '../reliability/proofs/fuzz.ts';
import { isolation } from '../reliability/proofs/isolation.ts';
import { rateLimits } from '../reliability/proofs/rate-limits.ts';
import { eventStream } from '../reliability/proofs/event-stream.ts';

import { webhooks } from '../reliability/proofs/webhooks.ts';
import { messages } from '../reliability/proofs/messages.ts';
import { replica } from '../reliability/proofs/replica.ts';
import { classStorm } from '../reliability/proofs/class-storm.ts';

const ALL: Proof[] = [
  raceStorm,
  idempotency,
  crash,
  databaseLoss,
  fuzz,
  isolation,
  rateLimits,
  eventStream,
  webhooks,
  messages,
  replica,
  classStorm,
];
const only = process.argv.slice(2);
// A proof name that is not one of ALL would be dropped silently and the run pass having proved less
// than it was asked: refuse it.
const unknown = only.filter((name) => !ALL.some((p) => p.name === name));
if (unknown.length) {
  console.error(`unknown proof name(s): ${unknown.join(', ')}; the proofs are: ${ALL.map((p) => p.name).join(', ')}`);
  process.exit(2);
}
const proofs = only.length ? ALL.filter((p) => only.includes(p.name)) : ALL;

const started = Date.now();
const results: Array<{
  proof: Proof;
  run: ProofRun | null;
  status: 'passed' | 'failed' | 'skipped';
  reason?: string;
  ms: number;
}> = [];
let current: ProofRun | null = null;

function summaryAndExit(extraFailure?: string): never {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  console.log('\n=== reliability summary ===');
  for (const r of results) {
    if (r.status === 'passed') passed++;
    else if (r.status === 'failed') failed++;
    else skipped++;
    console.log(
      `${r.status.toUpperCase().padEnd(7)} ${r.proof.name} (${(r.ms / 1000).toFixed(1)} s)${r.reason ? `: ${r.reason}` : ''}`,
    );
  }
  if (extraFailure) {
    failed++;
    console.log(`FAILED  ${extraFailure}`);
  }
  console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s; ${skipped} skipped`);
  if (process.env.RELIABILITY_REPORT) writeReport(process.env.RELIABILITY_REPORT, passed, failed);
  console.log(`reliability: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

/** The figures as markdown, for docs/reliability.md ("Latest figures"). */
function writeReport(file: string, passed: number, failed: number) {
  const lines = [`Total ${((Date.now() - started) / 1000).toFixed(0)} s: ${passed} passed, ${failed} failed.`, ''];
  for (const r of results) {
    lines.push(
      `**${r.proof.name}** (${r.status}${r.reason ? `: ${r.reason}` : ''}, ${(r.ms / 1000).toFixed(0)} s)`,
      '',
    );
    for (const [label, value] of r.run?.figures ?? []) lines.push(`- ${label}: ${value}`);
    for (const n of r.run?.notes ?? []) lines.push(`- note: ${n}`);
    for (const f of r.run?.failures ?? []) lines.push(`- FAILURE: ${f}`);
    lines.push('');
  }
  writeFileSync(file, lines.join('\n'));
}

// The watchdog keeps the suite inside its time bound on a starved machine. A proof it cuts did not
// finish, so it proved nothing: it FAILS the run, with the figures it had reached printed. The bound
// (SUITE_BUDGET_MS + 15 s, 435 s) is about three times a normal run (147 s in CI), so only a hang or a
// machine starved far past the usual contention meets it.
let stopping = false;
const watchdog = setTimeout(async () => {
  stopping = true;
  const run = current;
  console.log(`\nwatchdog: ${run?.name ?? 'suite'} overran the suite budget; stopping (a cut proof fails the run)`);
  if (run) {
    if (run.figures.length === 0) console.log('  (no figures recorded before the cut)');
    for (const [label, value] of run.figures) console.log(`  ${label}: ${value}`);
    for (const n of run.notes) console.log(`  note: ${n}`);
    for (const f of run.failures) console.log(`  FAILURE ${f}`);
    await stopAll(run.servers);
    const proof = proofs.find((p) => p.name === run.name)!;
    results.push({
      proof,
      run,
      status: 'failed',
      reason: 'cut by the time bound before it finished (its figures so far are printed above)',
      ms: Date.now() - runStarted,
    });
  }
  for (const p of proofs.slice(results.length))
    results.push({ proof: p, run: null, status: 'failed', reason: 'not run: time bound', ms: 0 });
  await stopShared();
  await dropAll();
  summaryAndExit();
}, SUITE_BUDGET_MS + 15_000);
watchdog.unref();
let runStarted = Date.now();

if (!SERVER_URL) {
  // Nothing run is not a pass: a CI job that lost its database URL must go red, not green.
  summaryAndExit('TEST_DATABASE_URL is not set: the reliability proofs need a PostgreSQL server; nothing run');
}

await dropStale(SERVER_URL).catch((err) => console.log(`could not clean stale databases: ${err.message}`));

// Budgets are shares of what is left, so an early proof that finishes fast gives time to later ones.
for (let i = 0; i < proofs.length; i++) {
  if (stopping) await new Promise(() => {});
  const proof = proofs[i];
  const remaining = SUITE_BUDGET_MS - (Date.now() - started);
  const weight = proofs.slice(i).reduce((s, p) => s + p.budgetMs, 0);
  const budget = Math.max(5_000, Math.floor((remaining * proof.budgetMs) / weight));
  if (remaining < 8_000) {
    // A proof with no time left has not run: that fails the run like a cut one.
    results.push({ proof, run: null, status: 'failed', reason: 'not run: time bound', ms: 0 });
    continue;
  }
  const run = new ProofRun(proof.name, budget, SERVER_URL, REDIS_URL);
  current = run;
  const t0 = Date.now();
  runStarted = t0;
  console.log(`\n=== ${proof.name}: ${proof.title} (budget ${(budget / 1000).toFixed(0)} s) ===`);
  let status: 'passed' | 'failed' | 'skipped' = 'passed';
  let reason: string | undefined;
  try {
    await proof.run(run);
    if (run.failureCount() > 0) status = 'failed';
  } catch (err) {
    if (err instanceof Skip) {
      status = 'skipped';
      reason = err.message;
    } else if (err instanceof Missing) {
      status = 'failed';
      reason = `missing: ${err.message}`;
    } else {
      status = 'failed';
      run.fail('proof could not complete', (err as Error).stack ?? String(err));
    }
  } finally {
    await stopAll(run.servers);
    for (const d of run.databases) await d.drop().catch(() => {});
  }
  for (const [label, value] of run.figures) console.log(`  ${label}: ${value}`);
  for (const n of run.notes) console.log(`  note: ${n}`);
  for (const f of run.failures) console.log(`  FAILURE ${f}`);
  // The watchdog is ending the run and reports this proof itself: nothing more from the loop.
  if (stopping) await new Promise(() => {});
  if (status === 'skipped') console.log(`  skipped: ${reason}`);
  else console.log(`  ${status === 'passed' ? 'passed' : `FAILED (${run.failureCount()} violations)`}`);
  results.push({ proof, run, status, reason, ms: Date.now() - t0 });
  // Free the shared deployment's processes and connections once no later proof needs them.
  if (!proofs.slice(i + 1).some((p) => p.usesShared)) await stopShared();
}
current = null;
await stopShared();
await dropAll();
summaryAndExit();
