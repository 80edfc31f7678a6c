// Proof 6: tenant isolation and the auth matrix. Every documented operation is called with every
// kind of wrong credential (none, bad signature, expired, the other kind of token, missing scope,
// missing entitlement, missing permission) and must refuse with the documented status and code;
// the operator surface must refuse every non-admin token. With a valid merchant token of store A,
// each id-carrying field is set to store B's record and to an id that does not exist: the two
// answers must be indistinguishable (same status and code). No answer to store A may contain any
// of store B's ids or its private note, and nothing of store B may change.
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { ADMIN_TOKEN, SEED } from '../env.ts';
import type { Proof, ProofRun } from '../proof.ts';
import { buildWorld, kindOfField, type StoreRecords, type World } from '../world.ts';
import { urlOf, type Operation } from '../openapi.ts';
import { Contract } from '../response-check.ts';
import { valueArb } from '../schema-arbitrary.ts';
import { customerToken, merchantToken } from '../seed.ts';

interface Req {
  path: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown> | undefined;
}

interface Answer {
  status: number;
  code: string | null;
  text: string;
}

const STORE_TABLES = [
  'units',
  'services',
  'service_periods',
  'appointments',
  'settlements',
  'queue_entries',
  'time_off',
  'holds',
  'store_customers',
  'class_bookings',
  'notification_preferences',
];

/** A fingerprint of everything store B owns, to show that nothing done as store A changed it. */
async function fingerprint(world: World, b: StoreRecords): Promise<string> {
  const parts: string[] = [];
  for (const table of STORE_TABLES) {
    const res = await world.database.db.query<{ h: string }>(
      `SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS h FROM ${table} t WHERE store_id = $1`,
      [b.store],
    );
    parts.push(`${table}:${res.rows[0].h}`);
  }
  const c = await world.database.db.query<{ h: string }>(`SELECT md5(t::text) AS h FROM customers t WHERE id = $1`, [
    b.customer,
  ]);
  parts.push(`customer:${c.rows[0]?.h}`);
  return parts.join(',');
}

function idsOf(r: StoreRecords, field: string): string | null {
  const kind = kindOfField(field);
  if (!kind || kind === 'store') return null;
  return String(r[kind]);
}

/** Query values that make a read return store A's rows, so that B's absence from them means something. */
function hints(op: Operation, a: StoreRecords): Record<string, unknown> {
  // A generated addon_ids (a free string) is refused (400): it stopped availability's id swaps at validation.
  const h: Record<string, unknown> = {
    from_date: '2030-05-01',
    to_date: '2030-05-03',
    include_cancelled: true,
    include_archived: true,
    include_inactive: true,
    offset: 0,
    limit: 20,
    stage: undefined,
    facets: undefined,
    addon_ids: undefined,
  };
  if (op.path.includes('appointments/search')) h.q = 'Guest A';
  else if (op.path.startsWith('/api/v1/customers/')) h.q = 'Member A';
  void a;
  return Object.fromEntries(Object.entries(h).filter(([k]) => op.queryParams.some((q) => q.name === k)));
}

/** Requests for the operation that the document says are valid, naming store A's records. */
function baselines(op: Operation, a: StoreRecords, contract: Contract, seed: number): Req[] {
  const ids = (field: string) => {
    const kind = kindOfField(field);
    return kind ? [String(a[kind])] : [];
  };
  const arb = fc.record({
    query: fc.record(Object.fromEntries(op.queryParams.map((q) => [q.name, valueArb(q.schema, ids, q.name)])), {
      requiredKeys: op.queryParams.filter((q) => q.required).map((q) => q.name),
    }),
    body: op.body ? valueArb(op.body, ids) : fc.constant(undefined),
  });
  const path = Object.fromEntries(
    op.pathParams.map((p) => [p.name, idsOf(a, p.name) ?? (kindOfField(p.name) === 'store' ? a.store : randomUUID())]),
  );
  const fix = (o: Record<string, unknown> | undefined) => {
    if (!o || typeof o !== 'object') return o;
    for (const k of Object.keys(o)) {
      const kind = kindOfField(k);
      if (!kind || o[k] === null) continue;
      o[k] = Array.isArray(o[k]) ? [String(a[kind])] : String(a[kind]);
    }
    return o;
  };
  const valid: Req[] = [];
  let fallback: Req | null = null;
  for (const s of fc.sample(arb, { seed, numRuns: 80 })) {
    const req: Req = {
      path,
      query: { ...fix(s.query as Record<string, unknown>)!, ...(op.method === 'GET' ? hints(op, a) : {}) },
      body: fix(s.body as Record<string, unknown> | undefined),
    };
    fallback ??= req;
    const query = new URLSearchParams(Object.entries(req.query).map(([k, v]) => [k, String(v)])).toString();
    if (
      contract.requestValid(op, {
        path,
        query,
        body: req.body === undefined ? undefined : JSON.stringify(req.body),
        contentType: 'application/json',
      })
    )
      valid.push(req);
    if (valid.length >= 8) break;
  }
  return valid.length ? valid : [fallback!];
}

