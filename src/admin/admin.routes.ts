import type { FastifyInstance } from 'fastify';
import { activityAdminRoutes } from './activity.admin.ts';

export async function adminRoutes(app: FastifyInstance) {
  await app.register(activityAdminRoutes);
}
