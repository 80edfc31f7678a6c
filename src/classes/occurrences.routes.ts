// /api/v1/classes/{classId}/occurrences, /schedule and /occurrences...: scheduling, the timetable,
// cancelling, an occurrence's own capacity and its roster. Every operation needs the classes entitlement.
import type { FastifyInstance } from 'fastify';
import { auth } from '../platform/auth/guard.ts';
import { declareRoutes } from '../platform/http/route.ts';
import { merchantContext } from '../platform/context.ts';
import {
  ClassIdParams,
  CreateOccurrenceBody,
  OccurrenceCapacityBody,
  OccurrenceParams,
  OccurrenceResponse,
  OccurrencesResponse,
  RosterResponse,
  ScheduleBody,
  TimetableQuery,
  MAX_TIMETABLE_DAYS,
} from './occurrences.schemas.ts';
import { StoreOnlyBody } from './classes.schemas.ts';
import * as occurrences from './occurrences.service.ts';

const tags = ['Classes'];
const read = auth.merchantRead({ entitlements: ['classes'] });
const write = auth.merchantWrite({ entitlements: ['classes'] });
const occupies =
  "The occurrence occupies its instructor's unit (its own instructor_unit_id, else the class's) through the constraint that keeps appointments and holds apart: an appointment or a class in the way answers 409 SLOT_TAKEN, time-off or a hold 409 UNIT_UNAVAILABLE.";

export async function occurrencesRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags });
  route.post('/:classId/occurrences', 'createClassOccurrence', write, {
    summary: 'Schedule one occurrence of a class',
    description: `starts_at must be in the future. ${occupies}`,
    schema: { params: ClassIdParams, body: CreateOccurrenceBody, response: { 200: OccurrenceResponse } },
    handler: (request) => occurrences.createOccurrence(merchantContext(request), request.params.classId, request.body),
  });

  route.post('/:classId/schedule', 'scheduleClassWeekly', write, {
    summary: 'Schedule a class weekly for the weeks ahead',
    description: `Creates weeks occurrences, the first at starts_at, each at the same store-local wall time (across a clock change). All or none. ${occupies}`,
    schema: { params: ClassIdParams, body: ScheduleBody, response: { 200: OccurrencesResponse } },
    handler: (request) => occurrences.scheduleWeekly(merchantContext(request), request.params.classId, request.body),
  });

  route.get('/occurrences', 'listClassOccurrences', read, {
    summary: 'The timetable: occurrences on store-local days, with seats',
    description: `Occurrences starting on the store-local days from..to (inclusive, at most ${MAX_TIMETABLE_DAYS} days), in start order, each with booked (confirmed and attended), offered (promotion_pending), waitlisted and seats_left.`,
    schema: { querystring: TimetableQuery, response: { 200: OccurrencesResponse } },
    handler: (request) => occurrences.listOccurrences(merchantContext(request), request.query),
  });

  route.get('/occurrences/:occurrenceId', 'getClassOccurrence', read, {
    summary: 'An occurrence and its roster',
    description:
      'Every booking: seats first (by when booked), then the waitlist in order, then cancelled and lapsed ones.',
    schema: { params: OccurrenceParams, response: { 200: RosterResponse } },
    handler: (request) => occurrences.getRoster(merchantContext(request), request.params.occurrenceId),
  });

  route.patch('/occurrences/:occurrenceId', 'updateClassOccurrence', write, {
    summary: "Set an occurrence's own capacity",
    description:
      "null returns it to the class's. Below the seats booked and offered: 409 CAPACITY_BELOW_BOOKED, nothing changes; raised: freed seats promote from the waitlist.",
    schema: { params: OccurrenceParams, body: OccurrenceCapacityBody, response: { 200: OccurrenceResponse } },
    handler: (request) =>
      occurrences.setOccurrenceCapacity(merchantContext(request), request.params.occurrenceId, request.body.capacity),
  });

  route.post('/occurrences/:occurrenceId/cancel', 'cancelClassOccurrence', write, {
    summary: 'Cancel an occurrence',
    description:
      "Frees the instructor's time and cancels every booking, waitlist place and offer, each told (class.booking.cancelled with reason occurrence_cancelled). Again: nothing changes.",
    schema: { params: OccurrenceParams, body: StoreOnlyBody, response: { 200: OccurrenceResponse } },
    handler: (request) => occurrences.cancelOccurrence(merchantContext(request), request.params.occurrenceId),
  });
}
