// Probe routes that exercise platform behaviour (guard, envelope, idempotency) in isolation.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { auth } from '../../src/platform/auth/guard.ts';
import { customerContext, inTransaction, merchantContext } from '../../src/platform/context.ts';
import { Uuid } from '../../src/platform/http/schemas.ts';
import { audit } from '../../src/platform/audit.ts';
import { AppError } from '../../src/platform/errors/app-error.ts';

export async function probeRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const Echo = Type.Object({ store_id: Uuid, user_id: Type.Union([Type.String(), Type.Null()]) });
  app.get(
    '/probe/merchant',
    {
      config: { auth: auth.merchantRead() },
      schema: {
        querystring: Type.Object(
          { store_id: Type.Optional(Uuid), limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })) },
          { additionalProperties: false },
        ),
        response: { 200: Echo },
      },
    },
    async (req) => {
      const ctx = merchantContext(req);
      return { store_id: ctx.actor.storeId, user_id: ctx.actor.userId };
    },
  );
  app.post(
    '/probe/merchant/:thingId',
    {
      config: {
        auth: auth.merchantWrite({ entitlements: ['can_use_bookings'], permissions: ['can_process_payments'] }),
      },
      schema: {
        params: Type.Object({ thingId: Uuid }, { additionalProperties: false }),
        body: Type.Object(
          { store_id: Uuid, count: Type.Integer({ minimum: 0 }), note: Type.Optional(Type.String({ maxLength: 10 })) },
          { additionalProperties: false },
        ),
        response: { 200: Echo },
      },
    },
    async (req) => {
      const ctx = merchantContext(req);
      return { store_id: ctx.actor.storeId, user_id: ctx.actor.userId };
    },
  );
  app.get(
    '/probe/customer',
    {
      config: { auth: auth.customerRead() },
      schema: { response: { 200: Type.Object({ customer_id: Uuid }) } },
    },
    async (req) => ({ customer_id: customerContext(req).actor.customerId }),
  );
  app.post('/probe/boom', { config: { auth: auth.merchantWrite() }, schema: {} }, async (req) => {
    merchantContext(req);
    throw new Error('relation "secret_table" does not exist at SELECT password FROM users');
  });
  // A write that counts its effects, for idempotency tests. With hold_lock it waits, inside its
  // transaction and after claiming its key, for that advisory lock: a test holding the lock keeps
  // the request in flight for exactly as long as it needs to.
  app.post(
    '/probe/counter',
    {
      config: { auth: auth.merchantWrite() },
      schema: {
        body: Type.Object(
          {
            label: Type.String(),
            delay_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 2000 })),
            hold_lock: Type.Optional(Type.Integer({ minimum: 1 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ id: Type.Integer(), label: Type.String() }) },
      },
    },
    async (req) => {
      const ctx = merchantContext(req);
      return inTransaction(ctx, async (tx) => {
        await tx.query('CREATE TABLE IF NOT EXISTS probe_counter (id serial PRIMARY KEY, label text)');
        const res = await tx.query<{ id: number; label: string }>(
          'INSERT INTO probe_counter (label) VALUES ($1) RETURNING id, label',
          [req.body.label],
        );
        if (req.body.delay_ms) await tx.query('SELECT pg_sleep($1)', [req.body.delay_ms / 1000]);
        if (req.body.hold_lock) await tx.query('SELECT pg_advisory_xact_lock($1::bigint)', [req.body.hold_lock]);
        return res.rows[0];
      });
    },
  );
  // A write that audits, for the audit tests: `entries` audit calls, then optionally a refusal after
  // them, or one retryable failure on the first attempt (as a deadlock would be).
  const attempts = new Map<string, number>();
  app.post(
    '/probe/audited',
    {
      config: { auth: auth.merchantWrite() },
      schema: {
        body: Type.Object(
          {
            label: Type.String(),
            entries: Type.Integer({ minimum: 0, maximum: 5 }),
            fail: Type.Optional(Type.Boolean()),
            retry_once: Type.Optional(Type.Boolean()),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Object({ label: Type.String(), attempt: Type.Integer() }) },
      },
    },
    async (req) => {
      const ctx = merchantContext(req);
      const { label, entries, fail, retry_once } = req.body;
      return inTransaction(ctx, async (tx) => {
        const attempt = (attempts.get(label) ?? 0) + 1;
        attempts.set(label, attempt);
        await tx.query('CREATE TABLE IF NOT EXISTS probe_counter (id serial PRIMARY KEY, label text)');
        await tx.query('INSERT INTO probe_counter (label) VALUES ($1)', [label]);
        for (let n = 0; n < entries; n++) {
          await audit(tx, ctx, {
            action: `probe.audited.${n}`,
            entity: 'probe',
            entityId: label,
            details: { n, attempt, text: 'a "quote", a \\ and \u2603' },
          });
        }
        if (retry_once && attempt === 1)
          throw Object.assign(new Error('could not serialize access due to concurrent update'), { code: '40001' });
        if (fail) throw new AppError('CONFLICT', 'refused after the audit call');
        return { label, attempt };
      });
    },
  );
}
