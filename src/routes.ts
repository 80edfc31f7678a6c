// Every feature's routes, registered under their paths.
import type { FastifyInstance } from 'fastify';
import { adminRoutes } from './admin/admin.routes.ts';
import { appointmentsRoutes } from './bookings/appointments/appointments.routes.ts';
import { diaryRoutes } from './bookings/diary/diary.routes.ts';
import { unitsRoutes } from './bookings/units/units.routes.ts';
import { timeOffRoutes } from './bookings/time-off/time-off.routes.ts';
import { queueRoutes } from './bookings/queue/queue.routes.ts';
import { servicePeriodsRoutes } from './bookings/service-periods/service-periods.routes.ts';
import { servicesRoutes } from './bookings/services/services.routes.ts';
import { customersRoutes } from './customers/customers.routes.ts';
import { preferencesRoutes } from './notifications/preferences.routes.ts';

export async function featureRoutes(app: FastifyInstance) {
  await app.register(adminRoutes, { prefix: '/admin/v1' });
  await app.register(appointmentsRoutes, { prefix: '/api/v1/bookings/appointments' });
  await app.register(diaryRoutes, { prefix: '/api/v1/bookings/diary' });
  await app.register(unitsRoutes, { prefix: '/api/v1/bookings/units' });
  await app.register(timeOffRoutes, { prefix: '/api/v1/bookings/time-off' });
  await app.register(queueRoutes, { prefix: '/api/v1/bookings/queue' });
  await app.register(servicePeriodsRoutes, { prefix: '/api/v1/bookings/service-periods' });
  await app.register(servicesRoutes, { prefix: '/api/v1/bookings/services' });
  await app.register(customersRoutes, { prefix: '/api/v1/customers' });
  await app.register(preferencesRoutes, { prefix: '/api/v1/notifications/preferences' });
}
