// A webhook receiver for the proofs, on 127.0.0.1: records every request (webhook headers and the
// event id of its body) and answers as the proof says, optionally after a delay. pending(path) counts
// the requests received and not yet answered: what a sender killed now has in flight.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Delivery {
  path: string;
  webhookId: string;
  timestamp: string;
  signature: string;
  body: string;
  bodyId: string | null;
  at: number;
}

export interface ProofReceiver {
  url(path: string): string;
  got: Delivery[];
  pending(path: string): number;
  respond(fn: (d: Delivery, nth: number) => { status: number; delayMs?: number }): void;
  close(): Promise<void>;
}

export async function startProofReceiver(): Promise<ProofReceiver> {
  const got: Delivery[] = [];
  const counts = new Map<string, number>();
  const unanswered = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  let responder: (d: Delivery, nth: number) => { status: number; delayMs?: number } = () => ({ status: 200 });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let bodyId: string | null = null;
      try {
        bodyId = JSON.parse(body).id ?? null;
      } catch {
        /* not JSON */
      }
      const d: Delivery = {
        path: req.url ?? '/',
        webhookId: String(req.headers['webhook-id'] ?? ''),
        timestamp: String(req.headers['webhook-timestamp'] ?? ''),
        signature: String(req.headers['webhook-signature'] ?? ''),
        body,
        bodyId,
        at: Date.now(),
      };
      got.push(d);
      const key = `${d.path} ${d.webhookId}`;
      const nth = (counts.get(key) ?? 0) + 1;
      counts.set(key, nth);
      const answer = responder(d, nth);
      unanswered.set(d.path, (unanswered.get(d.path) ?? 0) + 1);
      const send = () => {
        unanswered.set(d.path, (unanswered.get(d.path) ?? 1) - 1);
        res.writeHead(answer.status);
        res.end();
      };
      if (answer.delayMs) {
        const timer = setTimeout(() => {
          timers.delete(timer);
          send();
        }, answer.delayMs);
        timers.add(timer);
      } else send();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    got,
    pending: (path) => unanswered.get(path) ?? 0,
    respond(fn) {
      responder = fn;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
