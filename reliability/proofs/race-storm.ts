// Proof 1: no double booking, whatever the concurrency, across server processes.
// Each round fires 50 concurrent writes (creates, reschedules, walk-in seats) at "cliques": sets
// of slots on one unit that all overlap each other. Exactly one write per clique can win, so
// successes per round must equal the number of cliques (the non-overlapping maximum), every
// loser must be a clean 409, and afterwards a SQL self-join must find no two live blocks that
// overlap. Losing moves must leave their appointment exactly where it was.
import { randomUUID } from 'node:crypto';
import { SEED, rng } from '../env.ts';
import { errorCodeOf, http, type HttpResult } from '../client.ts';
import { describe, type Proof, type ProofRun } from '../proof.ts';
import { sharedStack } from '../stack.ts';
import { insertStore, insertUnits, merchantToken } from '../seed.ts';

const CREATE = '/api/v1/bookings/appointments';
const MOVE = '/api/v1/bookings/appointments/reschedule';
const SEAT = '/api/v1/bookings/queue/assign';
const PER_ROUND = 50;
const MAX_ROUNDS = Number(process.env.RELIABILITY_ROUNDS ?? 100);
/** A storm of one round is one race: fewer rounds than this fail the proof instead of passing small. */
const MIN_ROUNDS = Math.min(5, MAX_ROUNDS);
const MIN = 60_000;
const LOSER_CODES = new Set(['SLOT_TAKEN', 'STALE_SLOT', 'UNIT_UNAVAILABLE']);

interface Write {
  kind: 'create' | 'move' | 'seat';
  clique: number;
  server: number;
  path: string;
  body: Record<string, unknown>;
  movable?: { id: string; unit: string; starts: string };
  entryId?: string;
  result?: HttpResult;
}

