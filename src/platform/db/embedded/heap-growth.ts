// On the embedded engine the service shares a small machine with its own PostgreSQL, and issue 30
// bounds the memory of both together (< 250 MB at the bench's peak). Left to itself, V8 lets the old
// generation grow to up to four times what survived the last full collection before collecting again
// (node reached 284-315 MB under the bench's closed-loop load). A fixed growth of 25% keeps the heap
// near what it holds (181-186 MB), at the cost of more frequent full collections; the heap's limit is
// not lowered, so a large answer has the same room as before (no new out-of-memory risk).
// Measured in docs/decisions/embedded-engine.md ("What is it sized for?").
//
// The heap limit itself (--max-old-space-size) is fixed when V8 starts and cannot be changed here;
// the growing factor is read at every full collection, so setting it at run time takes effect.
// A server-engine process is left as it is: it has the machine's memory to itself.
import v8 from 'node:v8';

/** Percent of the live old generation the heap may grow by before the next full collection. */
export const EMBEDDED_HEAP_GROWING_PERCENT = 25;

/**
 * Sets V8's heap growing factor for this process, unless `node` was started with its own
 * `--heap-growing-percent` (a shop's own choice, or a bench variant): then that one is kept.
 * Answers the percent set, or null when the command line's was kept.
 */
export function limitHeapGrowth(execArgv: readonly string[] = process.execArgv): number | null {
  if (execArgv.some((arg) => /^--heap[-_]growing[-_]percent(=|$)/.test(arg))) return null;
  v8.setFlagsFromString(`--heap-growing-percent=${EMBEDDED_HEAP_GROWING_PERCENT}`);
  return EMBEDDED_HEAP_GROWING_PERCENT;
}
