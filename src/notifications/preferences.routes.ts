import type { FastifyInstance } from 'fastify';

export async function preferencesRoutes(app: FastifyInstance) {
  void app;
}
