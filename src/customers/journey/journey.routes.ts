import type { FastifyInstance } from 'fastify';

export async function journeyRoutes(app: FastifyInstance) {
  void app;
}
