// The diary's live badge: a screen reads the hub's status when it first renders and subscribes in an
// effect after it. A stream that goes live in between must still show as live (issue 26).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LiveHub, followStatus } from '../../console/src/live.ts';

test('following the hub after the stream went live reports "live" at once, without waiting for another change', async (t) => {
  // A stream whose headers arrive at once and whose body stays open, like the server's.
  const body = new ReadableStream<Uint8Array>({ start() {} });
  t.mock.method(
    globalThis,
    'fetch',
    async () => new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } }),
  );
  const hub = new LiveHub(
    'store-1',
    () => 'token',
    () => {},
  );
  const atFirstRender = hub.status; // what the badge's useState reads
  assert.equal(atFirstRender, 'connecting');
  // The stream goes live before the screen's effect subscribes.
  await new Promise((r) => setTimeout(r, 20));
  assert.equal(hub.status, 'live');

  const seen: string[] = [];
  const off = hub.follow((s) => seen.push(s));
  assert.deepEqual(seen, ['live'], 'the badge is told the status it missed');
  off();
  hub.close();
});

test('followStatus reports the current status, then each change, and nothing after unsubscribing', () => {
  const listeners = new Set<(s: string) => void>();
  const source = {
    status: 'connecting',
    onStatus(l: (s: string) => void) {
      listeners.add(l);
      return () => {
        listeners.delete(l);
      };
    },
    set(s: string) {
      this.status = s;
      listeners.forEach((l) => l(s));
    },
  };
  const seen: string[] = [];
  const off = followStatus(source, (s) => seen.push(s));
  source.set('live');
  off();
  source.set('retrying');
  assert.deepEqual(seen, ['connecting', 'live']);
});
