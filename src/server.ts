// Process entry: load config, open and migrate the database, listen, and shut down gracefully.
import pino from 'pino';
import { deliveryMode } from './notifications/delivery/delivery-mode.ts';
import { buildApp } from './app.ts';
import { systemClock } from './platform/clock.ts';
import { isDevSecret, loadConfigOrExit } from './config.ts';
import { openDatabase } from './platform/db/open.ts';
import { embeddedCluster } from './platform/db/embedded-postgres.adapter.ts';
import { migrate } from './platform/db/migrate.ts';
import { firstRunSetupLink } from './staff/first-run.ts';
import { purgeExpiredIdempotency } from './platform/idempotency.ts';
import { startPruning } from './events/retention.ts';
import { pruneAvailabilityChanges } from './bookings/availability/availability-changes.repository.ts';
import { WebhookWorker, WEBHOOK_WORKER_POOL } from './webhooks/delivery-worker.ts';
import { startDepositSweep } from './bookings/deposits/deposits.service.ts';
import { startOfferSweep } from './classes/offer-sweep.ts';
import { createMessagesWorker, MESSAGES_WORKER_POOL } from './notifications/messages/worker.ts';
import { manageLinks } from './booking-page/page-deps.ts';
import { openReadRouter } from './platform/db/read-routing.open.ts';
import { checkSessionSettings, notUtcMessage } from './platform/db/session-check.ts';
import { createYieldGate } from './platform/background/yield-gate.ts';
import { limitHeapGrowth } from './platform/heap-growth.ts';

const config = loadConfigOrExit();
// The heap grows by a quarter over what it holds, not up to four times, on either engine: on the
// embedded one node shares a small machine with its PostgreSQL, and a server's processes share theirs
// with each other (src/platform/heap-growth.ts).
limitHeapGrowth();

// The embedded engine refuses a DATA_DIR another process runs (docs/decisions/embedded-engine.md).
const db = await openDatabase(config).catch((err: Error) => {
  console.error(`Cannot open the database: ${err.message}`);
  process.exit(1);
});
const migration = await migrate(db);
const session = await checkSessionSettings(db);
if (!session.ok) {
  console.error(`Configuration error: ${notUtcMessage(session.timezone)}`);
  process.exit(1);
}
// The read replica (DATABASE_READ_URL), when there is one: safe reads go to it (src/platform/db/read-routing.ts).
const readRouting = await openReadRouter(
  config,
  db,
  pino({ level: config.logLevel, base: { component: 'read-routing' } }),
);
const app = await buildApp({ config, db, reads: readRouting?.router ?? null });
if (session.differences.length)
  app.log.warn(
    { differences: session.differences },
    "database session settings differ from the adapter's (behind a pooler, set them on the server)",
  );
if (migration.applied.length) app.log.info({ applied: migration.applied }, 'migrations applied');
if (migration.functions.length) app.log.info({ functions: migration.functions }, 'db/functions files applied');
if (migration.unowned.length)
  app.log.warn({ functions: migration.unowned }, 'functions in the database that no db/functions/ file defines');
if (isDevSecret(config))
  app.log.warn('AUTH_SECRET is not set: using the development secret (never do this in production)');
if (!config.adminToken) app.log.info('ADMIN_TOKEN is not set: the operator surface (/admin/v1) is disabled');
// First run: no staff account yet, so a one-time link to create the first owner (src/staff/first-run.ts).
// Printed on the terminal only: the logger never carries a token.
const setupLink = await firstRunSetupLink(db, config, systemClock);
if (setupLink)
  console.log(`\nNo staff account yet. Create the first owner (one-time link, 24 hours):\n\n  ${setupLink}\n`);

const sweeper = setInterval(
  () => {
    purgeExpiredIdempotency(db, new Date()).catch((err) =>
      app.log.warn({ err: { message: err.message } }, 'idempotency purge failed'),
    );
    // The availability search's change records older than a day (src/bookings/availability/).
    pruneAvailabilityChanges(db, new Date()).catch((err) =>
      app.log.warn({ err: { message: err.message } }, 'availability change pruning failed'),
    );
  },
  10 * 60 * 1000,
);
sweeper.unref();
// Events older than 90 days are pruned hourly, in batches (src/events/retention.ts).
const eventPruning = startPruning(db, systemClock, app.log);

// The embedded PostgreSQL stopping on its own (a crash, a kill) ends the service with a clear
// message instead of running on without it: from that instant writes fail and /readyz answers 503;
// the next start recovers the database (crash recovery) and starts it again.
(await embeddedCluster())?.onUnexpectedExit((reason) => {
  app.log.fatal({ reason }, 'the embedded PostgreSQL stopped: the service stops too (start it again to recover)');
  void shutdown('embedded PostgreSQL stopped', 1);
});

