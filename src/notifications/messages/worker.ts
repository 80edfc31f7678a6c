// The messages worker: plans from the event feed and sends what is due, in a loop. Runs inside
// `npm start` unless MESSAGES_WORKER=false; several processes may run it side by side (the planner
// cursor and the message claims keep them from doing the same work twice).
import type { Database } from '../../platform/db/port.ts';
import type { Clock } from '../../platform/clock.ts';
import type { MessagesConfig } from './messages.config.ts';
import { smtpTransport } from '../channels/smtp.transport.ts';
import { smsTransport } from '../channels/sms.transport.ts';
import type { Transport } from '../channels/transport.ts';
import type { MessageChannel } from './message-kinds.ts';
import { planOnce, type PlannerOptions } from './planner.ts';
import { sendDue, type SenderLog, type SenderOptions, type SendTally } from './sender.ts';
import { noGate, type YieldGate } from '../../platform/background/yield-gate.ts';

/** Events per planning pass when the worker gives way to requests (a pass renders every message it plans). */
const GATED_PLAN_BATCH = 50;

export interface MessagesWorker {
  /** One planning pass and one sending pass (tests drive the worker with this). */
  tick(): Promise<{ planned: number; sent: SendTally }>;
  /** Ticks until nothing is left to plan or due to send now. */
  drain(maxTicks?: number): Promise<SendTally>;
  start(): void;
  stop(): Promise<void>;
}

export function mailDomain(mailFrom: string): string {
  const m = /@([A-Za-z0-9.-]+)>?\s*$/.exec(mailFrom);
  return m ? m[1] : 'localhost';
}

export function transportsFor(config: MessagesConfig): Partial<Record<MessageChannel, Transport>> {
  const transports: Partial<Record<MessageChannel, Transport>> = {};
  if (config.smtpUrl)
    transports.email = smtpTransport({
      url: config.smtpUrl,
      from: config.mailFrom,
      maxConnections: config.smtpMaxConnections,
    });
  if (config.sms) transports.sms = smsTransport(config.sms);
  return transports;
}

/** Connections of its own beside an API process on a PostgreSQL server (src/server.ts): its database
 * work is short (claims, outcomes) and never held across a send, so a few serve any concurrency. */
export const MESSAGES_WORKER_POOL = 4;

export function createMessagesWorker(deps: {
  db: Database;
  clock: Clock;
  config: MessagesConfig;
  log?: SenderLog;
  transports?: Partial<Record<MessageChannel, Transport>>;
  manageLink?: PlannerOptions['manageLink'];
  publicUrl?: string;
  gate?: YieldGate;
}): MessagesWorker {
  const { db, clock, config, log } = deps;
  // Inside `npm start`: each pass waits for a quiet moment, and a pass breathes between the events it plans.
  const gate = deps.gate ?? noGate;
  const gated = deps.gate ? { batch: GATED_PLAN_BATCH, breathe: gate.breathe } : {};
  const transports = deps.transports ?? transportsFor(config);
  const domain = mailDomain(config.mailFrom);
  const sender: SenderOptions = {
    db,
    clock,
    transports,
    leaseMs: config.leaseMs,
    batch: config.batch,
    concurrency: config.concurrency,
    maxAttempts: config.maxAttempts,
    retryBaseMs: config.retryBaseMs,
    log,
  };
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;
  let stopped = false;

  async function tick() {
    const planned = await planOnce(db, clock, {
      mailDomain: domain,
      manageLink: deps.manageLink,
      publicUrl: deps.publicUrl,
      ...gated,
    });
    const sent = await sendDue(sender);
    return { planned, sent };
  }

  async function loop() {
    if (stopped) return;
    let busy = false;
    try {
      await gate.step();
      const { planned, sent } = await tick();
      busy = planned > 0 || sent.claimed > 0;
    } catch (err: any) {
      log?.warn({ err: { message: err?.message, code: err?.code } }, 'messages worker pass failed');
    }
    // Straight on while there is work; otherwise wait for the next poll.
    if (!stopped)
      timer = setTimeout(
        () => {
          running = loop();
        },
        busy ? 0 : config.pollMs,
      );
  }

  return {
    tick,
    async drain(maxTicks = 100) {
      const total: SendTally = { claimed: 0, sent: 0, mailbox: 0, suppressed: 0, failed: 0, retried: 0 };
      for (let i = 0; i < maxTicks; i++) {
        const { planned, sent } = await tick();
        for (const k of Object.keys(total) as Array<keyof SendTally>) total[k] += sent[k];
        if (planned === 0 && sent.claimed === 0) break;
      }
      return total;
    },
    start() {
      stopped = false;
      timer = setTimeout(() => {
        running = loop();
      }, 0);
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running?.catch(() => {});
      await Promise.all(Object.values(transports).map((t) => t?.close()));
    },
  };
}
