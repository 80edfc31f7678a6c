// The webhook part of `npm run demo`: a receiver on 127.0.0.1 is registered as an endpoint of the
// demo store, an appointment is booked, the worker delivers the event, and what the receiver got is
// printed (headers, body, and whether the package's verify accepts the signature). The endpoint is
// deleted afterwards, so the receiver that stops with the demo is not retried by `npm start`.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { App } from '../src/app.ts';
import type { Database } from '../src/platform/db/port.ts';
import { systemClock } from '../src/platform/clock.ts';
import { WebhookWorker } from '../src/webhooks/delivery-worker.ts';

export async function demoWebhooks(
  app: App,
  db: Database,
  token: string,
  storeId: string,
  unitId: string,
): Promise<string[]> {
  const got: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/demo-hook`;
  const inject = async (method: string, path: string, body?: unknown) => {
    const res = await app.inject({
      method: method as any,
      url: path,
      headers: { authorization: `Bearer ${token}` },
      ...(body ? { payload: body as any } : {}),
    });
    return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : null };
  };
  const lines: string[] = [];
  try {
    const created = await inject('POST', '/api/v1/webhooks/endpoints', {
      url,
      event_types: ['appointment.created'],
      description: 'npm run demo',
    });
    if (created.status !== 200) return [`webhooks not demonstrated: ${created.status} ${JSON.stringify(created.body)}`];
    const endpoint = created.body.endpoint;
    const start = new Date(Date.now() + 86_400_000);
    start.setUTCHours(15, 0, 0, 0);
    await inject('POST', '/api/v1/bookings/appointments', {
      store_id: storeId,
      unit_id: unitId,
      starts_at: start.toISOString(),
      ends_at: new Date(start.getTime() + 1800_000).toISOString(),
      guest_name: 'Webhook Demo',
      guest_email: 'hook.demo@example.com',
    });
    const worker = new WebhookWorker({
      db,
      clock: systemClock,
      log: { info() {}, warn() {}, error() {} },
      settings: { ...app.deps.config.webhooks, allowPrivateTargets: true },
    });
    await worker.runOnce();
    await worker.stop();
    lines.push(
      `Webhooks: registered ${url} (endpoint ${endpoint.id}), booked an appointment; the receiver got ${got.length} request(s):`,
    );
    for (const r of got) {
      let verified = 'verified with standardwebhooks';
      try {
        new Webhook(endpoint.secret).verify(r.body, r.headers as Record<string, string>);
      } catch (err) {
        verified = `NOT verified: ${(err as Error).message}`;
      }
      lines.push(
        `  POST /demo-hook  webhook-id: ${r.headers['webhook-id']}  webhook-timestamp: ${r.headers['webhook-timestamp']}  (${verified})`,
      );
      lines.push(`  webhook-signature: ${r.headers['webhook-signature']}`);
      lines.push(`  ${JSON.stringify(JSON.parse(r.body), null, 2).split('\n').join('\n  ')}`);
    }
    await inject('DELETE', `/api/v1/webhooks/endpoints/${endpoint.id}`);
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  return lines;
}
