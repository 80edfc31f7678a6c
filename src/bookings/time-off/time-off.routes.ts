import type { FastifyInstance } from 'fastify';

export async function timeOffRoutes(app: FastifyInstance) {
  void app;
}
