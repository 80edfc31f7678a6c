// Proof: a class never holds more than its capacity and a freed seat goes to exactly one person, in
// line, across server processes (issue 44). Each round schedules an occurrence (capacity 8, the
// waitlist mode alternating auto and offer), fires 30 bookings at once over the three processes, then
// a mixed burst: cancellations of random bookings, new bookings and acceptances of random ones. After
// the rounds, SQL over the database: no occurrence with more confirmed, attended and offered than its
// capacity, nobody promoted twice, waitlist positions 1..n with no gap or repeat, and no free seat
// left while someone waits.
import { randomUUID } from 'node:crypto';
import { SEED, rng } from '../env.ts';
import { errorCodeOf, http, type HttpResult } from '../client.ts';
import { describe, type Proof, type ProofRun } from '../proof.ts';
import { sharedStack } from '../stack.ts';
import { insertStore, merchantToken } from '../seed.ts';

const CLASSES = '/api/v1/classes';
const CAPACITY = 8;
const FIRST_BURST = 30;
const MAX_ROUNDS = Number(process.env.RELIABILITY_ROUNDS ?? 100);
/** Refusals a mixed burst may meet: acceptance of a booking with no offer, or a cancelled one's check. */
const EXPECTED_REFUSALS = new Set(['NO_OFFER', 'OFFER_EXPIRED', 'INVALID_TRANSITION']);

