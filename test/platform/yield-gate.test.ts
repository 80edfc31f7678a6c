// The yield gate (src/platform/background/): background steps wait while a request of this process
// is in flight, and never longer than their bound; BACKGROUND_* settings parse or fail clearly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createYieldGate, noGate, type YieldGate } from '../../src/platform/background/yield-gate.ts';
import { parseBackgroundConfig } from '../../src/platform/background/background.config.ts';

const fail = (message: string): never => {
  throw new Error(message);
};

/** A server whose answers wait for release(); onAnswered runs when a response has closed (as the gate sees it). */
async function heldServer(onAnswered: () => void = () => {}) {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const server = http.createServer(async (_req, res) => {
    res.once('close', onAnswered);
    await released;
    res.end('done');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return { server, port, release };
}

/**
 * With one request held in flight, runs the gate's wait (a step or a piece) and checks that it ran
 * only once the request was answered. The order is taken on the server's side, when the response
 * closes (as the gate counts), since the client's fetch may settle after the wait ends.
 */
async function waitsForTheAnswer(settings: Record<string, string>, wait: (gate: YieldGate) => Promise<void>) {
  const gate = createYieldGate(parseBackgroundConfig(settings, fail));
  const order: string[] = [];
  const { server, port, release } = await heldServer(() => order.push('answered'));
  try {
    const answered = fetch(`http://127.0.0.1:${port}/`).then((r) => r.text());
    while (gate.inFlight() === 0) await new Promise((r) => setTimeout(r, 5));
    const waited = wait(gate).then(() => order.push('ran'));
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(order, [], 'the background work waits while the request is in flight');
    release();
    await Promise.all([answered, waited]);
    assert.deepEqual(order, ['answered', 'ran']);
    assert.equal(gate.inFlight(), 0);
  } finally {
    gate.close();
    server.close();
  }
}

/** With a request held in flight for good, runs the gate's wait and answers how long it took; it must run anyway. */
async function waitsAtMost(
  settings: Record<string, string>,
  wait: (gate: YieldGate) => Promise<void>,
): Promise<number> {
  const gate = createYieldGate(parseBackgroundConfig(settings, fail));
  const { server, port, release } = await heldServer();
  try {
    const pending = fetch(`http://127.0.0.1:${port}/`).then((r) => r.text());
    while (gate.inFlight() === 0) await new Promise((r) => setTimeout(r, 5));
    const t0 = performance.now();
    await wait(gate);
    const ms = performance.now() - t0;
    assert.equal(gate.inFlight(), 1, 'the background work ran with the request still in flight');
    release();
    await pending;
    return ms;
  } finally {
    gate.close();
    server.close();
  }
}

test('a step waits for the request in flight to be answered', () =>
  waitsForTheAnswer({ BACKGROUND_MAX_WAIT_MS: '10000' }, (gate) => gate.step()));

test('a step waits no longer than its bound when requests never stop', async () => {
  // It ran while the request was still in flight (waitsAtMost checks), held for good: so the bound
  // ended the wait. How long it took has no upper limit here (a loaded host stretches it); a timer
  // never fires early, so it waited the bound at least.
  const ms = await waitsAtMost({ BACKGROUND_MAX_WAIT_MS: '50' }, (gate) => gate.step());
  assert.ok(ms >= 45, `waited ${ms} ms`);
});

test('between pieces, background work lets the request in flight be answered first', () =>
  waitsForTheAnswer({ BACKGROUND_PIECE_WAIT_MS: '10000' }, (gate) => gate.breathe()));

test('a piece waits no longer than its bound when requests never stop', async () => {
  const ms = await waitsAtMost({ BACKGROUND_PIECE_WAIT_MS: '30' }, (gate) => gate.breathe());
  assert.ok(ms >= 25, `waited ${ms} ms`);
});

test('BACKGROUND_YIELD=false turns the gate off; bad settings are refused with their names', () => {
  assert.equal(createYieldGate(parseBackgroundConfig({ BACKGROUND_YIELD: 'false' }, fail)), noGate);
  assert.deepEqual(parseBackgroundConfig({}, fail), {
    yieldToRequests: true,
    maxWaitMs: 250,
    lagMs: 20,
    pieceWaitMs: 20,
  });
  assert.throws(
    () => parseBackgroundConfig({ BACKGROUND_PIECE_WAIT_MS: '-5' }, fail),
    /BACKGROUND_PIECE_WAIT_MS must be a whole number/,
  );
  assert.throws(
    () => parseBackgroundConfig({ BACKGROUND_YIELD: 'maybe' }, fail),
    /BACKGROUND_YIELD must be true or false/,
  );
  assert.throws(
    () => parseBackgroundConfig({ BACKGROUND_MAX_WAIT_MS: '-1' }, fail),
    /BACKGROUND_MAX_WAIT_MS must be a whole number/,
  );
  assert.throws(
    () => parseBackgroundConfig({ BACKGROUND_LAG_MS: 'x' }, fail),
    /BACKGROUND_LAG_MS must be a whole number/,
  );
});
