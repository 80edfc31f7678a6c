// GET /api/v1/customers/{customerId}: what the console's customer page opens with, in one statement:
// the edit record (identity and this store's private note) and this store's block record. The
// contract has writes for both but no read; a customer with no relationship to the store, or one who
// asked to be deleted, reads as 404 (as attendance and the journey do).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { auth } from '../../platform/auth/guard.ts';
import { merchantContext, type MerchantContext } from '../../platform/context.ts';
import { notFound } from '../../platform/errors/app-error.ts';
import { Uuid } from '../../platform/http/schemas.ts';
import { CustomerParams, EditRecord } from '../profile/profile.schemas.ts';
import { BlockRecord } from '../blocks/blocks.schemas.ts';

const Query = Type.Object({ store_id: Uuid }, { additionalProperties: false });
const Response = Type.Object({ customer: EditRecord, block: BlockRecord });
type Response = Static<typeof Response>;

async function readCustomerPage(ctx: MerchantContext, customerId: string): Promise<Response> {
  const res = await ctx.db.query<EditRecord & BlockRecord>(
    `SELECT c.id, c.name, c.phone, c.email, sc.merchant_note, sc.merchant_note_updated_at,
            sc.customer_id, sc.blocked, sc.blocked_at, sc.blocked_channels, sc.block_reason, sc.archived, sc.archived_at
       FROM store_customers sc
       JOIN customers c ON c.id = sc.customer_id
      WHERE sc.store_id = $1 AND sc.customer_id = $2 AND c.erased_at IS NULL`,
    [ctx.actor.storeId, customerId],
  );
  const row = res.rows[0];
  if (!row) throw notFound('Customer');
  const {
    id,
    name,
    phone,
    email,
    merchant_note,
    merchant_note_updated_at,
    customer_id,
    blocked,
    blocked_at,
    blocked_channels,
    block_reason,
    archived,
    archived_at,
  } = row;
  return {
    customer: { id, name, phone, email, merchant_note, merchant_note_updated_at },
    block: { customer_id, blocked, blocked_at, blocked_channels, block_reason, archived, archived_at },
  };
}

export async function customerPageRoutes(app: FastifyInstance) {
  app.withTypeProvider<TypeBoxTypeProvider>().get(
    '/:customerId',
    {
      config: { auth: auth.merchantRead() },
      schema: {
        operationId: 'getCustomer',
        tags: ['Customers'],
        summary: "One customer as this store sees them: the edit record and the store's block record",
        params: CustomerParams,
        querystring: Query,
        response: { 200: Response },
      },
    },
    async (request) => readCustomerPage(merchantContext(request), request.params.customerId),
  );
}
