import type { FastifyInstance } from 'fastify';

export async function servicesRoutes(app: FastifyInstance) {
  void app;
}
