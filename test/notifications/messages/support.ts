// Shared by the messages tests: a real SMTP server on a loopback port (smtp-server), a stand-in for
// Twilio's Messages API, a worker over the test app's database and clock, and the bookings calls
// that produce the events messages are planned from. The events are the ones production writes:
// nothing here emits one, so a call that stopped writing its event fails the tests that need it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { call } from '../../support/http.ts';
import { testConfig, type TestApp } from '../../support/app.ts';
import type { EventType } from '../../../src/events/event-types.ts';
import { createMessagesWorker, mailDomain, type MessagesWorker } from '../../../src/notifications/messages/worker.ts';
import { PLANNED_TYPES, planOnce } from '../../../src/notifications/messages/planner.ts';
import type { SendTally } from '../../../src/notifications/messages/sender.ts';

export interface Received {
  mail: ParsedMail;
  raw: string;
  to: string[];
}

export interface SmtpStub {
  url: string;
  port: number;
  received: Received[];
  /** Answer RCPT TO for this address with this SMTP code (e.g. 550) instead of accepting. */
  refuse: Map<string, number>;
  close(): Promise<void>;
}

export async function startSmtp(port = 0): Promise<SmtpStub> {
  const received: Received[] = [];
  const refuse = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // Close ends the senders' idle pooled connections after 1 s instead of waiting up to 30 s for them.
    closeTimeout: 1_000,
    onRcptTo(address, _session, cb) {
      const code = refuse.get(address.address);
      if (code) return cb(Object.assign(new Error(`refused ${code}`), { responseCode: code }));
      cb();
    },
    onData(stream, session, cb) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({ mail: await simpleParser(raw), raw, to: session.envelope.rcptTo.map((r) => r.address) });
        cb();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  // A stub never keeps a test file's process alive: the connections it accepts are referenced while
  // open, but the listener alone is not (a close hook that does not run must not hang the run).
  server.server.unref();
  const actual = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${actual}`,
    port: actual,
    received,
    refuse,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface SmsRequest {
  path: string;
  authorization: string | undefined;
  form: URLSearchParams;
}

/** Twilio's Messages.json as a local server: answers 201 with a sid, or what `answer` says. */
export async function startFakeTwilio(answer?: (form: URLSearchParams) => { status: number; body: unknown } | null) {
  const requests: SmsRequest[] = [];
  let n = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString());
      requests.push({ path: req.url ?? '', authorization: req.headers.authorization, form });
      const custom = answer?.(form);
      const status = custom?.status ?? 201;
      const body = custom?.body ?? { sid: `SM${String(++n).padStart(32, '0')}`, status: 'queued', to: form.get('To') };
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A worker on the test app's database and clock; channels from env (none: the mailbox). Its drain
 * plans every event written so far before it sends anything, as a worker that was running while the
 * events were written would have: on a shared PostgreSQL server the feed shows an event only once
 * every older transaction in the cluster has finished, so a plain pass could send a due message
 * before it has read the event that withdraws it.
 */
export function workerFor(t: TestApp, env: Record<string, string> = {}): MessagesWorker {
  const config = testConfig({ MAIL_FROM: 'Bookings <bookings@shop.test>', MESSAGES_RETRY_BASE_MS: '1000', ...env });
  const worker = createMessagesWorker({
    db: t.db,
    clock: t.clock,
    config: config.messages,
    publicUrl: config.bookingPage.publicUrl,
  });
  const drain = worker.drain.bind(worker);
  const domain = mailDomain(config.messages.mailFrom);
  const behind = async () =>
    (
      await t.db.query(
        `SELECT 1 FROM events e, message_planner_cursor c WHERE (e.txid, e.seq) > (c.txid, c.seq) AND e.type = ANY($1::text[]) LIMIT 1`,
        [PLANNED_TYPES],
      )
    ).rowCount !== 0;
  const caughtUp = async (deadline: number) => {
    for (;;) {
      while ((await planOnce(t.db, t.clock, { mailDomain: domain, publicUrl: config.bookingPage.publicUrl })) > 0);
      if (!(await behind())) return;
      if (Date.now() > deadline) throw new Error('the planner did not catch up with the feed within 60 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  worker.drain = async (maxTicks?: number) => {
    const deadline = Date.now() + 60_000;
    const total: SendTally = { claimed: 0, sent: 0, mailbox: 0, suppressed: 0, failed: 0, retried: 0 };
    for (;;) {
      await caughtUp(deadline);
      const tally = await drain(maxTicks);
      for (const k of Object.keys(total) as Array<keyof SendTally>) total[k] += tally[k];
      if (!(await behind())) return total;
    }
  };
  return worker;
}

export interface Shop {
  store: { id: string; name: string; timezone: string };
  unit: { id: string; display_name: string };
  service: { id: string };
  token: string;
}

export async function shop(
  t: TestApp,
  fields: { name?: string; timezone?: string; lead?: number } = {},
): Promise<Shop> {
  const store = await t.fx.store({ name: fields.name ?? 'Fade & Co', timezone: fields.timezone ?? 'Europe/London' });
  if (fields.lead)
    await t.db.query('UPDATE stores SET reminder_lead_hours = $2 WHERE id = $1', [store.id, fields.lead]);
  const unit = await t.fx.unit(store.id, { display_name: 'Sam' });
  const service = await t.fx.service(store.id, { name: 'Skin fade', duration_min: 45 });
  return { store, unit, service, token: await t.fx.merchantToken(store.id) };
}

let keys = 0;
const key = () => `msg-test-${process.pid}-${++keys}`;

export async function book(
  t: TestApp,
  s: Shop,
  startsAt: string,
  who: { customer_id?: string; guest_email?: string; guest_name?: string; guest_phone?: string },
) {
  const ends = new Date(Date.parse(startsAt) + 45 * 60_000).toISOString();
  const r = await call(t.app, 'POST', '/api/v1/bookings/appointments', {
    token: s.token,
    idempotencyKey: key(),
    body: {
      store_id: s.store.id,
      unit_id: s.unit.id,
      service_id: s.service.id,
      starts_at: startsAt,
      ends_at: ends,
      ...who,
    },
  });
  if (r.status !== 200) throw new Error(`book: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.appointment as Record<string, any>;
}

