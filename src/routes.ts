// Every feature's routes, registered under their paths.
import type { FastifyInstance } from 'fastify';
import { adminRoutes } from './admin/admin.routes.ts';
import { appointmentsRoutes } from './bookings/appointments/appointments.routes.ts';
import { appointmentSearchRoutes } from './bookings/appointment-search/appointment-search.routes.ts';
import { appointmentReadRoutes, diaryRoutes } from './bookings/diary/diary.routes.ts';
import { unitsRoutes } from './bookings/units/units.routes.ts';
import { timeOffRoutes } from './bookings/time-off/time-off.routes.ts';
import { queueRoutes } from './bookings/queue/queue.routes.ts';
import { servicePeriodsRoutes } from './bookings/service-periods/service-periods.routes.ts';
import { servicesRoutes } from './bookings/services/services.routes.ts';
import { profileRoutes } from './customers/profile/profile.routes.ts';
import { blocksRoutes } from './customers/blocks/blocks.routes.ts';
import { attendanceRoutes } from './customers/attendance/attendance.routes.ts';
import { journeyRoutes } from './customers/journey/journey.routes.ts';
import { rosterRoutes } from './customers/roster/roster.routes.ts';
import { preferencesRoutes } from './notifications/preferences.routes.ts';
import { customerPageRoutes } from './customers/customer-page/customer-page.ts';
import { consoleRoutes } from './console/console.routes.ts';
import { eventsRoutes } from './events/events.routes.ts';
import { webhooksRoutes } from './webhooks/webhooks.routes.ts';
import { passkeysRoutes } from './staff/passkeys/passkeys.routes.ts';
import { oidcRoutes } from './staff/oidc/oidc.routes.ts';
import { ACTIVITY_KINDS } from './customers/activity/activity.schemas.ts';
import { staffRoutes } from './staff/staff.routes.ts';

/**
 * Named schemas that routes reference by `$ref: '<$id>#'` (for example the branches of a
 * discriminated oneOf, which OpenAPI tools can only select by name). buildApp adds them at the root,
 * so the document lists them under components.schemas and every route can resolve them.
 */
export const sharedSchemas: Array<{ $id: string }> = [...ACTIVITY_KINDS];
import { hoursRoutes } from './bookings/hours/hours.routes.ts';
import { settingsRoutes } from './bookings/settings/settings.routes.ts';
import { depositsAdminRoutes, depositsRoutes } from './bookings/deposits/deposits.routes.ts';
import { onlineRoutes } from './bookings/online/online.routes.ts';
import { bookingPage } from './booking-page/booking-page.plugin.ts';
import { importsRoutes } from './imports/imports.routes.ts';
import { reportsRoutes } from './reports/reports.routes.ts';
import { calendarFeedFileRoutes, calendarFeedRoutes } from './bookings/calendar-feeds/calendar-feeds.routes.ts';
import { classesRoutes } from './classes/classes.routes.ts';
import { occurrencesRoutes } from './classes/occurrences.routes.ts';
import { classBookingsRoutes } from './classes/class-bookings.routes.ts';
import { classPageRoutes } from './classes/class-page.routes.ts';
import { deliveryRoutes, devMailboxRoutes } from './notifications/delivery/delivery.routes.ts';

export async function featureRoutes(app: FastifyInstance) {
  await app.register(adminRoutes, { prefix: '/admin/v1' });
  await app.register(appointmentsRoutes, { prefix: '/api/v1/bookings/appointments' });
  await app.register(appointmentSearchRoutes, { prefix: '/api/v1/bookings/appointments' });
  await app.register(appointmentReadRoutes, { prefix: '/api/v1/bookings/appointments' });
  await app.register(diaryRoutes, { prefix: '/api/v1/bookings/diary' });
  await app.register(unitsRoutes, { prefix: '/api/v1/bookings/units' });
  await app.register(timeOffRoutes, { prefix: '/api/v1/bookings/time-off' });
  await app.register(queueRoutes, { prefix: '/api/v1/bookings/queue' });
  await app.register(servicePeriodsRoutes, { prefix: '/api/v1/bookings/service-periods' });
  await app.register(servicesRoutes, { prefix: '/api/v1/bookings/services' });
  // Customers: PATCH /{id}, PATCH /{id}/block and PATCH /block, GET /{id}/attendance, GET /{id}/journey, GET /list, GET /search
  await app.register(profileRoutes, { prefix: '/api/v1/customers' });
  await app.register(blocksRoutes, { prefix: '/api/v1/customers' });
  await app.register(attendanceRoutes, { prefix: '/api/v1/customers' });
  await app.register(journeyRoutes, { prefix: '/api/v1/customers' });
  await app.register(rosterRoutes, { prefix: '/api/v1/customers' });
  await app.register(preferencesRoutes, { prefix: '/api/v1/notifications/preferences' });
  await app.register(customerPageRoutes, { prefix: '/api/v1/customers' });
  // The merchant console's built files at /console (public files; every call they make carries a token).
  await app.register(consoleRoutes);
  await app.register(eventsRoutes, { prefix: '/api/v1/events' });
  await app.register(webhooksRoutes, { prefix: '/api/v1/webhooks/endpoints' });
  // Online booking: working hours, settings and deposits (merchant and operator), and the customer
  // operations with their CORS policy in their own context (src/bookings/online).
  await app.register(hoursRoutes, { prefix: '/api/v1/bookings/units' });
  await app.register(settingsRoutes, { prefix: '/api/v1/bookings/settings' });
  await app.register(depositsRoutes, { prefix: '/api/v1/bookings/appointments' });
  await app.register(depositsAdminRoutes, { prefix: '/admin/v1' });
  await app.register(onlineRoutes);
  // The shop's booking page: its public API (/api/v1/book/{slug}/...) and its files (/book/...).
  await app.register(bookingPage);
  // Imports: customers and appointments from CSV files (src/imports).
  await app.register(importsRoutes, { prefix: '/api/v1/imports' });
  // Reports: the summary of a range of the store's days (src/reports).
  await app.register(reportsRoutes, { prefix: '/api/v1/reports' });
  // Each unit's secret calendar feed: its URL and rotation, and the public /feeds/{token}.ics.
  await app.register(calendarFeedRoutes, { prefix: '/api/v1/bookings/units' });
  await app.register(calendarFeedFileRoutes);
  // Classes: the timetable, occurrences, bookings and the waitlist (src/classes).
  await app.register(classesRoutes, { prefix: '/api/v1/classes' });
  await app.register(occurrencesRoutes, { prefix: '/api/v1/classes' });
  await app.register(classBookingsRoutes, { prefix: '/api/v1/classes' });
  // The booking page's classes (issue 44): the week's classes and a signed-in customer's booking, beside the page's own API.
  await app.register(classPageRoutes, { prefix: '/api/v1/book' });
  // Staff accounts (src/staff): /api/v1/auth, /api/v1/staff, /api/v1/api-keys, and the operator's invitation.
  await app.register(staffRoutes);
  // Staff passkeys (src/staff/passkeys): add one when signed in, sign in with one.
  await app.register(passkeysRoutes, { prefix: '/api/v1/auth/passkeys' });
  // GET /api/v1/auth/options, and sign-in through the shop's identity provider (src/staff/oidc).
  await app.register(oidcRoutes, { prefix: '/api/v1/auth' });
  // How messages reach customers here, and the development mailbox (never in production).
  await app.register(deliveryRoutes, { prefix: '/api/v1/notifications/delivery' });
  if (!app.deps.config.production) await app.register(devMailboxRoutes, { prefix: '/api/v1/dev/mailbox' });
}
