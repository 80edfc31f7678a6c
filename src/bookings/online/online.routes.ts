// The customer operations a shop's website calls from the browser (availability, holds, my
// bookings), registered together in one encapsulated context with their CORS policy (cors.ts).
import type { FastifyInstance } from 'fastify';
import { registerOnlineCors } from './cors.ts';
import { availabilityRoutes } from '../availability/availability.routes.ts';
import { holdsRoutes } from '../holds/holds.routes.ts';
import { myAppointmentsRoutes } from '../my-appointments/my-appointments.routes.ts';

export async function onlineRoutes(app: FastifyInstance) {
  await registerOnlineCors(app);
  await app.register(availabilityRoutes, { prefix: '/api/v1/bookings/availability' });
  await app.register(holdsRoutes, { prefix: '/api/v1/bookings/holds' });
  await app.register(myAppointmentsRoutes, { prefix: '/api/v1/me/appointments' });
}
