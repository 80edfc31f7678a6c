// Proof: the live event stream loses nothing and repeats nothing across disconnects. Two server
// processes take a write storm (bookings and cancellations from several clients, spread over both).
// A stream client reads GET /api/v1/events/stream, is cut off several times in the middle of the
// storm and resumes with Last-Event-ID, alternating between the two processes (so it also proves
// that one process streams what another committed). At the end the client has received every
// committed event of the store exactly once, in feed order.
import { randomUUID } from 'node:crypto';
import { SEED, rng, sleep } from '../env.ts';
import { http } from '../client.ts';
import { describe, type Proof, type ProofRun } from '../proof.ts';
import { startStack } from '../stack.ts';
import { insertStore, insertUnits, merchantToken } from '../seed.ts';
import { connectSse, type SseClient, type SseMessage } from '../sse-client.ts';

const STREAM = '/api/v1/events/stream';
const CREATE = '/api/v1/bookings/appointments';
const CANCEL = '/api/v1/bookings/appointments/cancel';
const WRITERS = 8;

export const eventStream: Proof = {
  name: 'event-stream',
  title: 'SSE: disconnect mid-storm, resume with Last-Event-ID on another process: nothing missed or repeated',
  budgetMs: 30_000,
  async run(p: ProofRun) {
    const stack = await startStack(p, 'events', {
      servers: 2,
      env: { RATE_LIMIT_GLOBAL_PER_MIN: '10000000', EVENTS_STREAM_POLL_MS: '100' },
    });
    stack.require('GET', STREAM);
    const db = stack.database.db;
    const random = rng(SEED + 14);
    const store = await insertStore(db, 'Stream Salon');
    const units = await insertUnits(db, store, WRITERS);
    const token = await merchantToken(store);

    // The stream first, from the beginning of history (no event exists yet: cursor 0.0).
    const received: SseMessage[] = [];
    const connect = async (server: number, lastEventId: string | null): Promise<SseClient> => {
      const headers: Record<string, string> = { authorization: `Bearer ${token}` };
      if (lastEventId) headers['last-event-id'] = lastEventId;
      const client = await connectSse(stack.servers[server].baseUrl, `${STREAM}?store_id=${store}`, headers);
      if (client.status !== 200) throw new Error(`the stream answered ${client.status}: ${await client.body()}`);
      return client;
    };
    let stream = await connect(0, '0.0');
    let taken = 0; // messages of the current connection already copied into received
    const collect = () => {
      received.push(...stream.messages.slice(taken));
      taken = stream.messages.length;
    };

    // The storm: each writer books on its own unit and cancels every third booking, alternating servers.
    const stormMs = Math.min(12_000, Math.max(4_000, p.timeLeft() / 3));
    const stopAt = Date.now() + stormMs;
    let writes = 0;
    let refused = 0;
    const writers = Array.from({ length: WRITERS }, async (_, w) => {
      for (let i = 0; Date.now() < stopAt; i++) {
        const base = stack.servers[(w + i) % stack.servers.length].baseUrl;
        const start = Date.parse('2031-01-01T00:00:00Z') + i * 3600_000;
        const r = await http(base, 'POST', CREATE, {
          token,
          body: {
            store_id: store,
            unit_id: units[w],
            starts_at: new Date(start).toISOString(),
            ends_at: new Date(start + 1800_000).toISOString(),
            guest_email: 'sse@example.com',
            client_token: randomUUID(),
          },
        });
        if (r.status !== 200) {
          refused++;
          p.fail('a write in the storm was refused', describe(r));
          continue;
        }
        writes++;
        if (i % 3 === 0) {
          const c = await http(base, 'POST', CANCEL, {
            token,
            body: { store_id: store, appointment_id: r.body.appointment.id },
          });
          if (c.status === 200) writes++;
          else p.fail('a cancel in the storm was refused', describe(c));
        }
      }
    });

    // Cut the stream off at random points in the storm and resume on the other process.
    let reconnects = 0;
    let server = 0;
    const cutter = (async () => {
      while (Date.now() < stopAt - 500) {
        await sleep(400 + Math.floor(random() * 900));
        collect();
        stream.close();
        const last = received.at(-1)?.id ?? '0.0';
        server = 1 - server;
        stream = await connect(server, last);
        taken = 0;
        reconnects++;
      }
    })();
    await Promise.all(writers);
    await cutter;

    // Wait for the stream to deliver everything committed (the feed's count is the truth).
    const committed = async () =>
      (
        await db.query<{ id: string }>('SELECT id FROM events WHERE store_id = $1 ORDER BY txid, seq', [store])
      ).rows.map((r) => r.id);
    let truth = await committed();
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      collect();
      if (received.length >= truth.length) {
        await sleep(300); // anything extra (a repeat) would arrive now
        collect();
        truth = await committed();
        if (received.length >= truth.length) break;
      }
      await sleep(50);
    }
    collect();
    stream.close();

    const ids = received.map((m) => m.data?.id as string);
    const unique = new Set(ids);
    p.check(unique.size === ids.length, 'an event was streamed twice', `${ids.length - unique.size} repeats`);
    const missing = truth.filter((id) => !unique.has(id));
    p.check(missing.length === 0, 'an event was never streamed', `${missing.length} of ${truth.length} missing`);
    const inOrder = ids.length === truth.length && ids.every((id, i) => id === truth[i]);
    p.check(inOrder || missing.length > 0 || unique.size !== ids.length, 'the stream order is not the feed order');
    p.check(
      received.every((m) => m.id === m.data?.cursor && m.event === m.data?.type),
      'a message whose id or event does not match its data',
    );
    p.check(writes > 0 && refused === 0, 'the storm did not write', `${writes} writes, ${refused} refused`);

    p.figure('events committed in the storm', truth.length);
    p.figure('events streamed', ids.length);
    p.figure('disconnects resumed with Last-Event-ID (alternating processes)', reconnects);
    p.figure(
      'storm length',
      `${(stormMs / 1000).toFixed(1)} s, ${WRITERS} writers over ${stack.servers.length} processes`,
    );
  },
};
