import type { FastifyInstance } from 'fastify';

export async function appointmentSearchRoutes(app: FastifyInstance) {
  void app;
}
