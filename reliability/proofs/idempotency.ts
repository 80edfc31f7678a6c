// Proof 2: retries never double an effect. The same Idempotency-Key (and the same client_token)
// sent 20 times at once over three processes has one effect and identical answers; the same key
// with another body is refused 422; a duplicate that arrives while the first is still running is
// refused 409 (made deterministic by holding the unit's row lock so the first request waits
// inside its transaction); two stores using the same key stay independent.
import { randomUUID } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import pg from 'pg';
import { sleep } from '../env.ts';
import { errorCodeOf, http, type HttpResult } from '../client.ts';
import { describe, type Proof, type ProofRun } from '../proof.ts';
import { sharedStack, type Stack } from '../stack.ts';
import { insertAppointment, insertStore, insertUnits, merchantToken } from '../seed.ts';

const CREATE = '/api/v1/bookings/appointments';
const CANCEL = '/api/v1/bookings/appointments/cancel';
const SETTLE = '/api/v1/bookings/appointments/settle';
const TIMES = 20;

/** Sends the same request TIMES times at once over every process; 409 IN_PROGRESS answers are retried until they settle. */
async function storm(
  stack: Stack,
  path: string,
  token: string,
  body: unknown,
  key: string | (() => string),
): Promise<{ first: HttpResult[]; final: HttpResult[]; inProgress: number }> {
  const keyFor = () => (typeof key === 'string' ? key : key());
  const first = await Promise.all(
    Array.from({ length: TIMES }, (_, i) =>
      http(stack.servers[i % stack.servers.length].baseUrl, 'POST', path, { token, body, idempotencyKey: keyFor() }),
    ),
  );
  let inProgress = 0;
  const final: HttpResult[] = [];
  for (let i = 0; i < first.length; i++) {
    let r = first[i];
    for (let attempt = 0; r.status === 409 && errorCodeOf(r) === 'IDEMPOTENCY_IN_PROGRESS' && attempt < 50; attempt++) {
      inProgress++;
      await sleep(50);
      r = await http(stack.servers[(i + attempt + 1) % stack.servers.length].baseUrl, 'POST', path, {
        token,
        body,
        idempotencyKey: typeof key === 'string' ? key : keyFor(),
      });
    }
    final.push(r);
  }
  return { first, final, inProgress };
}

const countAudit = async (stack: Stack, action: string, entityId: string) =>
  (
    await stack.database.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM audit_log WHERE action = $1 AND entity_id = $2',
      [action, entityId],
    )
  ).rows[0].n;

