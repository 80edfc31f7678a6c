// /api/v1/classes/{classId}/occurrences, /schedule and /occurrences...: scheduling, the timetable,
// cancelling, an occurrence's own capacity and its roster. Every operation needs the classes entitlement.
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { auth } from '../platform/auth/guard.ts';
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
  app.post<{ Params: Static<typeof ClassIdParams>; Body: CreateOccurrenceBody }>('/:classId/occurrences', {
    config: { auth: write },
    schema: {
      operationId: 'createClassOccurrence',
      tags,
      summary: 'Schedule one occurrence of a class',
      description: `starts_at must be in the future. ${occupies}`,
      params: ClassIdParams,
      body: CreateOccurrenceBody,
      response: { 200: OccurrenceResponse },
    },
    handler: (request) => occurrences.createOccurrence(merchantContext(request), request.params.classId, request.body),
  });

  app.post<{ Params: Static<typeof ClassIdParams>; Body: ScheduleBody }>('/:classId/schedule', {
    config: { auth: write },
    schema: {
      operationId: 'scheduleClassWeekly',
      tags,
      summary: 'Schedule a class weekly for the weeks ahead',
      description: `Creates weeks occurrences, the first at starts_at, each at the same store-local wall time (across a clock change). All or none. ${occupies}`,
      params: ClassIdParams,
      body: ScheduleBody,
      response: { 200: OccurrencesResponse },
    },
    handler: (request) => occurrences.scheduleWeekly(merchantContext(request), request.params.classId, request.body),
  });

  app.get<{ Querystring: Static<typeof TimetableQuery> }>('/occurrences', {
    config: { auth: read },
    schema: {
      operationId: 'listClassOccurrences',
      tags,
      summary: 'The timetable: occurrences on store-local days, with seats',
      description: `Occurrences starting on the store-local days from..to (inclusive, at most ${MAX_TIMETABLE_DAYS} days), in start order, each with booked (confirmed and attended), offered (promotion_pending), waitlisted and seats_left.`,
      querystring: TimetableQuery,
      response: { 200: OccurrencesResponse },
    },
    handler: (request) => occurrences.listOccurrences(merchantContext(request), request.query),
  });

  app.get<{ Params: Static<typeof OccurrenceParams> }>('/occurrences/:occurrenceId', {
    config: { auth: read },
    schema: {
      operationId: 'getClassOccurrence',
      tags,
      summary: 'An occurrence and its roster',
      description:
        'Every booking: seats first (by when booked), then the waitlist in order, then cancelled and lapsed ones.',
      params: OccurrenceParams,
      response: { 200: RosterResponse },
    },
    handler: (request) => occurrences.getRoster(merchantContext(request), request.params.occurrenceId),
  });

  app.patch<{ Params: Static<typeof OccurrenceParams>; Body: Static<typeof OccurrenceCapacityBody> }>(
    '/occurrences/:occurrenceId',
    {
      config: { auth: write },
      schema: {
        operationId: 'updateClassOccurrence',
        tags,
        summary: "Set an occurrence's own capacity",
        description:
          "null returns it to the class's. Below the seats booked and offered: 409 CAPACITY_BELOW_BOOKED, nothing changes; raised: freed seats promote from the waitlist.",
        params: OccurrenceParams,
        body: OccurrenceCapacityBody,
        response: { 200: OccurrenceResponse },
      },
      handler: (request) =>
        occurrences.setOccurrenceCapacity(merchantContext(request), request.params.occurrenceId, request.body.capacity),
    },
  );

  app.post<{ Params: Static<typeof OccurrenceParams>; Body: Static<typeof StoreOnlyBody> }>(
    '/occurrences/:occurrenceId/cancel',
    {
      config: { auth: write },
      schema: {
        operationId: 'cancelClassOccurrence',
        tags,
        summary: 'Cancel an occurrence',
        description:
          "Frees the instructor's time and cancels every booking, waitlist place and offer, each told (class.booking.cancelled with reason occurrence_cancelled). Again: nothing changes.",
        params: OccurrenceParams,
        body: StoreOnlyBody,
        response: { 200: OccurrenceResponse },
      },
      handler: (request) => occurrences.cancelOccurrence(merchantContext(request), request.params.occurrenceId),
    },
  );
}
