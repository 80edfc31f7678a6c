// How far the service's heap may grow before V8 collects it. Left to itself, V8 lets the old
// generation grow to up to four times what survived the last full collection before collecting again:
// under the benches' closed-loop load node reached 284-315 MB on the embedded engine, and a server-
// engine process 335-362 MB over the availability searches. A fixed growth of 25% keeps the heap
// near what it holds (embedded tree 220-238 MB; server process 204-211 MB over the same searches),
// at the cost of more frequent full collections, which the benches could not tell from their
// run-to-run spread in rates or tail latency. The heap's limit is not lowered, so a large answer has
// the same room as before (no new out-of-memory risk).
// Measured in docs/decisions/embedded-engine.md ("What is it sized for?") and
// docs/performance/history/round-11.md (the server engine).
//
// The heap limit itself (--max-old-space-size) is fixed when V8 starts and cannot be changed here;
// the growing factor is read at every full collection, so setting it at run time takes effect.
import v8 from 'node:v8';

/** Percent of the live old generation the heap may grow by before the next full collection. */
export const HEAP_GROWING_PERCENT = 25;

/**
 * Sets V8's heap growing factor for this process, unless `node` was started with its own
 * `--heap-growing-percent` (an operator's own choice, or a bench variant): then that one is kept.
 * Answers the percent set, or null when the command line's was kept.
 */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): number | null {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent(=|$)/.test(arg))) return null;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return HEAP_GROWING_PERCENT;
}
