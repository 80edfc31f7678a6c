import type { FastifyInstance } from 'fastify';

export async function attendanceRoutes(app: FastifyInstance) {
  void app;
}
