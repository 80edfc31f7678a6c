// A real HTTP receiver on 127.0.0.1 for webhook tests: records every request (path, headers,
// body, arrival), answers as the test says, and tracks how many requests are open at once per path.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after } from 'node:test';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Hold the answer until this resolves. */
  wait?: Promise<void>;
}

export interface Receiver {
  url(path?: string): string;
  received: Received[];
  /** The most requests open at once, per path. */
  maxOpen: Map<string, number>;
  open: Map<string, number>;
  respond(fn: (r: Received, nthForPath: number) => Answer): void;
  waitFor(count: number, timeoutMs?: number, path?: string): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const open = new Map<string, number>();
  const maxOpen = new Map<string, number>();
  const counts = new Map<string, number>();
  let responder: (r: Received, n: number) => Answer = () => ({ status: 200, body: 'ok' });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const path = req.url ?? '/';
      const r: Received = {
        path,
        headers: req.headers as Record<string, string>,
        body: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      };
      received.push(r);
      const n = (counts.get(path) ?? 0) + 1;
      counts.set(path, n);
      const now = (open.get(path) ?? 0) + 1;
      open.set(path, now);
      maxOpen.set(path, Math.max(maxOpen.get(path) ?? 0, now));
      const answer = responder(r, n);
      if (answer.wait) await answer.wait;
      open.set(path, (open.get(path) ?? 1) - 1);
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  // The listener alone never keeps a test file's process alive (its accepted connections do while open).
  server.unref();
  const receiver: Receiver = {
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    maxOpen,
    open,
    respond(fn) {
      responder = fn;
    },
    async waitFor(count, timeoutMs = 10_000, path) {
      const deadline = Date.now() + timeoutMs;
      const n = () => (path ? received.filter((r) => r.path === path).length : received.length);
      while (n() < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${n()} of ${count} requests in ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  after(() => receiver.close());
  return receiver;
}

export const silentLog = { info() {}, warn() {}, error() {} };
