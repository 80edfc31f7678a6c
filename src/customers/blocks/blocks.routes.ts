// PATCH /api/v1/customers/{customerId}/block and PATCH /api/v1/customers/block (bulk).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { auth } from '../../platform/auth/guard.ts';
import { merchantContext } from '../../platform/context.ts';
import { BlockBody, BlockParams, BlockResponse, BulkBlockBody, BulkBlockResponse } from './blocks.schemas.ts';
import { updateBlock, updateBlocks } from './blocks.service.ts';

export async function blocksRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.patch(
    '/:customerId/block',
    {
      config: { auth: auth.merchantWrite() },
      schema: {
        operationId: 'updateCustomerBlock',
        tags: ['Customers'],
        summary: "Block, mute channels, keep a note or archive one of the store's customers",
        params: BlockParams,
        body: BlockBody,
        response: { 200: BlockResponse },
      },
    },
    async (request) => updateBlock(merchantContext(request), request.params.customerId, request.body),
  );

  // A static path: the router prefers it over PATCH /:customerId, so "block" is never read as an id.
  r.patch(
    '/block',
    {
      config: { auth: auth.merchantWrite() },
      schema: {
        operationId: 'bulkUpdateCustomerBlocks',
        tags: ['Customers'],
        summary: "The same change for many of the store's customers, atomically: all or none",
        body: BulkBlockBody,
        response: { 200: BulkBlockResponse },
      },
    },
    async (request) => updateBlocks(merchantContext(request), request.body),
  );
}