/** How many events of this type production has written about this appointment. */
async function eventsAbout(t: TestApp, type: EventType, appointmentId: string): Promise<number> {
  const res = await t.db.query(`SELECT count(*)::int AS n FROM events WHERE type = $1 AND data->>'id' = $2`, [
    type,
    appointmentId,
  ]);
  return res.rows[0].n;
}

/** Throws unless the call just wrote its own event: the planner must read the event production writes. */
async function expectEvent(t: TestApp, type: EventType, appointmentId: string, before: number) {
  const n = await eventsAbout(t, type, appointmentId);
  if (n !== before + 1) throw new Error(`the call wrote ${n - before} ${type} events for its appointment (expected 1)`);
}

export async function reschedule(t: TestApp, s: Shop, appointment: Record<string, any>, startsAt: string) {
  const before = await eventsAbout(t, 'appointment.rescheduled', appointment.id);
  const ends = new Date(Date.parse(startsAt) + 45 * 60_000).toISOString();
  const r = await call(t.app, 'POST', '/api/v1/bookings/appointments/reschedule', {
    token: s.token,
    idempotencyKey: key(),
    body: {
      store_id: s.store.id,
      appointment_id: appointment.id,
      unit_id: s.unit.id,
      starts_at: startsAt,
      ends_at: ends,
    },
  });
  if (r.status !== 200) throw new Error(`reschedule: ${r.status} ${JSON.stringify(r.body)}`);
  await expectEvent(t, 'appointment.rescheduled', appointment.id, before);
}

export async function statusCall(t: TestApp, s: Shop, appointmentId: string, path: 'cancel' | 'no-show' | 'complete') {
  const type = (
    { cancel: 'appointment.cancelled', 'no-show': 'appointment.no_show', complete: 'appointment.completed' } as const
  )[path];
  const before = await eventsAbout(t, type, appointmentId);
  const r = await call(t.app, 'POST', `/api/v1/bookings/appointments/${path}`, {
    token: s.token,
    idempotencyKey: key(),
    body: { store_id: s.store.id, appointment_id: appointmentId },
  });
  if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
  await expectEvent(t, type, appointmentId, before);
}

export async function messagesOf(t: TestApp, appointmentOrEntryId: string) {
  const res = await t.db.query(
    `SELECT kind, channel, status, reason, version, to_address, due_at, sent_at, message_id, ics_sequence, attempts, last_error
       FROM messages WHERE subject_id = $1 ORDER BY created_at, due_at, kind, version`,
    [appointmentOrEntryId],
  );
  return res.rows;
}
