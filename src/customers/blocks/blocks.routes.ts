// PATCH /api/v1/customers/{customerId}/block and PATCH /api/v1/customers/block (bulk).
import type { FastifyInstance } from 'fastify';
import { auth } from '../../platform/auth/guard.ts';
import { declareRoutes } from '../../platform/http/route.ts';
import { merchantContext } from '../../platform/context.ts';
import { BlockBody, BlockParams, BlockResponse, BulkBlockBody, BulkBlockResponse } from './blocks.schemas.ts';
import { updateBlock, updateBlocks } from './blocks.service.ts';

export async function blocksRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags: ['Customers'] });

  route.patch('/:customerId/block', 'updateCustomerBlock', auth.merchantWrite(), {
    summary: "Block, mute channels, keep a note or archive one of the store's customers",
    schema: { params: BlockParams, body: BlockBody, response: { 200: BlockResponse } },
    handler: async (request) => updateBlock(merchantContext(request), request.params.customerId, request.body),
  });

  // A static path: the router prefers it over PATCH /:customerId, so "block" is never read as an id.
  route.patch('/block', 'bulkUpdateCustomerBlocks', auth.merchantWrite(), {
    summary: "The same change for many of the store's customers, atomically: all or none",
    schema: { body: BulkBlockBody, response: { 200: BulkBlockResponse } },
    handler: async (request) => updateBlocks(merchantContext(request), request.body),
  });
}
