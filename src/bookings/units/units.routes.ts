import type { FastifyInstance } from 'fastify';

export async function unitsRoutes(app: FastifyInstance) {
  void app;
}