export const idempotency: Proof = {
  name: 'idempotency',
  title: 'retries under concurrency across processes: one effect, identical replays',
  budgetMs: 25_000,
  usesShared: true,
  async run(p: ProofRun) {
    const stack = await sharedStack(p);
    // Create, cancel and settle are each part of the proof: a missing one fails it.
    stack.require('POST', CREATE);
    stack.require('POST', CANCEL);
    stack.require('POST', SETTLE);
    const db = stack.database.db;
    const storeA = await insertStore(db, 'Idempotent A');
    const storeB = await insertStore(db, 'Idempotent B');
    const [unitA, unitA2] = await insertUnits(db, storeA, 2);
    const [unitB] = await insertUnits(db, storeB, 1);
    const tokenA = await merchantToken(storeA);
    const tokenB = await merchantToken(storeB);
    let requests = 0;
    const base = Date.parse('2030-03-01T09:00:00Z');
    const slot = (h: number) => ({
      starts_at: new Date(base + h * 3600_000).toISOString(),
      ends_at: new Date(base + h * 3600_000 + 1800_000).toISOString(),
    });

    // 1. Same key, same body (with a client_token): 20 at once over three processes.
    const key = `idem-${randomUUID()}`;
    const token1 = randomUUID();
    const body1 = {
      store_id: storeA,
      unit_id: unitA,
      ...slot(0),
      guest_email: 'idem@example.com',
      client_token: token1,
    };
    const s1 = await storm(stack, CREATE, tokenA, body1, key);
    requests += TIMES + s1.inProgress;
    const ok1 = s1.final.filter((r) => r.status === 200);
    p.check(
      ok1.length === TIMES,
      'a retry with the same key did not succeed',
      s1.final
        .filter((r) => r.status !== 200)
        .map(describe)
        .join(' | '),
    );
    p.check(
      ok1.every((r) => isDeepStrictEqual(r.body, ok1[0].body)),
      'replays differ from the original answer',
    );
    const replayed1 = ok1.filter((r) => r.headers?.get('idempotent-replayed') === 'true').length;
    p.check(replayed1 === TIMES - 1, 'replays not marked idempotent-replayed', `${replayed1} of ${TIMES - 1}`);
    const rows1 = await db.query('SELECT id FROM appointments WHERE store_id = $1 AND client_token = $2', [
      storeA,
      token1,
    ]);
    p.check(rows1.rowCount === 1, 'same key booked more than once', `${rows1.rowCount} appointments`);
    const id1 = ok1[0]?.body?.appointment?.id;
    if (id1)
      p.check((await countAudit(stack, 'appointment.created', id1)) === 1, 'more than one audited effect for one key');
    const recs = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM idempotency_records WHERE key = $1', [
      key,
    ]);
    p.check(recs.rows[0].n === 1, 'idempotency records for one key', String(recs.rows[0].n));

    // 2. Same client_token, a different Idempotency-Key each time: one appointment, reused on all but one.
    const token2 = randomUUID();
    const body2 = {
      store_id: storeA,
      unit_id: unitA,
      ...slot(2),
      guest_email: 'idem@example.com',
      client_token: token2,
    };
    const s2 = await storm(stack, CREATE, tokenA, body2, () => randomUUID());
    requests += TIMES + s2.inProgress;
    const ok2 = s2.final.filter((r) => r.status === 200);
    p.check(
      ok2.length === TIMES,
      'a same-token retry failed',
      s2.final
        .filter((r) => r.status !== 200)
        .map(describe)
        .join(' | '),
    );
    const ids2 = new Set(ok2.map((r) => r.body?.appointment?.id));
    p.check(ids2.size === 1, 'same client_token gave different appointments', [...ids2].join(', '));
    p.check(
      ok2.filter((r) => r.body?.reused === false).length === 1,
      'not exactly one first booking (reused=false)',
      String(ok2.filter((r) => r.body?.reused === false).length),
    );
    const rows2 = await db.query('SELECT id FROM appointments WHERE store_id = $1 AND client_token = $2', [
      storeA,
      token2,
    ]);
    p.check(rows2.rowCount === 1, 'same client_token booked more than once', `${rows2.rowCount} appointments`);

    // 3. Same key, another body: 422, and nothing booked.
    const other = await http(stack.servers[1].baseUrl, 'POST', CREATE, {
      token: tokenA,
      body: { ...body1, ...slot(4) },
      idempotencyKey: key,
    });
    requests++;
    p.check(
      other.status === 422 && errorCodeOf(other) === 'IDEMPOTENCY_KEY_REUSED',
      'same key with another body not refused 422',
      describe(other),
    );
    const at4 = await db.query('SELECT 1 FROM appointments WHERE store_id = $1 AND starts_at = $2', [
      storeA,
      slot(4).starts_at,
    ]);
    p.check(at4.rowCount === 0, 'a refused key reuse booked anyway');

    // 4. In-flight duplicate: hold the unit's row lock so the first request waits inside its transaction.
    const key4 = `inflight-${randomUUID()}`;
    const body4 = {
      store_id: storeA,
      unit_id: unitA2,
      ...slot(6),
      guest_email: 'idem@example.com',
      client_token: randomUUID(),
    };
    const holder = new pg.Client({ connectionString: stack.database.url });
    await holder.connect();
    let inflight: HttpResult | null = null;
    let firstOfTwo: HttpResult | null = null;
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT id FROM units WHERE id = $1 FOR UPDATE', [unitA2]);
      const pending = http(stack.servers[0].baseUrl, 'POST', CREATE, {
        token: tokenA,
        body: body4,
        idempotencyKey: key4,
      });
      // Wait until the first request holds its key lock and waits on the unit row.
      let waiting = false;
      for (let i = 0; i < 100 && !waiting; i++) {
        await sleep(50);
        const w = await holder.query(
          `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND l.granted AND a.datname = current_database()`,
        );
        waiting = w.rows[0].n > 0;
      }
      p.check(waiting, 'the first request never took its idempotency lock');
      inflight = await http(stack.servers[1].baseUrl, 'POST', CREATE, {
        token: tokenA,
        body: body4,
        idempotencyKey: key4,
      });
      await holder.query('ROLLBACK');
      firstOfTwo = await pending;
    } finally {
      await holder.end().catch(() => {});
    }
    requests += 2;
    p.check(
      inflight!.status === 409 && errorCodeOf(inflight!) === 'IDEMPOTENCY_IN_PROGRESS',
      'in-flight duplicate not refused 409',
      describe(inflight!),
    );
    p.check(inflight!.headers?.get('retry-after') != null, 'in-flight 409 without Retry-After');
    p.check(firstOfTwo!.status === 200, 'the first of two in-flight requests failed', describe(firstOfTwo!));
    const retry4 = await http(stack.servers[2].baseUrl, 'POST', CREATE, {
      token: tokenA,
      body: body4,
      idempotencyKey: key4,
    });
    requests++;
    p.check(
      retry4.status === 200 && isDeepStrictEqual(retry4.body, firstOfTwo!.body),
      'retry after in-flight 409 did not replay the original',
      describe(retry4),
    );

    // 5. Two stores, the same key and the same client_token: independent.
    const key5 = `shared-${randomUUID()}`;
    const token5 = `shared-${randomUUID()}`;
    const [a5, b5] = await Promise.all([
      http(stack.servers[0].baseUrl, 'POST', CREATE, {
        token: tokenA,
        body: { store_id: storeA, unit_id: unitA, ...slot(8), guest_email: 'a@example.com', client_token: token5 },
        idempotencyKey: key5,
      }),
      http(stack.servers[1].baseUrl, 'POST', CREATE, {
        token: tokenB,
        body: { store_id: storeB, unit_id: unitB, ...slot(8), guest_email: 'b@example.com', client_token: token5 },
        idempotencyKey: key5,
      }),
    ]);
    requests += 2;
    p.check(
      a5.status === 200 && b5.status === 200,
      'same key in two stores refused',
      `${describe(a5)} | ${describe(b5)}`,
    );
    p.check(a5.body?.appointment?.id !== b5.body?.appointment?.id, 'two stores got the same appointment');
    p.check(
      a5.body?.appointment?.store_id === storeA && b5.body?.appointment?.store_id === storeB,
      'an answer crossed stores',
    );
    const b5again = await http(stack.servers[2].baseUrl, 'POST', CREATE, {
      token: tokenB,
      body: { store_id: storeB, unit_id: unitB, ...slot(8), guest_email: 'b@example.com', client_token: token5 },
      idempotencyKey: key5,
    });
    requests++;
    p.check(isDeepStrictEqual(b5again.body, b5.body), "store B's replay is not its own answer", describe(b5again));

    // 6. Cancel and settle retried 20 times at once with one key: one state change, one money record.
    let effects = 2;
    {
      const appt = await insertAppointment(db, {
        storeId: storeA,
        unitId: unitA,
        startsAt: new Date(base + 10 * 3600_000),
        minutes: 30,
      });
      const s6 = await storm(
        stack,
        CANCEL,
        tokenA,
        { store_id: storeA, appointment_id: appt },
        `cancel-${randomUUID()}`,
      );
      requests += TIMES + s6.inProgress;
      p.check(
        s6.final.every((r) => r.status === 200 && isDeepStrictEqual(r.body, s6.final[0].body)),
        'cancel retries answered differently',
        s6.final.map(describe).slice(0, 3).join(' | '),
      );
      p.check(
        s6.final[0]?.body?.noop === false,
        'the cancel replay is not the original (noop should be false)',
        describe(s6.final[0]),
      );
      p.check((await countAudit(stack, 'appointment.cancelled', appt)) === 1, 'cancel audited more than once');
      effects++;
    }
    {
      const appt = await insertAppointment(db, {
        storeId: storeA,
        unitId: unitA,
        startsAt: new Date(base + 12 * 3600_000),
        minutes: 30,
        pricePence: 4500,
      });
      const s7 = await storm(
        stack,
        SETTLE,
        tokenA,
        { store_id: storeA, appointment_id: appt, method: 'cash' },
        `settle-${randomUUID()}`,
      );
      requests += TIMES + s7.inProgress;
      p.check(
        s7.final.every((r) => r.status === 200 && isDeepStrictEqual(r.body, s7.final[0].body)),
        'settle retries answered differently',
        s7.final.map(describe).slice(0, 3).join(' | '),
      );
      p.check(
        s7.final[0]?.body?.outcome === 'settled' && s7.final[0]?.body?.collected_pence === 4500,
        'the settle replay is not the original settlement',
        describe(s7.final[0]),
      );
      // And colleagues racing with their own keys: still one record of the money.
      const appt2 = await insertAppointment(db, {
        storeId: storeA,
        unitId: unitA,
        startsAt: new Date(base + 14 * 3600_000),
        minutes: 30,
        pricePence: 2500,
      });
      const s8 = await storm(
        stack,
        SETTLE,
        tokenA,
        { store_id: storeA, appointment_id: appt2, method: 'card_machine' },
        () => randomUUID(),
      );
      requests += TIMES + s8.inProgress;
      const outcomes = s8.final.map((r) => r.body?.outcome);
      p.check(
        outcomes.filter((o) => o === 'settled').length === 1,
        'racing settles did not record exactly once',
        outcomes.join(','),
      );
      p.check(
        outcomes.every((o) => o === 'settled' || o === 'already_settled'),
        'a racing settle answered other than settled/already_settled',
        outcomes.join(','),
      );
      const money = await db.query<{ appointment_id: string; n: number; total: number }>(
        'SELECT appointment_id, count(*)::int AS n, sum(amount_pence)::int AS total FROM settlements WHERE appointment_id = ANY($1::uuid[]) GROUP BY appointment_id',
        [[appt, appt2]],
      );
      const m = new Map(money.rows.map((r) => [r.appointment_id, r]));
      p.check(
        m.get(appt)?.n === 1 && m.get(appt)?.total === 4500,
        'settle retried with one key recorded money other than once',
        JSON.stringify(m.get(appt)),
      );
      p.check(
        m.get(appt2)?.n === 1 && m.get(appt2)?.total === 2500,
        'racing settles recorded money other than once',
        JSON.stringify(m.get(appt2)),
      );
      effects += 2;
    }

    p.figure('requests sent', requests);
    p.figure('parallel retries per key', `${TIMES} over ${stack.servers.length} processes`);
    p.figure('in-flight 409 answers seen in the storms (then retried)', s1.inProgress + s2.inProgress);
    p.figure('effects checked (one each)', effects);
  },
};
