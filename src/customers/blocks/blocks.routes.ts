import type { FastifyInstance } from 'fastify';

export async function blocksRoutes(app: FastifyInstance) {
  void app;
}
