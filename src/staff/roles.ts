// Roles as data: the one table of which staff roles may call each merchant operation of
// /openapi.json, by operationId. The auth guard enforces it for staff sessions and API keys (a route
// with a merchant rule and no entry here fails at start); test/staff/role-matrix.test.ts generates
// its matrix from it and docs/roles.md shows it (npm run docs:roles). Bearer JWTs (AUTH_SECRET,
// AUTH_JWKS_URL) are not limited by it: they act as their scopes, entitlements and permissions say.
//
// Record-level rules (RECORD_RULES) narrow the `staff` role further, after the body is validated:
// status changes and settling only on their own unit's appointments, customers only those they serve,
// calendar feeds only their own unit's; and the front desk rotates only its own unit's feed.

export const ROLES = ['owner', 'manager', 'front_desk', 'staff'] as const;
export type Role = (typeof ROLES)[number];

/** Rank for "nobody raises anyone above their own role": a higher number is more power. */
export const ROLE_RANK: Readonly<Record<Role, number>> = Object.freeze({
  owner: 4,
  manager: 3,
  front_desk: 2,
  staff: 1,
});

const ALL: readonly Role[] = Object.freeze(['owner', 'manager', 'front_desk', 'staff']);
const DESK: readonly Role[] = Object.freeze(['owner', 'manager', 'front_desk']);
const MANAGE: readonly Role[] = Object.freeze(['owner', 'manager']);

export const ROLE_TABLE: Readonly<Record<string, readonly Role[]>> = Object.freeze({
  // The diary and appointments: everyone reads; the front desk books, moves and cancels.
  getDiary: ALL,
  getAppointment: ALL,
  listUnits: ALL,
  listServices: ALL,
  createAppointment: DESK,
  rescheduleAppointment: DESK,
  cancelAppointment: DESK,
  searchAppointmentPeople: DESK,
  searchAvailability: DESK,
  // `staff`: only on their own unit (RECORD_RULES). Settling also needs can_process_payments (the route's rule).
  checkInAppointment: ALL,
  completeAppointment: ALL,
  markAppointmentNoShow: ALL,
  settleAppointment: ALL,
  markDepositPaid: DESK,
  createTimeOff: DESK,
  deleteTimeOff: DESK,
  // The queue.
  listQueue: ALL,
  joinQueue: DESK,
  callQueueEntry: DESK,
  assignQueueEntry: DESK,
  removeQueueEntry: DESK,
  // Customers: the front desk keeps them (notes, blocks, mutes, archive); `staff` reads those they serve.
  getCustomer: ALL,
  listCustomerAttendance: ALL,
  getCustomerJourney: ALL,
  listCustomerRoster: DESK,
  searchCustomers: DESK,
  updateCustomer: DESK,
  updateCustomerBlock: DESK,
  bulkUpdateCustomerBlocks: DESK,
  // The catalogue and settings: the front desk reads, managers change.
  listServicePeriods: DESK,
  getUnitHours: DESK,
  getBookingSettings: DESK,
  createUnit: MANAGE,
  updateUnit: MANAGE,
  createService: MANAGE,
  updateService: MANAGE,
  createServicePeriod: MANAGE,
  updateServicePeriod: MANAGE,
  deleteServicePeriod: MANAGE,
  putUnitHours: MANAGE,
  updateBookingSettings: MANAGE,
  // Integrations: events, webhooks, API keys.
  listEvents: MANAGE,
  streamEvents: MANAGE,
  createWebhookEndpoint: MANAGE,
  listWebhookEndpoints: MANAGE,
  updateWebhookEndpoint: MANAGE,
  deleteWebhookEndpoint: MANAGE,
  rotateWebhookSecret: MANAGE,
  listWebhookDeliveries: MANAGE,
  retryWebhookDelivery: MANAGE,
  replayWebhookDeliveries: MANAGE,
  createApiKey: MANAGE,
  listApiKeys: MANAGE,
  revokeApiKey: MANAGE,
  // Classes (issue 44): everyone reads the timetable; the desk books, cancels and takes offers, and
  // marks attendance (no per-instructor record rule yet, so `staff` does not); managers run the timetable.
  listClasses: ALL,
  getClass: ALL,
  listClassOccurrences: ALL,
  getClassOccurrence: ALL,
  getClassBooking: ALL,
  bookClass: DESK,
  cancelClassBooking: DESK,
  acceptClassOffer: DESK,
  checkInClassBooking: DESK,
  noShowClassBooking: DESK,
  createClass: MANAGE,
  updateClass: MANAGE,
  createClassOccurrence: MANAGE,
  scheduleClassWeekly: MANAGE,
  updateClassOccurrence: MANAGE,
  cancelClassOccurrence: MANAGE,
  // Moving in and looking back (issue 45): imports and reports are the managers'. A unit's calendar
  // feed: everyone who reads the diary gets it, `staff` only their own unit's; rotating one (which
  // breaks the subscription on that person's phone) is the managers' for any unit, and the front desk's
  // and staff's for their own unit only (RECORD_RULES).
  importCustomers: MANAGE,
  importAppointments: MANAGE,
  reportSummary: MANAGE,
  getUnitCalendarFeed: ALL,
  rotateUnitCalendarFeed: ALL,
  // How customer messages reach people, and the development mailbox (issue 41).
  getMessageDelivery: DESK,
  listDevMailbox: MANAGE,
  // Staff: managers invite and change people, but only an owner makes, changes or removes an owner (the service).
  createStaffInvitation: MANAGE,
  listStaff: MANAGE,
  updateStaff: MANAGE,
  // One's own sign-in: every signed-in person (a session, never an API key).
  getMe: ALL,
  signOut: ALL,
  listSessions: ALL,
  endSession: ALL,
});