export const classStorm: Proof = {
  name: 'class-storm',
  title: 'class bookings, cancellations and acceptances at once across three processes: capacity and promotions',
  budgetMs: 40_000,
  usesShared: true,
  async run(p: ProofRun) {
    const stack = await sharedStack(p);
    stack.require('POST', `${CLASSES}/occurrences/{occurrenceId}/bookings`);
    stack.require('POST', `${CLASSES}/bookings/{bookingId}/cancel`);
    const db = stack.database.db;
    const random = rng(SEED);
    const store = await insertStore(db, 'Storm Studio');
    const token = await merchantToken(store);
    const server = () => stack.servers[Math.floor(random() * stack.servers.length)].baseUrl;
    const send = (method: string, path: string, body: unknown) =>
      http(server(), method, path, { token, body, idempotencyKey: randomUUID() });

    const codes = new Map<string, number>();
    let sent = 0;
    let fiveXx = 0;
    const tally = (r: HttpResult, what: string, allowed: Set<string>) => {
      sent++;
      const code = errorCodeOf(r);
      const label = r.status === 0 ? `no answer ${r.error}` : `${r.status}${code ? ` ${code}` : ''}`;
      codes.set(label, (codes.get(label) ?? 0) + 1);
      if (r.status === 200 || (r.status === 409 && code && allowed.has(code))) return;
      if (r.status >= 500) fiveXx++;
      p.fail(`unexpected answer to ${what}`, describe(r));
    };

    const started = Date.now();
    let rounds = 0;
    for (let r = 0; r < MAX_ROUNDS; r++) {
      const elapsed = Date.now() - started;
      if (r > 0 && p.timeLeft() < 8_000 + elapsed / r) break;
      const mode = r % 2 ? 'offer' : 'auto';
      const made = await send('POST', CLASSES, {
        name: `Storm ${r}`,
        duration_min: 45,
        capacity: CAPACITY,
        waitlist_mode: mode,
        offer_minutes: 30,
      });
      if (!p.check(made.status === 200, 'a class was not created', describe(made))) break;
      const startsAt = new Date(Date.parse('2031-01-01T10:00:00Z') + r * 3_600_000).toISOString();
      const scheduled = await send('POST', `${CLASSES}/${made.body.class.id}/occurrences`, { starts_at: startsAt });
      if (!p.check(scheduled.status === 200, 'an occurrence was not scheduled', describe(scheduled))) break;
      const occurrence = scheduled.body.occurrence.id;
      const book = (i: string) =>
        send('POST', `${CLASSES}/occurrences/${occurrence}/bookings`, {
          guest_name: `Storm ${i}`,
          guest_email: `storm-${i}@example.com`,
          source: 'app',
        });

      const first = await Promise.all(Array.from({ length: FIRST_BURST }, (_, i) => book(`${r}-${i}`)));
      for (const res of first) tally(res, 'a booking', new Set());
      const ids = first.filter((res) => res.status === 200).map((res) => res.body.booking.id as string);
      const confirmed = first.filter((res) => res.body?.booking?.status === 'confirmed').length;
      p.check(
        confirmed === CAPACITY,
        'the first burst did not fill exactly the capacity',
        `round ${r}: ${confirmed} confirmed of ${CAPACITY}`,
      );

      const pick = () => ids[Math.floor(random() * ids.length)];
      const mixed: Array<Promise<[HttpResult, string, Set<string>]>> = [];
      for (let i = 0; i < 10; i++)
        mixed.push(
          send('POST', `${CLASSES}/bookings/${pick()}/cancel`, {}).then((res) => [
            res,
            'a cancellation',
            EXPECTED_REFUSALS,
          ]),
        );
      for (let i = 0; i < 10; i++) mixed.push(book(`${r}-late-${i}`).then((res) => [res, 'a late booking', new Set()]));
      for (let i = 0; i < 5; i++)
        mixed.push(
          send('POST', `${CLASSES}/bookings/${pick()}/accept`, {}).then((res) => [
            res,
            'an acceptance',
            EXPECTED_REFUSALS,
          ]),
        );
      for (const [res, what, allowed] of await Promise.all(mixed)) tally(res, what, allowed);
      rounds++;
    }

    // Afterwards, from the database.
    const over = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM class_occurrences o JOIN classes c ON c.id = o.class_id
        WHERE o.store_id = $1 AND (SELECT count(*) FROM class_bookings b WHERE b.occurrence_id = o.id
                                     AND b.status IN ('confirmed', 'attended', 'promotion_pending')) > coalesce(o.capacity, c.capacity)`,
      [store],
    );
    const twice = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT data->>'id' FROM events WHERE store_id = $1 AND type = 'class.booking.promoted'
        GROUP BY 1 HAVING count(*) > 1) x`,
      [store],
    );
    const gaps = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM (SELECT occurrence_id FROM class_bookings WHERE store_id = $1 AND waitlist_position IS NOT NULL
        GROUP BY 1 HAVING count(*) <> count(DISTINCT waitlist_position) OR count(*) <> max(waitlist_position)) x`,
      [store],
    );
    const idle = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM class_occurrences o JOIN classes c ON c.id = o.class_id
        CROSS JOIN LATERAL bbo_class_counts(o.id) k
        WHERE o.store_id = $1 AND k.waitlisted > 0 AND k.booked + k.offered < coalesce(o.capacity, c.capacity)`,
      [store],
    );
    const promoted = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM class_bookings WHERE store_id = $1 AND promoted_at IS NOT NULL`,
      [store],
    );
    p.check(over.rows[0].n === 0, 'an occurrence holds more than its capacity', `${over.rows[0].n} occurrences`);
    p.check(twice.rows[0].n === 0, 'a person was promoted twice', `${twice.rows[0].n} bookings`);
    p.check(gaps.rows[0].n === 0, 'waitlist positions with a gap or a repeat', `${gaps.rows[0].n} occurrences`);
    p.check(idle.rows[0].n === 0, 'a free seat left while someone waits', `${idle.rows[0].n} occurrences`);
    p.check(fiveXx === 0, '5xx answers', String(fiveXx));

    p.figure(
      'rounds',
      `${rounds} of ${MAX_ROUNDS} planned over ${stack.servers.length} processes: ${FIRST_BURST} bookings at once, then 10 cancellations, 10 bookings and 5 acceptances at once`,
    );
    p.figure('requests sent', sent);
    p.figure('answers', [...codes].map(([k, v]) => `${k} x${v}`).join(', '));
    p.figure('people promoted', promoted.rows[0].n);
    p.figure('over capacity by SQL', over.rows[0].n);
    p.figure('double promotions by SQL', twice.rows[0].n);
    p.figure('waitlists with a gap or repeat by SQL', gaps.rows[0].n);
    p.figure('free seats left with a waitlist by SQL', idle.rows[0].n);
  },
};
