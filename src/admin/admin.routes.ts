import type { FastifyInstance } from 'fastify';

export async function adminRoutes(app: FastifyInstance) {
  void app;
}
