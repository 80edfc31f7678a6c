// Proof 5: fuzzing from the OpenAPI document. For every documented operation, fast-check
// generates requests from its own schemas (valid ones, with real ids so they reach the database)
// and malformed variants (wrong types, missing fields, huge strings, unicode, SQL and JSON
// injection, path traversal, negative and huge numbers, extra fields, wrong content types).
// Every answer must be below 500, must match the document's response schema for its status, and
// a request the document says is invalid must never be accepted (2xx).
import fc from 'fast-check';
import { SEED } from '../env.ts';
import { ADMIN_TOKEN } from '../env.ts';
import { pool } from '../client.ts';
import type { Proof, ProofRun } from '../proof.ts';
import { buildWorld, kindOfField, type StoreRecords } from '../world.ts';
import { urlOf, type Operation } from '../openapi.ts';
import { Contract } from '../response-check.ts';
import {
  MUTATIONS,
  NASTY_STRINGS,
  WRONG_TYPES,
  mutate,
  valueArb,
  type IdsFor,
  type Mutation,
} from '../schema-arbitrary.ts';

const TARGET = Number(process.env.RELIABILITY_FUZZ_REQUESTS ?? 20_000);
/** Fewer requests than this are not a fuzz run: a starved budget fails the proof rather than passing small. */
const MIN_REQUESTS = Math.min(2_000, TARGET);
const BATCH = 40;

interface Planned {
  op: Operation;
  path: Record<string, string>;
  query: string;
  body: string | undefined;
  contentType: string | undefined;
  variant: string;
}

const CONTENT_TYPE_VARIANTS = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'multipart/form-data; boundary=x',
  undefined,
] as const;
const BAD_JSON = ['{"a":', '{', 'nul', "{'a': 1}", '[1,2', '{"a":1}}', '\u0000', 'null', '[]', '"text"', '123', 'true'];

function idsFrom(a: StoreRecords): IdsFor {
  return (field) => {
    const kind = kindOfField(field);
    if (!kind) return [];
    if (kind === 'appointment') return [a.appointment, a.pastAppointment];
    if (kind === 'unit') return [a.unit, a.unit2];
    return [String(a[kind])];
  };
}

function encodeQuery(q: Record<string, unknown>): string {
  return Object.entries(q)
    .filter(([, v]) => v !== undefined)
    .flatMap(([k, v]) => (Array.isArray(v) ? v.map((x) => [k, x]) : [[k, v]]))
    .map(
      ([k, v]) =>
        `${encodeURIComponent(String(k).toWellFormed())}=${encodeURIComponent((typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v)).toWellFormed())}`,
    )
    .join('&');
}

function planner(op: Operation, ids: IdsFor, seed: number) {
  const pathArb = fc.record(
    Object.fromEntries(op.pathParams.map((p) => [p.name, valueArb(p.schema, ids, p.name)])),
  ) as fc.Arbitrary<Record<string, unknown>>;
  const queryArb = fc.record(Object.fromEntries(op.queryParams.map((q) => [q.name, valueArb(q.schema, ids, q.name)])), {
    requiredKeys: op.queryParams.filter((q) => q.required).map((q) => q.name),
  }) as fc.Arbitrary<Record<string, unknown>>;
  const bodyArb = op.body ? valueArb(op.body, ids) : fc.constant(undefined);
  const arb = fc.record({
    path: pathArb,
    query: queryArb,
    body: bodyArb,
    malformed: fc.integer({ min: 0, max: 99 }),
    mutation: fc.constantFrom<Mutation | 'content-type' | 'bad-json' | 'query' | 'path'>(
      ...MUTATIONS,
      'content-type',
      'bad-json',
      'query',
      'path',
    ),
    pick: fc.nat({ max: 10_000 }),
  });
  let round = 0;
  return (n: number): Planned[] =>
    fc.sample(arb, { seed: seed + round++ * 7919, numRuns: n }).map((s) => {
      const path = Object.fromEntries(Object.entries(s.path).map(([k, v]) => [k, String(v).toWellFormed()]));
      const query: Record<string, unknown> = { ...s.query };
      let body = s.body === undefined ? undefined : JSON.stringify(s.body);
      let contentType: string | undefined = body === undefined ? undefined : 'application/json';
      let variant = 'schema-valid';
      // 45% of requests are deliberately malformed in one way.
      if (s.malformed < 45) {
        const m = s.mutation;
        variant = m;
        if (m === 'content-type') {
          body = body ?? '{}';
          contentType = CONTENT_TYPE_VARIANTS[s.pick % CONTENT_TYPE_VARIANTS.length];
        } else if (m === 'bad-json') {
          body = BAD_JSON[s.pick % BAD_JSON.length];
          contentType = 'application/json';
        } else if (m === 'query') {
          const names = op.queryParams.map((q) => q.name);
          const name = names.length ? names[s.pick % names.length] : 'extra';
          const choice = s.pick % 4;
          if (choice === 0) delete query[name];
          else if (choice === 1) query[name] = WRONG_TYPES[s.pick % WRONG_TYPES.length];
          else if (choice === 2) query[name] = NASTY_STRINGS[s.pick % NASTY_STRINGS.length];
          else query[name] = [String(query[name] ?? 'a'), 'b'];
        } else if (m === 'path' && op.pathParams.length) {
          const p = op.pathParams[s.pick % op.pathParams.length];
          path[p.name] = [...NASTY_STRINGS, 'not-a-uuid', '00000000-0000-0000-0000-00000000000g', 'x'.repeat(150)][
            s.pick % (NASTY_STRINGS.length + 3)
          ].toWellFormed();
        } else if (op.body && s.body !== undefined) {
          body = JSON.stringify(mutate(s.body, op.body, m as Mutation, s.pick));
          contentType = 'application/json';
        } else {
          variant = 'extra-query';
          query[`extra_${s.pick % 5}`] = NASTY_STRINGS[s.pick % NASTY_STRINGS.length];
        }
      }
      return { op, path, query: encodeQuery(query), body, contentType, variant };
    });
}

