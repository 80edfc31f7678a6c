import type { FastifyInstance } from 'fastify';

export async function queueRoutes(app: FastifyInstance) {
  void app;
}
