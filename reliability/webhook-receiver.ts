// A webhook receiver for the proofs, on 127.0.0.1: records every request (webhook headers and the
// event id of its body) and answers as the proof says, optionally after a delay.
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
  respond(fn: (d: Delivery, nth: number) => { status: number; delayMs?: number }): void;
  close(): Promise<void>;
}

export async function startProofReceiver(): Promise<ProofReceiver> {
  const got: Delivery[] = [];
  const counts = new Map<string, number>();
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
      const send = () => {
        res.writeHead(answer.status);
        res.end();
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    got,
    respond(fn) {
      responder = fn;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
