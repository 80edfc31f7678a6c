import type { FastifyInstance } from 'fastify';

/** POST /admin/v1/stores/{storeId}/activity: class bookings, stamps, orders and journey events. */
export async function activityAdminRoutes(app: FastifyInstance) {
  void app;
}
