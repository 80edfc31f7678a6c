// The yield gate: background work inside the API process asks it before each step (a planning pass,
// a send batch, a claim, a dispatch) and between pieces of CPU work (one rendered message). It
// answers after one turn of the event loop (setImmediate: requests' I/O runs first), and, between
// steps, not before the process is quiet: no HTTP request in flight and the event loop not lagging.
// It never waits longer than maxWaitMs, so a front desk that is never quiet still sees its backlog
// drained, a step at a time. Inside a step, each piece (one planned message) also lets the requests
// in flight be answered first, for at most pieceWaitMs: a step that started in a quiet moment would
// otherwise keep its CPU through the next requests' arrival. Guarantees are untouched: the gate
// only decides WHEN a step or a piece runs.
import diagnostics from 'node:diagnostics_channel';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { BackgroundConfig } from './background.config.ts';

export interface YieldGate {
  /** Before a step: one event-loop turn, then wait (at most maxWaitMs) until no request is in flight and the loop does not lag. */
  step(): Promise<void>;
  /** Between pieces of CPU work inside a step: one event-loop turn, then (at most pieceWaitMs) until no request is in flight. */
  breathe(): Promise<void>;
  /** Requests in flight now (for tests and logs). */
  inFlight(): number;
  close(): void;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
/** Polls every pollMs while busy() holds, for at most maxMs. */
async function waitWhile(busy: () => boolean, maxMs: number, pollMs: number): Promise<void> {
  const deadline = Date.now() + maxMs;
  while (busy() && Date.now() < deadline) await sleep(pollMs);
}

/** A gate that never waits beyond a turn when off (BACKGROUND_YIELD=false: not even that). */
export const noGate: YieldGate = { step: async () => {}, breathe: async () => {}, inFlight: () => 0, close() {} };

/**
 * Watches this process's HTTP server through Node's diagnostics channels (every request from its
 * start until its response closes, aborted ones included) and the event loop's delay.
 */
export function createYieldGate(config: BackgroundConfig): YieldGate {
  if (!config.yieldToRequests) return noGate;
  let inFlight = 0;
  const onStart = (message: unknown) => {
    const { response } = message as { response: NodeJS.EventEmitter };
    inFlight++;
    let done = false;
    response.once('close', () => {
      if (done) return;
      done = true;
      inFlight--;
    });
  };
  diagnostics.subscribe('http.server.request.start', onStart);
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  let lagMs = 0;
  // The p99 delay of the last half second; the histogram starts again each time.
  const sampler = setInterval(() => {
    lagMs = delay.count > 0 ? delay.percentile(99) / 1e6 : 0;
    delay.reset();
  }, 500);
  sampler.unref();
  const busy = () => inFlight > 0 || lagMs > config.lagMs;
  return {
    async step() {
      await turn();
      await waitWhile(busy, config.maxWaitMs, 2);
    },
    async breathe() {
      await turn();
      await waitWhile(() => inFlight > 0, config.pieceWaitMs, 1);
    },
    inFlight: () => inFlight,
    close() {
      diagnostics.unsubscribe('http.server.request.start', onStart);
      clearInterval(sampler);
      delay.disable();
    },
  };
}