/**
 * API keys act for a shop's own software: what a manager may do, within the key's scopes, except
 * these, which belong to a signed-in person (a key cannot mint keys or invite staff).
 */
export const NOT_FOR_API_KEYS: ReadonlySet<string> = new Set([
  'createApiKey',
  'listApiKeys',
  'revokeApiKey',
  'createStaffInvitation',
  'listStaff',
  'updateStaff',
  'getMe',
  'signOut',
  'listSessions',
  'endSession',
]);

/** Whether a role, or an API key (role null), may call the operation, by the table alone. */
export function roleMay(operationId: string, role: Role | null): boolean {
  const roles = ROLE_TABLE[operationId];
  if (!roles) return false;
  if (role === null) return roles.includes('manager') && !NOT_FOR_API_KEYS.has(operationId);
  return roles.includes(role);
}

/**
 * Where a role is limited to its own unit's records, and how the record is named. `roles` are the
 * roles the rule narrows: the `staff` role unless it says otherwise.
 */
export const RECORD_RULES: Readonly<
  Record<
    string,
    {
      kind: 'own_unit_appointment' | 'served_customer' | 'own_unit';
      from: 'body.appointment_id' | 'params.customerId' | 'params.unitId';
      roles?: readonly Role[];
    }
  >
> = Object.freeze({
  checkInAppointment: { kind: 'own_unit_appointment', from: 'body.appointment_id' },
  completeAppointment: { kind: 'own_unit_appointment', from: 'body.appointment_id' },
  markAppointmentNoShow: { kind: 'own_unit_appointment', from: 'body.appointment_id' },
  settleAppointment: { kind: 'own_unit_appointment', from: 'body.appointment_id' },
  getCustomer: { kind: 'served_customer', from: 'params.customerId' },
  listCustomerAttendance: { kind: 'served_customer', from: 'params.customerId' },
  getCustomerJourney: { kind: 'served_customer', from: 'params.customerId' },
  getUnitCalendarFeed: { kind: 'own_unit', from: 'params.unitId' },
  rotateUnitCalendarFeed: { kind: 'own_unit', from: 'params.unitId', roles: ['front_desk', 'staff'] },
});

/** The record rule that narrows a role on an operation, if any (API keys and other roles: none). */
export function recordRuleFor(operationId: string, role: Role | null) {
  const rule = RECORD_RULES[operationId];
  return rule && role && (rule.roles ?? ['staff']).includes(role) ? rule : undefined;
}
