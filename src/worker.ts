// `npm run worker`: the webhook worker (dispatcher and deliveries) and the customer messages worker
// (planner and sender, unless MESSAGES_WORKER=false), for deployments that run
// it apart from the API processes (WORKER_ENABLED=false on those). Any number may run against one
// PostgreSQL server; the embedded engine allows one process, so it runs inside `npm start` instead.
import pino from 'pino';
import { loadConfigOrExit } from './config.ts';
import { openDatabase } from './platform/db/open.ts';
import { migrate } from './platform/db/migrate.ts';
import { checkSessionSettings, notUtcMessage } from './platform/db/session-check.ts';
import { systemClock } from './platform/clock.ts';
import { WebhookWorker } from './webhooks/delivery-worker.ts';
import { createMessagesWorker } from './notifications/messages/worker.ts';
import { manageLinks } from './booking-page/page-deps.ts';

const config = loadConfigOrExit();
if (!config.databaseUrl) {
  console.error(
    'npm run worker needs DATABASE_URL (a PostgreSQL server): the embedded engine allows one process, and `npm start` runs the worker itself.',
  );
  process.exit(1);
}

const log = pino({ level: config.logLevel, base: { component: 'webhooks-worker' } });
const db = await openDatabase(config, (err) =>
  log.warn({ err: { message: err.message } }, 'idle database connection lost'),
);
await migrate(db, { log });
const session = await checkSessionSettings(db);
if (!session.ok) {
  console.error(`Configuration error: ${notUtcMessage(session.timezone)}`);
  process.exit(1);
}
const worker = new WebhookWorker({ db, clock: systemClock, log, settings: config.webhooks }).start();
log.info({ pid: process.pid }, 'webhook worker started');
const messagesWorker = config.messages.worker
  ? createMessagesWorker({
      db,
      clock: systemClock,
      config: config.messages,
      log: log.child({ component: 'messages' }),
      manageLink: manageLinks(config, systemClock),
      publicUrl: config.bookingPage.publicUrl,
    })
  : null;
messagesWorker?.start();

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  log.info({ signal }, 'webhook worker stopping: finishing attempts in flight');
  const force = setTimeout(() => process.exit(1), 20_000);
  force.unref();
  try {
    await worker.stop();
    await messagesWorker?.stop();
    await db.close();
    process.exit(0);
  } catch (err) {
    log.error({ err: { message: (err as Error).message } }, 'error while stopping');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
