import type { FastifyInstance } from 'fastify';

export async function rosterRoutes(app: FastifyInstance) {
  void app;
}