// A background worker's own connections, on a PostgreSQL server or the embedded PostgreSQL alike.
async function ownConnections(wanted: boolean, poolSize: number, name: string) {
  if (!wanted) return db;
  return openDatabase({ ...config, dbPoolSize: poolSize }, (err) =>
    app.log.warn({ err: { message: err.message } }, `${name}: idle database connection lost`),
  );
}
// The webhook worker runs in this process unless WORKER_ENABLED=false (then `npm run worker` runs it).
// On a PostgreSQL server it has its own few connections, so a burst of requests holding the pool
// never stalls deliveries (the embedded engine too: it is real PostgreSQL, in a child process).
// In this process the workers give way to requests: each step waits for a quiet moment (at most
// BACKGROUND_MAX_WAIT_MS), and CPU work breathes between pieces (src/platform/background/).
const background = createYieldGate(config.background);
const workerDb = await ownConnections(config.workerEnabled, WEBHOOK_WORKER_POOL, 'webhook worker');
const worker = config.workerEnabled
  ? new WebhookWorker({
      db: workerDb,
      clock: app.deps.clock,
      log: app.log.child({ component: 'webhooks' }),
      settings: config.webhooks,
      gate: background,
    }).start()
  : null;
// Online bookings whose deposit did not arrive in time are cancelled, freeing their slot.
const depositSweep = startDepositSweep(db, systemClock, 60 * 1000, (err) =>
  app.log.warn({ err: { message: err.message } }, 'deposit sweep failed'),
);
// Class offers not accepted in time pass to the next in line (src/classes/offer-sweep.ts); offers last
// whole minutes, so a run every 15 seconds keeps each within a quarter of a minute of its expiry.
const offerSweep = startOfferSweep(db, app.deps.clock, 15 * 1000, (err) =>
  app.log.warn({ err: { message: err.message } }, 'class offer sweep failed'),
);

// Customer messages: planned from the event feed and sent in the background, beside the webhook
// worker (WORKER_ENABLED=false moves both to `npm run worker`; MESSAGES_WORKER=false turns this one off).
// On a PostgreSQL server it too has its own few connections (its database work is short: claims and
// outcomes, never held across a send), so a backlog of messages never takes the connections requests
// need, nor the reverse.
const messagesDb = await ownConnections(
  config.workerEnabled && config.messages.worker,
  MESSAGES_WORKER_POOL,
  'messages worker',
);
// GET /metrics reports each pool of this process (pg.Pool's total, idle and waiting counts).
for (const [name, handle] of [
  ['replica', readRouting?.replica],
  ['webhook_worker', workerDb],
  ['messages_worker', messagesDb],
] as const) {
  const pool = handle && handle !== db ? (handle as { pool?: any }).pool : null;
  if (pool) app.metrics?.addPool(name, pool, (handle as { health?: any }).health);
}
const messagesWorker =
  config.workerEnabled && config.messages.worker
    ? createMessagesWorker({
        db: messagesDb,
        clock: systemClock,
        config: config.messages,
        log: app.log.child({ component: 'messages' }),
        manageLink: manageLinks(config, systemClock),
        publicUrl: config.bookingPage.publicUrl,
        gate: background,
      })
    : null;
if (messagesWorker) {
  if (!config.messages.smtpUrl && !config.messages.sms)
    app.log.info('no SMTP_URL or SMS provider set: customer messages are kept in the local mailbox, not sent');
  messagesWorker.start();
}

let closing = false;
async function shutdown(signal: string, exitCode = 0) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down: finishing in-flight requests');
  clearInterval(sweeper);
  eventPruning.stop();
  depositSweep.stop();
  offerSweep.stop();
  const force = setTimeout(() => {
    app.log.error('shutdown took too long; exiting');
    process.exit(1);
  }, 20_000);
  force.unref();
  try {
    await app.close(); // stops accepting new connections
    await worker?.stop(); // attempts in flight finish (each within its timeout) and are recorded
    if (workerDb !== db) await workerDb.close();
    await messagesWorker?.stop(); // the sends in hand finish; anything claimed and unsent is taken again after its lease
    if (messagesDb !== db) await messagesDb.close();
    // Requests already running still need the database: close it only once they have answered.
    for (let waited = 0; app.inFlight() > 0 && waited < 15_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await readRouting?.close();
    await db.close();
    await (await embeddedCluster())?.stop(); // after every pool: a fast shutdown with a checkpoint
    process.exit(exitCode);
  } catch (err) {
    app.log.error({ err }, 'error during shutdown');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: config.port, host: config.host });
app.log.info({ engine: db.engine, docs: `http://${config.host}:${config.port}/docs` }, 'listening');
// Where what would have been sent is (the development mailbox), or that nothing can be (issue 41).
const delivery = deliveryMode(config);
if (delivery.devMailbox)
  app.log.info(
    { mailbox: `${config.bookingPage.publicUrl}/console/#/mailbox` },
    "development mailbox: no SMTP_URL, so messages and sign-in codes are kept in the console's Mailbox, not sent",
  );
if (delivery.signIn === 'none')
  app.log.warn(
    'no SMTP_URL or SMS provider in production: the booking page cannot send sign-in codes, so online booking cannot confirm',
  );
