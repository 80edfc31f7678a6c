// Proof: customer messages are delivered, and delivered once, through an SMTP outage and a kill -9
// of the worker process.
//
// 1. SMTP down, then back: server processes run the messages worker against an SMTP port that
//    drops every connection; bookings are made; after a while a real SMTP server (smtp-server)
//    starts on that port. Every confirmation must then arrive exactly once.
// 2. kill -9 while sending: a slow SMTP server keeps many sends in flight; the worker process is
//    killed with SIGKILL mid-stream and restarted. No confirmation may be lost. A confirmation may
//    arrive twice only if the crash fell between the server's accept and the record (its row then
//    shows more than one attempt), and both copies must carry the same Message-ID, the one the row
//    was planned with.
import { randomUUID } from 'node:crypto';
import net, { type AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { sleep } from '../env.ts';
import { http, pool } from '../client.ts';
import { describe, type Proof, type ProofRun } from '../proof.ts';
import { startStack, type Stack } from '../stack.ts';
import { insertStore, insertUnits, merchantToken } from '../seed.ts';

interface Arrival {
  to: string;
  messageId: string;
}

/** Listens on a loopback port (0: any free one); a port that cannot be listened on fails the proof at once. */
interface Listener {
  listen(port: number, host: string, ready: () => void): unknown;
  once(event: 'error', fn: (err: Error) => void): unknown;
  off(event: 'error', fn: (err: Error) => void): unknown;
}

function listenOn(server: Listener, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** A real SMTP server on a loopback port that records (recipient, Message-ID) per message. */
async function smtpServer(port: number, delayMs = 0) {
  const arrivals: Arrival[] = [];
  let receiving = 0; // messages received whole and not yet accepted (a cut-off one never counts)
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // Close ends the senders' idle pooled connections after 1 s instead of waiting up to 30 s for them.
    closeTimeout: 1_000,
    size: 1024 * 1024,
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        receiving++;
        const head = Buffer.concat(chunks)
          .toString('utf8')
          .split(/\r?\n\r?\n/)[0];
        const id = /^Message-ID:\s*(<[^>]+>)/im.exec(head)?.[1] ?? '';
        const finish = () => {
          // Recorded when accepted: what a recipient would have in their inbox.
          for (const r of session.envelope.rcptTo) arrivals.push({ to: r.address, messageId: id });
          receiving--;
          cb();
        };
        if (delayMs) setTimeout(finish, delayMs);
        else finish();
      });
    },
  });
  await listenOn(server, port);
  // The worker killed mid-conversation resets its connections (ECONNRESET): a real SMTP server logs
  // that and serves the next sender. Without a listener the 'error' event would end this proof's
  // process instead, as it once did in CI. A message cut off that way is not recorded (never accepted).
  server.on('error', () => {});
  return {
    arrivals,
    receiving: () => receiving,
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** Customers with their own emails and one booking each, made through the API. */
async function bookMany(p: ProofRun, stack: Stack, label: string, n: number): Promise<Map<string, string>> {
  const db = stack.database.db;
  const store = await insertStore(db, `Messages ${label}`);
  const units = await insertUnits(db, store, n);
  const token = await merchantToken(store);
  const emails = new Map<string, string>(); // email -> appointment id
  const start = Date.now() + 7 * 86_400_000;
  await pool(
    Array.from({ length: n }, (_, i) => i),
    8,
    async (i) => {
      const email = `${label}-${i}-${randomUUID().slice(0, 6)}@example.test`;
      const c = await db.query<{ id: string }>('INSERT INTO customers (name, email) VALUES ($1, $2) RETURNING id', [
        `Customer ${i}`,
        email,
      ]);
      await db.query(
        `INSERT INTO store_customers (store_id, customer_id, is_member, member_since) VALUES ($1, $2, true, now())`,
        [store, c.rows[0].id],
      );
      const startsAt = new Date(start + i * 60_000);
      const r = await http(stack.servers[i % stack.servers.length].baseUrl, 'POST', '/api/v1/bookings/appointments', {
        token,
        idempotencyKey: randomUUID(),
        body: {
          store_id: store,
          unit_id: units[i],
          customer_id: c.rows[0].id,
          starts_at: startsAt.toISOString(),
          ends_at: new Date(startsAt.getTime() + 1_800_000).toISOString(),
        },
      });
      if (r.status === 200) emails.set(email, r.body.appointment.id);
      else p.fail('a booking was refused', describe(r));
    },
  );
  return emails;
}

async function confirmations(
  stack: Stack,
): Promise<Map<string, { status: string; attempts: number; message_id: string; to: string }>> {
  const res = await stack.database.db.query<{ status: string; attempts: number; message_id: string; to: string }>(
    `SELECT status, attempts, message_id, to_address AS "to" FROM messages WHERE kind = 'confirmation'`,
  );
  return new Map(res.rows.map((r) => [r.to, r]));
}

async function waitUntil(p: ProofRun, what: string, limitMs: number, done: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  const deadline = Math.min(started + limitMs, p.deadline - 5_000);
  while (Date.now() < deadline) {
    if (await done()) return Date.now() - started;
    await sleep(200);
  }
  p.fail(`${what} did not happen in time`, `${limitMs} ms`);
  return -1;
}

const WORKER_ENV = {
  MESSAGES_POLL_MS: '100',
  MESSAGES_RETRY_BASE_MS: '300',
  MESSAGES_LEASE_MS: '3000',
  MESSAGES_MAX_ATTEMPTS: '50',
  RATE_LIMIT_GLOBAL_PER_MIN: '10000000',
  MAIL_FROM: 'Bookings <bookings@proof.test>',
};

/**
 * SMTP that is down: a port held by a listener that drops every connection as it comes, so senders
 * fail at once, and no other socket can take the port before the real server starts on it. A port
 * only found free (and left unbound for the outage) could be taken by any outgoing connection's
 * local port meanwhile, and the server's listen would then fail.
 */
async function downSmtp(): Promise<{ port: number; close(): Promise<void> }> {
  const holder = net.createServer((socket) => socket.destroy());
  await listenOn(holder, 0);
  let closed: Promise<void> | null = null;
  // Closed once: when the real server takes the port over, or when the outage step ends early.
  return {
    port: (holder.address() as AddressInfo).port,
    close: () => (closed ??= new Promise<void>((r) => holder.close(() => r()))),
  };
}

async function smtpOutage(p: ProofRun) {
  const down = await downSmtp();
  try {
    await outageThenBack(p, down);
  } finally {
    await down.close();
  }
}

async function outageThenBack(p: ProofRun, down: { port: number; close(): Promise<void> }) {
  const port = down.port;
  const began = Date.now();
  const stack = await startStack(p, 'msg_outage', {
    servers: 2,
    env: { ...WORKER_ENV, SMTP_URL: `smtp://127.0.0.1:${port}` },
  });
  stack.require('GET', '/admin/v1/stores/{storeId}/messages');
  // Each step's figure as soon as it is known: a proof cut by the time bound shows where it stood.
  p.figure('outage: two servers ready (ms)', Date.now() - began);
  const N = 40;
  const booked = await bookMany(p, stack, 'outage', N);
  p.figure('outage: bookings', booked.size);
  p.figure('outage: bookings made by (ms)', Date.now() - began);
  const downMs = 3_000;
  await sleep(downMs);
  const before = await confirmations(stack);
  const retried = [...before.values()].filter((m) => m.attempts > 0).length;
  await down.close();
  const smtp = await smtpServer(port);
  try {
    const drainMs = await waitUntil(p, 'delivery after SMTP came back', 60_000, async () => {
      const rows = await confirmations(stack);
      return rows.size === booked.size && [...rows.values()].every((m) => m.status === 'sent');
    });
    // Every row is sent, so nothing starts another send; what is still arriving is the last to count.
    await waitUntil(p, 'the SMTP server idle', 10_000, async () => smtp.receiving() === 0);
    const byTo = new Map<string, number>();
    for (const a of smtp.arrivals) byTo.set(a.to, (byTo.get(a.to) ?? 0) + 1);
    const rows = await confirmations(stack);
    for (const email of booked.keys()) {
      const n = byTo.get(email) ?? 0;
      p.check(n === 1, 'a confirmation was not delivered exactly once after an SMTP outage', `${n} copies`);
      p.check(
        rows.get(email)?.status === 'sent',
        'a delivered confirmation is not recorded as sent',
        rows.get(email)?.status ?? 'missing',
      );
    }
    p.figure('outage: SMTP down for (ms)', downMs);
    p.figure('outage: confirmations tried while down', retried);
    p.figure('outage: most attempts for one message', Math.max(...[...rows.values()].map((m) => m.attempts)));
    p.figure('outage: all delivered after SMTP returned (ms)', drainMs);
    p.figure('outage: copies received', smtp.arrivals.length);
  } finally {
    await smtp.close();
  }
}

async function killDuringSend(p: ProofRun) {
  // Slow accepts keep many sends in flight, so the kill lands between send and record for some.
  const smtp = await smtpServer(0, 150);
  try {
    const stack = await startStack(p, 'msg_kill', {
      servers: 1,
      env: { ...WORKER_ENV, SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MESSAGES_CONCURRENCY: '20' },
    });
    const N = 100;
    const booked = await bookMany(p, stack, 'kill', N);
    p.figure('kill: bookings', booked.size);
    const sending = async () =>
      (await stack.database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM messages WHERE status = 'sending'`))
        .rows[0].n;
    // Kill while sends are claimed and unrecorded: slow accepts keep them so, and the check after the
    // kill reads what the kill really cut.
    await waitUntil(
      p,
      'the first deliveries, with sends in flight',
      30_000,
      async () => smtp.arrivals.length >= 20 && (await sending()) > 0,
    );
    const atKill = smtp.arrivals.length;
    await stack.servers[0].kill();
    const inFlight = await sending();
    p.check(inFlight > 0, 'no send was in flight at the worker kill');
    await stack.servers[0].spawn();
    const drainMs = await waitUntil(p, 'delivery after the restart', 90_000, async () => {
      const rows = await confirmations(stack);
      return rows.size === booked.size && [...rows.values()].every((m) => m.status === 'sent');
    });
    await waitUntil(p, 'the SMTP server idle', 10_000, async () => smtp.receiving() === 0);
    const rows = await confirmations(stack);
    const copies = new Map<string, Arrival[]>();
    for (const a of smtp.arrivals) copies.set(a.to, [...(copies.get(a.to) ?? []), a]);
    let duplicates = 0;
    for (const email of booked.keys()) {
      const got = copies.get(email) ?? [];
      const row = rows.get(email);
      p.check(got.length >= 1, 'a confirmation was lost across a kill -9 of the worker', email.split('@')[0]);
      if (got.length > 1) {
        duplicates++;
        p.check(
          (row?.attempts ?? 0) > 1,
          'a confirmation arrived twice without a crash between its send and its record',
        );
        p.check(
          got.every((a) => a.messageId === row?.message_id),
          'the copies of a resent confirmation carry different Message-IDs',
          got.map((a) => a.messageId).join(' '),
        );
      } else if (got.length === 1) {
        p.check(got[0].messageId === row?.message_id, "a confirmation carries a Message-ID other than its key's");
      }
    }
    p.figure('kill: delivered before the kill', atKill);
    p.figure('kill: claimed and unrecorded at the kill', inFlight);
    p.figure('kill: lost', [...booked.keys()].filter((e) => !copies.has(e)).length);
    p.figure('kill: delivered twice (crash between send and record; same Message-ID)', duplicates);
    p.figure('kill: all delivered after the restart (ms)', drainMs);
  } finally {
    await smtp.close();
  }
}

export const messages: Proof = {
  name: 'messages',
  title:
    'customer messages: SMTP down then back, and kill -9 while sending; each delivered, once unless the crash fell between send and record',
  budgetMs: 60_000,
  async run(p: ProofRun) {
    await smtpOutage(p);
    await killDuringSend(p);
  },
};
