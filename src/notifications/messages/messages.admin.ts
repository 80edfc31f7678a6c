// GET /admin/v1/stores/{storeId}/messages: the operator's view of a store's messages, newest first,
// whatever became of them: sent, held in the local mailbox (no channel configured), suppressed or
// withdrawn with the reason, failed, or still to go. The mailbox is the rows with status 'mailbox'.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { auth } from '../../platform/auth/guard.ts';
import { Instant, Nullable, NullableInstant, NullableString, NullableUuid, Uuid } from '../../platform/http/schemas.ts';
import { notFound } from '../../platform/errors/app-error.ts';
import type { Queryable } from '../../platform/db/port.ts';
import { MESSAGE_KINDS } from './message-kinds.ts';

const STATUSES = ['pending', 'sending', 'sent', 'mailbox', 'suppressed', 'withdrawn', 'failed'];

const Params = Type.Object({ storeId: Uuid }, { additionalProperties: false });
const Query = Type.Object(
  {
    status: Type.Optional(Type.String({ enum: STATUSES })),
    kind: Type.Optional(Type.String({ enum: [...MESSAGE_KINDS] })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  },
  { additionalProperties: false },
);
type Query = Static<typeof Query>;

const Message = Type.Object({
  id: Uuid,
  kind: Type.String({ enum: [...MESSAGE_KINDS] }),
  channel: Type.String({ enum: ['email', 'sms'] }),
  status: Type.String({ enum: STATUSES }),
  reason: NullableString,
  to: Type.String(),
  subject: Type.String(),
  text: Type.String(),
  html: Type.String(),
  ics: NullableString,
  ics_sequence: Nullable(Type.Integer()),
  message_id: Type.String(),
  customer_id: NullableUuid,
  appointment_id: NullableUuid,
  queue_entry_id: NullableUuid,
  due_at: Instant,
  sent_at: NullableInstant,
  attempts: Type.Integer(),
  last_error: NullableString,
  created_at: Instant,
});
const Response = Type.Object({ store_id: Uuid, messages: Type.Array(Message) });
type StoreMessage = Static<typeof Message>;

export async function listStoreMessages(db: Queryable, storeId: string, q: Query) {
  const store = await db.query('SELECT 1 FROM stores WHERE id = $1', [storeId]);
  if (store.rowCount === 0) throw notFound('Store');
  const res = await db.query<StoreMessage>(
    `SELECT id, kind, channel, status, reason, to_address AS "to", subject, body_text AS text, body_html AS html, ics,
            ics_sequence, message_id, customer_id, appointment_id, queue_entry_id, due_at, sent_at, attempts, last_error, created_at
       FROM messages
      WHERE store_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::text IS NULL OR kind = $3)
      ORDER BY created_at DESC, id DESC
      LIMIT $4`,
    [storeId, q.status ?? null, q.kind ?? null, q.limit ?? 50],
  );
  return { store_id: storeId, messages: res.rows };
}

export async function messagesAdminRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/stores/:storeId/messages',
    {
      config: { auth: auth.admin() },
      schema: {
        operationId: 'adminListStoreMessages',
        tags: ['Operator'],
        summary: "A store's customer messages and what became of each (the local mailbox is status=mailbox)",
        params: Params,
        querystring: Query,
        response: { 200: Response },
      },
    },
    (req) => listStoreMessages(fastify.deps.db, req.params.storeId, req.query),
  );
}