export const fuzz: Proof = {
  name: 'fuzz',
  title: 'requests generated from /openapi.json, valid and malformed; answers validated against it with Ajv',
  budgetMs: 60_000,
  async run(p: ProofRun) {
    const world = await buildWorld(p, 'fuzz');
    try {
      // A live stream never ends by itself; its refusals, isolation and resumption have their own tests
      // (test/events/stream.test.ts) and proof (event-stream).
      const ops = world.ops.filter((o) => o.auth.kind !== 'public' && !o.streaming);
      // A fuzz with nothing to send proves nothing: a document without the API's operations fails it.
      if (!ops.some((o) => o.path.startsWith('/api/v1/')))
        throw new Error('the published document has no /api/v1 operations: nothing to fuzz');
      const contract = new Contract(world.doc);
      const ids = idsFrom(world.a);
      const plans = ops.map((op, i) => planner(op, ids, SEED + i * 104_729));
      const tokenFor = (op: Operation) =>
        op.auth.kind === 'admin' ? ADMIN_TOKEN : op.auth.kind === 'customer' ? world.a.customerToken : world.a.token;

      let sent = 0;
      let fiveXx = 0;
      let mismatches = 0;
      let invalidAccepted = 0;
      let invalidSent = 0;
      const perStatus = new Map<number, number>();
      const variants = new Map<string, number>();
      const started = Date.now();
      let genMs = 0;
      while (sent < TARGET) {
        const elapsed = Date.now() - started;
        if (sent > 0 && p.timeLeft() < 5_000 + (elapsed / sent) * BATCH * ops.length) break;
        const g0 = Date.now();
        const batch = plans.flatMap((plan) => plan(BATCH));
        genMs += Date.now() - g0;
        await pool(batch, 12, async (req) => {
          const url = urlOf(req.op, req.path) + (req.query ? `?${req.query}` : '');
          const headers: Record<string, string> = { authorization: `Bearer ${tokenFor(req.op)}` };
          if (req.contentType) headers['content-type'] = req.contentType;
          const res = await world.app.inject({
            method: req.op.method as any,
            url,
            headers,
            ...(req.body !== undefined ? { payload: req.body } : {}),
          });
          sent++;
          perStatus.set(res.statusCode, (perStatus.get(res.statusCode) ?? 0) + 1);
          variants.set(req.variant, (variants.get(req.variant) ?? 0) + 1);
          const what = `${req.op.method} ${url.slice(0, 160)} [${req.variant}] body=${(req.body ?? '').slice(0, 160)}`;
          if (res.statusCode >= 500) {
            fiveXx++;
            p.fail('5xx from a fuzzed request', `${res.statusCode} ${res.body.slice(0, 200)} <- ${what}`);
          }
          // A route-level 404 (a mangled path no longer matches the route) is checked against the envelope.
          const mismatch =
            res.statusCode === 404 && res.body.includes('ROUTE_NOT_FOUND')
              ? contract.envelope(JSON.parse(res.body))
                ? null
                : 'ROUTE_NOT_FOUND not in the envelope'
              : contract.checkResponse(
                  req.op,
                  res.statusCode,
                  res.headers['content-type'] as string | undefined,
                  res.body,
                );
          if (mismatch) {
            mismatches++;
            p.fail('answer does not match the OpenAPI document', `${mismatch} <- ${what}`);
          }
          const valid = contract.requestValid(req.op, {
            path: req.path,
            query: req.query,
            body: req.body,
            contentType: req.contentType,
          });
          if (!valid) {
            invalidSent++;
            if (res.statusCode < 400) {
              invalidAccepted++;
              p.fail('an input the document says is invalid was accepted', `${res.statusCode} <- ${what}`);
            }
          }
        });
      }
      const defaulted = ops.flatMap((op) => Contract.defaultedRequired(op).map((n) => `${op.method} ${op.path} ?${n}`));
      if (defaulted.length)
        p.note(`documented as required but defaulted when omitted (treated as optional): ${defaulted.join(', ')}`);
      p.figure('operations fuzzed', ops.length);
      p.figure(
        'time generating / total',
        `${(genMs / 1000).toFixed(1)} s / ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
      p.check(sent >= MIN_REQUESTS, 'too few requests sent to prove anything', `${sent} of at least ${MIN_REQUESTS}`);
      p.figure('requests sent', sent);
      p.figure('requests per second (in-process, PostgreSQL)', Math.round(sent / ((Date.now() - started) / 1000)));
      p.figure('invalid by the document (sent / accepted)', `${invalidSent} / ${invalidAccepted}`);
      p.figure('5xx', fiveXx);
      p.figure('responses not matching the document', mismatches);
      p.figure(
        'statuses',
        [...perStatus]
          .sort((x, y) => x[0] - y[0])
          .map(([s, n]) => `${s} x${n}`)
          .join(', '),
      );
      p.figure('variants', [...variants].map(([v, n]) => `${v} x${n}`).join(', '));
      if (sent < TARGET) p.note(`stopped at ${sent} requests to stay inside the time bound (target ${TARGET})`);
    } finally {
      await world.close();
    }
  },
};
