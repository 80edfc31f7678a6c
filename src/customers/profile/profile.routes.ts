import type { FastifyInstance } from 'fastify';

export async function profileRoutes(app: FastifyInstance) {
  void app;
}
