import type { FastifyInstance } from 'fastify';

export async function customersRoutes(app: FastifyInstance) {
  void app;
}
