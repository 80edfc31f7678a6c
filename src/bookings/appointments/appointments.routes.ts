import type { FastifyInstance } from 'fastify';

export async function appointmentsRoutes(app: FastifyInstance) {
  void app;
}