export const raceStorm: Proof = {
  name: 'race-storm',
  title: 'concurrent creates, moves and walk-in seats on overlapping slots across three processes',
  budgetMs: 100_000,
  usesShared: true,
  async run(p: ProofRun) {
    const stack = await sharedStack(p);
    // All three writes are part of the proof: a missing one fails it (stack.require), never narrows it.
    stack.require('POST', CREATE);
    stack.require('POST', MOVE);
    stack.require('POST', SEAT);
    const db = stack.database.db;
    const random = rng(SEED);

    const store = await insertStore(db, 'Storm Salon');
    const units = await insertUnits(db, store, 4, 'Chair');
    const parking = await insertUnits(db, store, 2, 'Parking');
    const token = await merchantToken(store);
    const seatUnits = await insertUnits(db, store, MAX_ROUNDS, 'Walk-in chair');
    const cliquesPerRound = 8;
    const movesPerRound = 2 * cliquesPerRound;

    // Movable appointments parked far from every clique: one per move the storm will send.
    // Parked in the far future (2031) so the cancellation window never applies.
    const parked = (
      await db.query<{ id: string; unit_id: string; starts_at: string }>(
        `INSERT INTO appointments (store_id, unit_id, starts_at, ends_at, block, status, currency, guest_name, guest_email)
         SELECT $1, u.id, t, t + interval '30 minutes', tstzrange(t, t + interval '30 minutes'), 'confirmed', 'GBP', 'Parked', 'parked@example.com'
           FROM generate_series(0, $3::int - 1) AS g
           CROSS JOIN LATERAL (SELECT ($2::uuid[])[1 + g % 2] AS id) AS u
           CROSS JOIN LATERAL (SELECT timestamptz '2031-01-01T00:00:00Z' + (g / 2) * interval '1 hour' AS t) AS s
         RETURNING id, unit_id, starts_at`,
        [store, parking, movesPerRound * MAX_ROUNDS],
      )
    ).rows;

    const perRound: number[] = [];
    let conflicts = 0;
    let fiveXx = 0;
    let sent = 0;
    const codes = new Map<string, number>();
    const acks: Write[] = [];
    const losers: Write[] = [];
    const started = Date.now();
    let rounds = 0;

    for (let r = 0; r < MAX_ROUNDS; r++) {
      // Keep a margin for the checks afterwards.
      const elapsed = Date.now() - started;
      if (r > 0 && p.timeLeft() < 12_000 + elapsed / r) break;
      const writes: Write[] = [];
      const base = Date.parse('2030-01-01T00:00:00Z') + r * 24 * 60 * MIN;
      const cliques = cliquesPerRound;
      // Each clique: slots on one unit that all contain the instant `centre`, so they pairwise overlap.
      for (let c = 0; c < cliques; c++) {
        const unit = units[c % units.length];
        const centre = base + c * 3 * 60 * MIN;
        const size = 5;
        for (let k = 0; k < size; k++) {
          const starts = new Date(centre - Math.floor(random() * 4) * 15 * MIN).toISOString();
          const ends = new Date(centre + (1 + Math.floor(random() * 4)) * 15 * MIN).toISOString();
          const move = k >= 3 && parked.length > 0;
          if (move) {
            const m = parked.shift()!;
            writes.push({
              kind: 'move',
              clique: c,
              server: 0,
              path: MOVE,
              body: { store_id: store, appointment_id: m.id, unit_id: unit, starts_at: starts, ends_at: ends },
              movable: { id: m.id, unit: m.unit_id, starts: m.starts_at },
            });
          } else {
            writes.push({
              kind: 'create',
              clique: c,
              server: 0,
              path: CREATE,
              body: {
                store_id: store,
                unit_id: unit,
                starts_at: starts,
                ends_at: ends,
                guest_name: `Storm ${r}.${c}.${k}`,
                guest_email: 'storm@example.com',
                client_token: randomUUID(),
              },
            });
          }
        }
      }
      {
        // The walk-in clique: seats start "now" on this round's chair; creates aim at the same half hour.
        const unit = seatUnits[r];
        const clique = cliques;
        const entries = await db.query<{ id: string }>(
          `INSERT INTO queue_entries (store_id, guest_name, party_size, status, joined_at)
           SELECT $1, 'Walk-in ' || g, 1, 'waiting', now() - g * interval '1 second' FROM generate_series(1, 6) AS g RETURNING id`,
          [store],
        );
        for (const e of entries.rows) {
          writes.push({
            kind: 'seat',
            clique,
            server: 0,
            path: SEAT,
            body: { store_id: store, entry_id: e.id, unit_id: unit, duration_min: 30 },
            entryId: e.id,
          });
        }
        const now = Date.now();
        while (writes.length < PER_ROUND) {
          writes.push({
            kind: 'create',
            clique,
            server: 0,
            path: CREATE,
            body: {
              store_id: store,
              unit_id: unit,
              starts_at: new Date(now + 2 * MIN).toISOString(),
              ends_at: new Date(now + (20 + Math.floor(random() * 20)) * MIN).toISOString(),
              guest_email: 'storm@example.com',
              client_token: randomUUID(),
            },
          });
        }
      }
      // Spread over the three processes in a shuffled order, all fired at once.
      for (const w of writes) w.server = Math.floor(random() * stack.servers.length);
      shuffle(writes, random);
      await Promise.all(
        writes.map(async (w) => {
          w.result = await http(stack.servers[w.server].baseUrl, 'POST', w.path, {
            token,
            body: w.body,
            idempotencyKey: randomUUID(),
          });
        }),
      );
      sent += writes.length;
      rounds++;

      const wins = new Map<number, number>();
      for (const w of writes) {
        const res = w.result!;
        const code = errorCodeOf(res);
        const label = res.status === 0 ? `no answer ${res.error}` : `${res.status}${code ? ` ${code}` : ''}`;
        codes.set(label, (codes.get(label) ?? 0) + 1);
        if (res.status >= 200 && res.status < 300) {
          wins.set(w.clique, (wins.get(w.clique) ?? 0) + 1);
          acks.push(w);
        } else if (res.status === 409 && code && LOSER_CODES.has(code)) {
          conflicts++;
          losers.push(w);
        } else {
          if (res.status >= 500) fiveXx++;
          p.fail(
            `unexpected answer to ${w.kind}`,
            `${describe(res)} (round ${r}, ${JSON.stringify(w.body).slice(0, 200)})`,
          );
        }
      }
      const cliqueCount = new Set(writes.map((w) => w.clique)).size;
      let successes = 0;
      for (const n of wins.values()) successes += n;
      perRound.push(successes);
      p.check(
        successes === cliqueCount,
        'successes differ from the non-overlapping maximum',
        `round ${r}: ${successes} successes for ${cliqueCount} cliques`,
      );
      for (const [c, n] of wins) p.check(n === 1, 'a clique had two winners', `round ${r} clique ${c}: ${n}`);
    }

    // Afterwards, from the database: no two live blocks overlap on a unit.
    const overlaps = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM appointments a JOIN appointments b
         ON a.store_id = b.store_id AND a.unit_id = b.unit_id AND a.id < b.id AND a.block && b.block
        WHERE a.status NOT IN ('cancelled', 'no_show') AND b.status NOT IN ('cancelled', 'no_show')
          AND NOT a.is_override AND NOT b.is_override`,
    );
    p.check(
      overlaps.rows[0].n === 0,
      'overlapping live appointments found by the self-join',
      `${overlaps.rows[0].n} pairs`,
    );

    // Every acknowledged write is in the database as answered; every loser left nothing behind.
    const rows = await db.query<{
      id: string;
      unit_id: string;
      starts_at: string;
      ends_at: string;
      source: string;
      client_token: string | null;
    }>('SELECT id, unit_id, starts_at, ends_at, source, client_token FROM appointments WHERE store_id = $1', [store]);
    const byId = new Map(rows.rows.map((a) => [a.id, a]));
    const byToken = new Map(rows.rows.filter((a) => a.client_token).map((a) => [a.client_token!, a]));
    let checkedDb = 0;
    for (const w of acks) {
      checkedDb++;
      const body = w.result!.body;
      if (w.kind === 'create') {
        const a = byId.get(body?.appointment?.id);
        p.check(
          !!a && a.unit_id === w.body.unit_id && a.starts_at === w.body.starts_at,
          'acknowledged create not in the database as answered',
          JSON.stringify(body).slice(0, 200),
        );
      } else if (w.kind === 'move') {
        const a = byId.get(w.movable!.id);
        p.check(
          !!a && a.unit_id === w.body.unit_id && a.starts_at === w.body.starts_at && a.ends_at === w.body.ends_at,
          'acknowledged move not in the database',
          w.movable!.id,
        );
      } else {
        const a = byId.get(body?.appointment_id);
        p.check(
          !!a && a.unit_id === w.body.unit_id && a.source === 'walk_in',
          'acknowledged seat has no walk-in appointment',
          JSON.stringify(body).slice(0, 200),
        );
      }
    }
    const seatLosers = losers.filter((w) => w.kind === 'seat').map((w) => w.entryId!);
    const entries = seatLosers.length
      ? await db.query<{ id: string; status: string; appointment_id: string | null }>(
          'SELECT id, status, appointment_id FROM queue_entries WHERE id = ANY($1::uuid[])',
          [seatLosers],
        )
      : { rows: [] };
    for (const w of losers) {
      checkedDb++;
      if (w.kind === 'create')
        p.check(
          !byToken.has(w.body.client_token as string),
          'a refused create left an appointment',
          String(w.body.client_token),
        );
      if (w.kind === 'move') {
        const a = byId.get(w.movable!.id);
        p.check(
          !!a && a.unit_id === w.movable!.unit && a.starts_at === w.movable!.starts,
          'half-done move: a refused move changed its appointment',
          w.movable!.id,
        );
      }
    }
    for (const e of entries.rows)
      p.check(
        e.status === 'waiting' && e.appointment_id === null,
        'a walk-in that lost its seat did not keep its place',
        `${e.id} is ${e.status}`,
      );

    const min = Math.min(...perRound);
    const max = Math.max(...perRound);
    p.check(rounds >= MIN_ROUNDS, 'too few rounds ran to prove anything', `${rounds} of at least ${MIN_ROUNDS}`);
    p.figure(
      'rounds',
      `${rounds} of ${MAX_ROUNDS} planned, ${PER_ROUND} concurrent writes each over ${stack.servers.length} processes`,
    );
    p.figure('mix', 'creates, reschedules, walk-in seats');
    p.figure('requests sent', sent);
    p.figure(
      'successes per round',
      `${min === max ? min : `${min}..${max}`} (non-overlapping maximum ${cliquesPerRound + 1})`,
    );
    p.figure('conflicts (409)', conflicts);
    p.figure('5xx', fiveXx);
    p.figure('answers', [...codes].map(([k, v]) => `${k} x${v}`).join(', '));
    p.figure('overlaps by SQL self-join', overlaps.rows[0].n);
    p.figure('writes checked against the database', checkedDb);
  },
};

function shuffle<T>(items: T[], random: () => number) {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
}