async function send(world: World, op: Operation, req: Req, token: string | null): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (req.body !== undefined) headers['content-type'] = 'application/json';
  const res = await world.app.inject({
    method: op.method as any,
    url: urlOf(op, req.path, req.query),
    headers,
    ...(req.body !== undefined ? { payload: JSON.stringify(req.body) } : {}),
  });
  let code: string | null = null;
  try {
    code = JSON.parse(res.body)?.error?.code ?? null;
  } catch {
    /* not JSON */
  }
  return { status: res.statusCode, code, text: res.body };
}

export const isolation: Proof = {
  name: 'isolation',
  title: "every route x every wrong credential, and another store's ids, read like nothing",
  budgetMs: 30_000,
  async run(p: ProofRun) {
    const world = await buildWorld(p, 'iso');
    try {
      // Reads first: the mutations that follow (archive, erase, cancel) change what store A can see.
      const rank = (o: Operation) => (o.auth.kind === 'admin' ? 2 : o.method === 'GET' ? 0 : 1);
      // A live stream never ends by itself; its refusals, isolation and resumption have their own tests
      // (test/events/stream.test.ts) and proof (event-stream).
      const ops = world.ops.filter((o) => o.auth.kind !== 'public' && !o.streaming).sort((x, y) => rank(x) - rank(y));
      if (!ops.some((o) => o.path.startsWith('/api/v1/'))) p.missing('no /api/v1 operation in /openapi.json');
      const { a, b } = world;
      const contract = new Contract(world.doc);
      const before = await fingerprint(world, b);
      const leakNeedles = [
        b.store,
        b.unit,
        b.unit2,
        b.service,
        b.period,
        b.appointment,
        b.pastAppointment,
        b.queueEntry,
        b.customer,
        b.timeOff,
        b.hold,
        b.secret,
      ];
      const tokens = {
        badSignature: await merchantToken(a.store, { badSignature: true }),
        expired: await merchantToken(a.store, { ttlS: -120 }),
        customerBadSignature: await customerToken(a.customer, { badSignature: true }),
        customerExpired: await customerToken(a.customer, { ttlS: -120 }),
        merchantNoScope: await merchantToken(a.store, { scopes: [] }),
        merchantReadOnly: await merchantToken(a.store, { scopes: ['merchant:read'] }),
        customerNoScope: await customerToken(a.customer, { scopes: [] }),
        customerReadOnly: await customerToken(a.customer, { scopes: ['customer:read'] }),
      };
      let cells = 0;
      let idCells = 0;
      let idCellsPastValidation = 0;
      let scanned = 0;
      let succeeding = 0;
      const listsWithOwnRows = new Set<string>();
      const perKind = new Map<string, number>();

      const expect = async (
        op: Operation,
        cell: string,
        req: Req,
        token: string | null,
        status: number,
        code: string,
      ) => {
        const r = await send(world, op, req, token);
        cells++;
        perKind.set(cell, (perKind.get(cell) ?? 0) + 1);
        p.check(
          r.status === status && r.code === code,
          `auth cell refused wrongly`,
          `${op.method} ${op.path} [${cell}]: expected ${status} ${code}, got ${r.status} ${r.code ?? r.text.slice(0, 120)}`,
        );
      };
      const ownNeedles = [
        a.unit,
        a.service,
        a.period,
        a.appointment,
        a.pastAppointment,
        a.queueEntry,
        a.customer,
        a.store,
        'Member A',
        'Yoga A',
      ];
      const scan = (op: Operation, cell: string, r: Answer, sent: Req) => {
        scanned++;
        // Lists that showed store A's own rows: the absence of B's rows in them means something.
        if (op.method === 'GET' && r.status === 200 && ownNeedles.some((n) => r.text.includes(n)))
          listsWithOwnRows.add(op.path);
        // An id the request itself carried may be echoed back; anything else of store B is a leak.
        const carried = JSON.stringify(sent);
        for (const needle of leakNeedles) {
          if (carried.includes(needle)) continue;
          if (r.text.includes(needle))
            p.fail(
              "an answer to store A contains store B's data",
              `${op.method} ${op.path} [${cell}] contains ${needle === b.secret ? "B's private note" : needle}`,
            );
        }
      };

      for (const [i, op] of ops.entries()) {
        const candidates = baselines(op, a, contract, SEED + i);
        const rule = op.auth;
        // The baseline is a request store A may make; preferably one that succeeds, so that an
        // id swapped for store B's is judged past validation and lookups, where a leak would be.
        const good =
          rule.kind === 'merchant' || rule.kind === 'merchant_or_customer'
            ? a.token
            : rule.kind === 'customer'
              ? a.customerToken
              : ADMIN_TOKEN;
        let req = candidates[0];
        let base: Answer | null = null;
        if (rule.kind !== 'admin') {
          for (const c of candidates) {
            const r = await send(world, op, c, good);
            if (!base || r.status < 300) {
              req = c;
              base = r;
            }
            if (r.status < 300) break;
          }
          if (base && base.status < 300) succeeding++;
        }
        if (rule.kind === 'admin') {
          for (const [cell, token, status, code] of [
            ['no token', null, 401, 'UNAUTHENTICATED'],
            ['wrong operator secret', ADMIN_TOKEN.slice(0, -1) + 'X', 401, 'UNAUTHENTICATED'],
            ['operator secret with a suffix', ADMIN_TOKEN + 'x', 401, 'UNAUTHENTICATED'],
            ['bad signature', tokens.badSignature, 401, 'UNAUTHENTICATED'],
            ['expired', tokens.expired, 401, 'UNAUTHENTICATED'],
            ['merchant token', a.token, 403, 'WRONG_TOKEN_KIND'],
            ['customer token', a.customerToken, 403, 'WRONG_TOKEN_KIND'],
          ] as const) {
            await expect(op, `operator: ${cell}`, req, token, status, code);
          }
          continue;
        }
        // A route that lets in either kind (availability) gets the merchant's cells and the customer's
        // missing-scope cell; neither kind is the wrong one there.
        const either = rule.kind === 'merchant_or_customer';
        const merchant = rule.kind === 'merchant' || either;
        await expect(op, 'no token', req, null, 401, 'UNAUTHENTICATED');
        await expect(
          op,
          'bad signature',
          req,
          merchant ? tokens.badSignature : tokens.customerBadSignature,
          401,
          'UNAUTHENTICATED',
        );
        await expect(op, 'expired', req, merchant ? tokens.expired : tokens.customerExpired, 401, 'UNAUTHENTICATED');
        await expect(op, 'operator token on a merchant or customer route', req, ADMIN_TOKEN, 401, 'UNAUTHENTICATED');
        if (either) {
          const lacking = rule.customerScope === 'customer:write' ? tokens.customerReadOnly : tokens.customerNoScope;
          await expect(op, 'customer token missing its scope', req, lacking, 403, 'INSUFFICIENT_SCOPE');
        }
        if (merchant) {
          if (!either)
            await expect(op, 'customer token on merchant route', req, a.customerToken, 403, 'WRONG_TOKEN_KIND');
          const lacking = rule.scope === 'merchant:write' ? tokens.merchantReadOnly : tokens.merchantNoScope;
          await expect(op, 'missing scope', req, lacking, 403, 'INSUFFICIENT_SCOPE');
          for (const e of rule.entitlements) {
            const t = await merchantToken(a.store, {
              entitlements: ['can_use_bookings', 'classes'].filter((x) => x !== e),
            });
            await expect(op, 'missing entitlement', req, t, 403, 'MISSING_ENTITLEMENT');
          }
          for (const perm of rule.permissions) {
            const t = await merchantToken(a.store, { permissions: ['can_process_payments'].filter((x) => x !== perm) });
            await expect(op, 'missing permission', req, t, 403, 'MISSING_PERMISSION');
          }
        } else {
          await expect(op, 'merchant token on customer route', req, a.token, 403, 'WRONG_TOKEN_KIND');
          const lacking = rule.scope === 'customer:write' ? tokens.customerReadOnly : tokens.customerNoScope;
          await expect(op, 'missing scope', req, lacking, 403, 'INSUFFICIENT_SCOPE');
        }

        // The right token: the answer itself must not leak store B.
        scan(op, 'valid request', base!, req);
        if (!merchant) continue;

        // Another store's ids, one field at a time, against an id that does not exist.
        const slots: Array<{ where: 'path' | 'query' | 'body'; name: string; array: boolean }> = [
          ...op.pathParams.map((x) => ({ where: 'path' as const, name: x.name, array: false })),
          ...Object.keys(req.query).map((name) => ({ where: 'query' as const, name, array: false })),
          ...Object.keys(req.body ?? {}).map((name) => ({
            where: 'body' as const,
            name,
            array: Array.isArray(req.body![name]),
          })),
        ];
        for (const slot of slots) {
          const kind = kindOfField(slot.name);
          if (!kind) continue;
          const with_ = (value: string): Req => {
            const next: Req = {
              path: { ...req.path },
              query: { ...req.query },
              body: req.body ? { ...req.body } : undefined,
            };
            const v = slot.array ? [value] : value;
            if (slot.where === 'path') next.path[slot.name] = value;
            else if (slot.where === 'query') next.query[slot.name] = v;
            else next.body![slot.name] = v;
            return next;
          };
          if (kind === 'store') {
            // store_id names the store only for authorisation: the token's store wins.
            const sentB = with_(b.store);
            const r = await send(world, op, sentB, good);
            cells++;
            perKind.set("another store's store_id", (perKind.get("another store's store_id") ?? 0) + 1);
            scan(op, `${slot.name}=B`, r, sentB);
            p.check(
              r.status === base!.status && r.code === base!.code,
              "another store's store_id changed the answer",
              `${op.method} ${op.path} ${slot.where}.${slot.name}: ${r.status} ${r.code ?? ''} vs own ${base!.status} ${base!.code ?? ''}`,
            );
            continue;
          }
          const sentB = with_(String(b[kind]));
          const rb = await send(world, op, sentB, good);
          const rn = await send(world, op, with_(randomUUID()), good);
          cells++;
          idCells++;
          perKind.set("another store's ids", (perKind.get("another store's ids") ?? 0) + 1);
          // Every swapped-id request must get past validation: one stopped there compared two 400s
          // and said nothing about where a leak would be (the lookup). Required: all of them.
          if (!(rn.status === 400 && rn.code === 'VALIDATION_FAILED')) idCellsPastValidation++;
          else
            p.fail(
              'a swapped-id request stopped at validation (it proves nothing)',
              `${op.method} ${op.path} ${slot.where}.${slot.name}`,
            );
          scan(op, `${slot.name}=B`, rb, sentB);
          p.check(
            rb.status === rn.status && rb.code === rn.code,
            "another store's record is distinguishable from a missing one",
            `${op.method} ${op.path} ${slot.where}.${slot.name}: B's ${kind} -> ${rb.status} ${rb.code ?? rb.text.slice(0, 80)}; missing -> ${rn.status} ${rn.code ?? rn.text.slice(0, 80)}`,
          );
          p.check(
            rb.status >= 400 || rb.status === rn.status,
            "another store's record was acted on",
            `${op.method} ${op.path} ${slot.where}.${slot.name}: ${rb.status}`,
          );
        }
      }

      // Lists as the customer and every list as store A: none may contain store B (already scanned above).
      const after = await fingerprint(world, b);
      p.check(after === before, "store B's data changed while only store A acted");
      // The number that must hold: every id-carrying field of every merchant operation was swapped,
      // and each of those requests got past validation (idCellsPastValidation === idCells > 0).
      p.check(
        idCells > 0 && idCellsPastValidation === idCells,
        'not every swapped-id request got past validation',
        `${idCellsPastValidation} of ${idCells}`,
      );

      p.figure(
        'operations',
        `${ops.length} (${ops.filter((o) => o.auth.kind === 'merchant').length} merchant, ${ops.filter((o) => o.auth.kind === 'customer').length} customer, ${ops.filter((o) => o.auth.kind === 'merchant_or_customer').length} either, ${ops.filter((o) => o.auth.kind === 'admin').length} operator)`,
      );
      p.figure('cells checked', cells);
      p.figure('cells by kind', [...perKind].map(([k, n]) => `${k} x${n}`).join('; '));
      p.figure(
        "another store's ids vs missing ids (cells / past validation, must be equal)",
        `${idCells} / ${idCellsPastValidation}`,
      );
      p.figure(
        'operations with a succeeding (2xx) baseline request',
        `${succeeding} of ${ops.filter((o) => o.auth.kind !== 'admin').length}`,
      );
      p.figure('answers scanned for store B data', scanned);
      p.figure(
        "reads that returned store A's own rows (and none of B's)",
        `${listsWithOwnRows.size} of ${ops.filter((o) => o.method === 'GET' && o.auth.kind !== 'admin').length} GET operations`,
      );
      p.figure("store B's data unchanged", after === before ? 'yes' : 'NO');
      p.figure('failures', p.failureCount());
    } finally {
      await world.close();
    }
  },
};
