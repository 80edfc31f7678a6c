import type { FastifyInstance } from 'fastify';

export async function servicePeriodsRoutes(app: FastifyInstance) {
  void app;
}
