import type { FastifyInstance } from 'fastify';

export async function diaryRoutes(app: FastifyInstance) {
  void app;
}
