// The yield gate (src/platform/background/): background steps wait while a request of this process
// is in flight, and never longer than their bound; BACKGROUND_* settings parse or fail clearly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createYieldGate, noGate } from '../../src/platform/background/yield-gate.ts';
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

test('a step waits for the request in flight to be answered', async () => {
  const gate = createYieldGate(parseBackgroundConfig({ BACKGROUND_MAX_WAIT_MS: '10000' }, fail));
  const order: string[] = [];
  // The server's side of the answer: the client's fetch may settle after the step runs, so the order
  // is taken where the gate counts, when the response closes.
  const { server, port, release } = await heldServer(() => order.push('answered'));
  try {
    const answered = fetch(`http://127.0.0.1:${port}/`).then((r) => r.text());
    while (gate.inFlight() === 0) await new Promise((r) => setTimeout(r, 5));
    const step = gate.step().then(() => order.push('step'));
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(order, [], 'the step waits while the request is in flight');
    release();
    await Promise.all([answered, step]);
    assert.equal(order[0], 'answered');
    assert.equal(gate.inFlight(), 0);
  } finally {
    gate.close();
    server.close();
  }
});

test('a step waits no longer than its bound when requests never stop', async () => {
  const gate = createYieldGate(parseBackgroundConfig({ BACKGROUND_MAX_WAIT_MS: '50' }, fail));
  const { server, port, release } = await heldServer();
  try {
    const pending = fetch(`http://127.0.0.1:${port}/`).then((r) => r.text());
    while (gate.inFlight() === 0) await new Promise((r) => setTimeout(r, 5));
    await gate.step();
    assert.equal(gate.inFlight(), 1, 'the step ran with the request still in flight');
    release();
    await pending;
  } finally {
    gate.close();
    server.close();
  }
});

test('between pieces, background work lets the request in flight be answered first, for at most its bound', async () => {
  const gate = createYieldGate(parseBackgroundConfig({ BACKGROUND_PIECE_WAIT_MS: '10000' }, fail));
  const order: string[] = [];
  const { server, port, release } = await heldServer(() => order.push('answered'));
  try {
    const answered = fetch(`http://127.0.0.1:${port}/`).then((r) => r.text());
    while (gate.inFlight() === 0) await new Promise((r) => setTimeout(r, 5));
    const piece = gate.breathe().then(() => order.push('piece'));
    await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(order, [], 'the piece waits while the request is in flight');
    release();
    await Promise.all([answered, piece]);
    assert.equal(order[0], 'answered');
  } finally {
    gate.close();
    server.close();
  }
  // With a bound of 30 ms and a request that is never answered, the piece runs after about 30 ms.
  const bounded = createYieldGate(parseBackgroundConfig({ BACKGROUND_PIECE_WAIT_MS: '30' }, fail));
  const held = await heldServer();
  try {
    const pending = fetch(`http://127.0.0.1:${held.port}/`).then((r) => r.text());
    while (bounded.inFlight() === 0) await new Promise((r) => setTimeout(r, 5));
    const t0 = performance.now();
    await bounded.breathe();
    const waited = performance.now() - t0;
    assert.ok(waited >= 25 && waited < 1000, `waited ${waited} ms`);
    assert.equal(bounded.inFlight(), 1, 'the piece ran with the request still in flight');
    held.release();
    await pending;
  } finally {
    bounded.close();
    held.server.close();
  }
});

test('BACKGROUND_YIELD=false turns the gate off; bad settings are refused with their names', () => {
  assert.equal(createYieldGate(parseBackgroundConfig({ BACKGROUND_YIELD: 'false' }, fail)), noGate);
  assert.deepEqual(parseBackgroundConfig({}, fail), { yieldToRequests: true, maxWaitMs: 250, lagMs: 20, pieceWaitMs: 20 });
  assert.throws(() => parseBackgroundConfig({ BACKGROUND_PIECE_WAIT_MS: '-5' }, fail), /BACKGROUND_PIECE_WAIT_MS must be a whole number/);
  assert.throws(() => parseBackgroundConfig({ BACKGROUND_YIELD: 'maybe' }, fail), /BACKGROUND_YIELD must be true or false/);
  assert.throws(() => parseBackgroundConfig({ BACKGROUND_MAX_WAIT_MS: '-1' }, fail), /BACKGROUND_MAX_WAIT_MS must be a whole number/);
  assert.throws(() => parseBackgroundConfig({ BACKGROUND_LAG_MS: 'x' }, fail), /BACKGROUND_LAG_MS must be a whole number/);
});
