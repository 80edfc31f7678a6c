// Proof 7: the rate limit is one budget across processes. Three server processes share Redis
// (REDIS_URL) with a small global limit; one principal hammers them all at once. The requests
// let through must not exceed the budget by more than a small reported overshoot, and every
// refusal must be 429 RATE_LIMITED in the envelope with Retry-After.
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { errorCodeOf, http, isEnvelope, pool } from '../client.ts';
import { describe, type Proof, type ProofRun } from '../proof.ts';
import { startStack } from '../stack.ts';
import { merchantToken } from '../seed.ts';

const BUDGET = 60;
const SENT = BUDGET * 4;
/** Allowed overshoot: the store is an atomic Redis script, so none is expected; a little is tolerated. */
const TOLERANCE = Math.ceil(BUDGET * 0.05);

async function redisAnswers(url: string): Promise<boolean> {
  const client = new Redis(url, {
    connectTimeout: 1_000,
    maxRetriesPerRequest: 0,
    lazyConnect: true,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

export const rateLimits: Proof = {
  name: 'rate-limits',
  title: 'one rate-limit budget shared by three processes through Redis',
  budgetMs: 20_000,
  async run(p: ProofRun) {
    if (!p.redisUrl) p.skip('REDIS_TEST_URL is not set');
    if (!(await redisAnswers(p.redisUrl))) p.skip(`Redis at ${p.redisUrl} does not answer`);
    const stack = await startStack(p, 'rate', {
      servers: 3,
      env: { REDIS_URL: p.redisUrl, RATE_LIMIT_GLOBAL_PER_MIN: String(BUDGET) },
    });
    // Any cheap merchant read will do: the global limit applies to every authenticated route.
    // (Not the operations the spec marks with their own, larger limits.)
    const op = stack.ops.find(
      (o) =>
        o.method === 'GET' &&
        o.auth.kind === 'merchant' &&
        o.pathParams.length === 0 &&
        !/search|preferences/i.test(o.operationId),
    );
    // The proof's subject must exist: a document without one fails it rather than skipping it.
    if (!op) throw new Error('the published document has no merchant GET operation to limit');
    // A principal no earlier run has used, so the budget starts full.
    const store = randomUUID();
    const token = await merchantToken(store, { userId: `rate-${randomUUID()}` });
    const url = `${op.path}?store_id=${store}`;
    const answers: Array<{
      status: number;
      body: any;
      retryAfter: string | null;
      limit: string | null;
      error: string | null;
    }> = [];
    await pool(
      Array.from({ length: SENT }, (_, i) => i),
      24,
      async (i) => {
        const r = await http(stack.servers[i % stack.servers.length].baseUrl, 'GET', url, { token });
        answers.push({
          status: r.status,
          body: r.body,
          retryAfter: r.headers?.get('retry-after') ?? null,
          limit: r.headers?.get('x-ratelimit-limit') ?? null,
          error: r.error,
        });
      },
    );
    const limited = answers.filter((a) => a.status === 429);
    const through = answers.filter((a) => a.status !== 429 && a.status !== 0);
    const overshoot = through.length - BUDGET;
    const advertised = new Set(answers.map((a) => a.limit).filter(Boolean));
    p.check(
      advertised.size === 1 && advertised.has(String(BUDGET)),
      'x-ratelimit-limit does not advertise the configured budget',
      [...advertised].join(','),
    );
    for (const a of answers) {
      if (a.status === 0 || a.status >= 500)
        p.fail('a hammered request failed', describe({ status: a.status, body: a.body, error: a.error }));
    }
    for (const a of limited) {
      p.check(
        isEnvelope(a.body) && errorCodeOf(a) === 'RATE_LIMITED',
        '429 not in the envelope with RATE_LIMITED',
        JSON.stringify(a.body),
      );
      p.check(a.retryAfter !== null, '429 without Retry-After');
    }
    p.check(
      overshoot <= TOLERANCE,
      'the shared budget was exceeded',
      `${through.length} let through for a budget of ${BUDGET}`,
    );
    p.check(
      through.length >= BUDGET - TOLERANCE,
      'the budget refused requests it should have served',
      `${through.length} of ${BUDGET}`,
    );
    p.figure('processes sharing Redis', stack.servers.length);
    p.figure('budget (requests per minute per principal)', BUDGET);
    p.figure('requests sent at once', SENT);
    p.figure('let through / refused 429', `${through.length} / ${limited.length}`);
    p.figure('overshoot', `${overshoot} (tolerated ${TOLERANCE})`);
    p.figure('route', `${op.method} ${op.path}`);

    // Control: the same hammer on three processes WITHOUT Redis, each counting in its own memory.
    // It shows the measurement can see an overshoot (it is reported, not a guarantee).
    if (p.timeLeft() > 25_000) {
      for (const s of stack.servers) await s.kill();
      const control = await startStack(p, 'ratectl', {
        servers: 3,
        env: { RATE_LIMIT_GLOBAL_PER_MIN: String(BUDGET) },
      });
      const token2 = await merchantToken(store, { userId: `rate-${randomUUID()}` });
      let let2 = 0;
      await pool(
        Array.from({ length: SENT }, (_, i) => i),
        24,
        async (i) => {
          const r = await http(control.servers[i % control.servers.length].baseUrl, 'GET', url, { token: token2 });
          if (r.status !== 429 && r.status !== 0) let2++;
        },
      );
      p.figure(
        'control without Redis (per-process budgets): let through',
        `${let2} for a budget of ${BUDGET} (overshoot ${let2 - BUDGET})`,
      );
    }
  },
};
