// Customer messages bench (PostgreSQL server only), part of `npm run bench`; alone:
//   node bench/messages.ts [--database-url URL] [--emails 5000]
// It runs on its own database, bbo_bench_messages, created fresh and dropped afterwards.
//
// The service runs as `npm start` does (src/server.ts, messages worker embedded) with SMTP_URL
// pointing at a real SMTP server (smtp-server) in this process on 127.0.0.1.
//  1. send: N confirmation messages made due at once (one INSERT); emails/s until the SMTP server has
//     accepted them all (each one: the send-time re-check, the gate, SMTP, the record);
//  2. plan + send: N appointment.created events committed at once (one INSERT into the outbox);
//     emails/s from that commit until all N confirmations arrived (planning from the feed included).
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { withScratchDatabase } from './harness/scratch-database.ts';
import { SMTPServer } from 'smtp-server';
import { openPg } from '../src/platform/db/pg.adapter.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { startChild } from './harness/server.ts';

export interface MessagesBenchResult {
  send: { emails: number; seconds: number; perSecond: number };
  planAndSend: { emails: number; seconds: number; perSecond: number };
  loadavg: { before: number[]; after: number[] };
}

async function startSmtp() {
  let count = 0;
  let waiter: { n: number; resolve: () => void } | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, cb) {
      stream.on('data', () => {});
      stream.on('end', () => {
        count++;
        if (waiter && count >= waiter.n) waiter.resolve();
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    count: () => count,
    until: (n: number, timeoutMs: number) =>
      new Promise<void>((resolve, reject) => {
        if (count >= n) return resolve();
        const timer = setTimeout(
          () => reject(new Error(`only ${count} of ${n} emails arrived in ${timeoutMs} ms`)),
          timeoutMs,
        );
        waiter = {
          n,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        };
      }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A store with n future appointments, each for its own customer with an email. */
async function seed(db: pg.Pool, n: number, tag: string): Promise<string> {
  const store = (
    await db.query(
      `INSERT INTO stores (name, timezone, currency) VALUES ('Bench ' || $1, 'Europe/London', 'GBP') RETURNING id`,
      [tag],
    )
  ).rows[0].id;
  await db.query(
    `INSERT INTO units (store_id, display_name, kind) SELECT $1, 'Chair ' || g, 'staff' FROM generate_series(1, 50) g`,
    [store],
  );
  await db.query(
    `WITH c AS (
       INSERT INTO customers (name, email) SELECT 'Customer ' || g, 'bench-' || $3 || '-' || g || '@example.test' FROM generate_series(1, $2::int) g RETURNING id
     ), n AS (SELECT id, row_number() OVER () AS i FROM c),
     m AS (INSERT INTO store_customers (store_id, customer_id, is_member) SELECT $1, id, true FROM n)
     INSERT INTO appointments (store_id, unit_id, customer_id, starts_at, ends_at, block, status, currency)
     SELECT $1, u.id, n.id, t.s, t.s + interval '30 minutes', tstzrange(t.s, t.s + interval '30 minutes'), 'confirmed', 'GBP'
       FROM n
       CROSS JOIN LATERAL (SELECT now() + interval '30 days' + ((n.i / 50) * interval '1 hour') AS s) t
       JOIN LATERAL (SELECT id FROM units WHERE store_id = $1 ORDER BY id OFFSET (n.i % 50) LIMIT 1) u ON true`,
    [store, n, tag],
  );
  return store;
}

export async function runMessagesBench(o: {
  databaseUrl: string;
  emails: number;
  nodeArgs?: string[];
}): Promise<MessagesBenchResult> {
  const pool = new pg.Pool({ connectionString: o.databaseUrl, max: 4 });
  const db = openPg({ connectionString: o.databaseUrl, poolSize: 2 });
  await migrate(db);
  await db.close();
  const smtp = await startSmtp();
  const before = os.loadavg();
  const server = await startChild(
    'src/server.ts',
    {
      DATABASE_URL: o.databaseUrl,
      AUTH_SECRET: randomBytes(32).toString('hex'),
      LOG_LEVEL: 'warn',
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Bench <bench@bench.test>',
      MESSAGES_POLL_MS: '50',
    },
    { nodeArgs: o.nodeArgs, readyPath: '/readyz' },
  );
  try {
    // 1. send only: messages as the planner writes them, all due now.
    const storeA = await seed(pool, o.emails, 'send');
    let t0 = Date.now();
    await pool.query(
      `INSERT INTO messages (store_id, kind, subject_id, version, channel, category, customer_id, to_address, appointment_id,
                             planned_start, subject, body_text, body_html, message_id, due_at, created_at, updated_at)
       SELECT a.store_id, 'confirmation', a.id, 'v1', 'email', 'class_events', a.customer_id, c.email, a.id, a.starts_at,
              'Booking confirmed', 'Your booking is confirmed.', '<p>Your booking is confirmed.</p>',
              '<' || md5(a.id::text) || '@bench.test>', now(), now(), now()
         FROM appointments a JOIN customers c ON c.id = a.customer_id WHERE a.store_id = $1`,
      [storeA],
    );
    await smtp.until(o.emails, 300_000);
    const sendSeconds = (Date.now() - t0) / 1000;

    // 2. plan + send: the events the creates would have written, committed at once.
    const storeB = await seed(pool, o.emails, 'plan');
    const base = smtp.count();
    t0 = Date.now();
    await pool.query(
      `INSERT INTO events (store_id, type, occurred_at, occurred_at_local, timezone, data)
       SELECT a.store_id, 'appointment.created', now(), to_char(now(), 'YYYY-MM-DD"T"HH24:MI:SS'), 'Europe/London',
              jsonb_build_object('id', a.id, 'store_id', a.store_id, 'status', a.status, 'source', a.source,
                                 'starts_at', a.starts_at, 'ends_at', a.ends_at, 'customer_id', a.customer_id)
         FROM appointments a WHERE a.store_id = $1`,
      [storeB],
    );
    await smtp.until(base + o.emails, 300_000);
    const planSeconds = (Date.now() - t0) / 1000;
    return {
      send: { emails: o.emails, seconds: sendSeconds, perSecond: Math.round(o.emails / sendSeconds) },
      planAndSend: { emails: o.emails, seconds: planSeconds, perSecond: Math.round(o.emails / planSeconds) },
      loadavg: { before, after: os.loadavg() },
    };
  } finally {
    await server.stop();
    await smtp.close();
    await pool.end();
  }
}

export function describeMessagesBench(r: MessagesBenchResult): string {
  return [
    'messages (service as npm start, SMTP server on 127.0.0.1 in the bench process):',
    `  send:        ${r.send.emails} due confirmations -> ${r.send.perSecond} emails/s (${r.send.seconds.toFixed(1)} s)`,
    `  plan + send: ${r.planAndSend.emails} appointment.created events -> ${r.planAndSend.perSecond} emails/s (${r.planAndSend.seconds.toFixed(1)} s)`,
    `  load average before ${r.loadavg.before.map((x) => x.toFixed(1)).join(' ')}, after ${r.loadavg.after.map((x) => x.toFixed(1)).join(' ')}`,
  ].join('\n');
}

export async function runMessagesOnOwnDatabase(
  serverUrl: string,
  o: { emails: number; nodeArgs?: string[] },
): Promise<MessagesBenchResult> {
  return withScratchDatabase(serverUrl, 'bbo_bench_messages', (databaseUrl) => runMessagesBench({ ...o, databaseUrl }));
}

if (import.meta.main) {
  const { parseArgs, num, str } = await import('./lib/args.ts');
  const args = parseArgs();
  const server = str(args, 'database-url') ?? process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!server) throw new Error('set --database-url, DATABASE_URL or TEST_DATABASE_URL (a PostgreSQL server)');
  console.log(
    `messages bench: PostgreSQL server ${new URL(server).host}, node ${process.version}, ${os.cpus().length} cores, load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')}`,
  );
  const result = await runMessagesOnOwnDatabase(server, { emails: num(args, 'emails', 5000) });
  console.log(describeMessagesBench(result));
  console.log(JSON.stringify(result));
}
