// /api/v1/classes: the timetable's classes. Every operation needs the store's classes entitlement.
// Occurrences and bookings register under the same prefix (occurrences.routes.ts, class-bookings.routes.ts).
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { auth } from '../platform/auth/guard.ts';
import { merchantContext } from '../platform/context.ts';
import {
  ClassListQuery,
  ClassListResponse,
  ClassParams,
  ClassResponse,
  CreateClassBody,
  UpdateClassBody,
} from './classes.schemas.ts';
import * as classes from './classes.service.ts';

const tags = ['Classes'];
const read = auth.merchantRead({ entitlements: ['classes'] });
const write = auth.merchantWrite({ entitlements: ['classes'] });

export async function classesRoutes(app: FastifyInstance) {
  app.get<{ Querystring: Static<typeof ClassListQuery> }>('', {
    config: { auth: read },
    schema: {
      operationId: 'listClasses',
      tags,
      summary: 'List classes',
      description: 'Ordered by name. Archived classes only with include_archived=true.',
      querystring: ClassListQuery,
      response: { 200: ClassListResponse },
    },
    handler: (request) => classes.listClasses(merchantContext(request), request.query.include_archived ?? false),
  });

  app.post<{ Body: CreateClassBody }>('', {
    config: { auth: write },
    schema: {
      operationId: 'createClass',
      tags,
      summary: 'Create a class',
      description:
        'A class is what occurrences are scheduled from: its length, its capacity, its instructor (a unit, which each occurrence occupies) and how its waitlist promotes.',
      body: CreateClassBody,
      response: { 200: ClassResponse },
    },
    handler: (request) => classes.createClass(merchantContext(request), request.body),
  });

  app.get<{ Params: Static<typeof ClassParams> }>('/:classId', {
    config: { auth: read },
    schema: {
      operationId: 'getClass',
      tags,
      summary: 'Read a class',
      params: ClassParams,
      response: { 200: ClassResponse },
    },
    handler: (request) => classes.getClass(merchantContext(request), request.params.classId),
  });

  app.patch<{ Params: Static<typeof ClassParams>; Body: UpdateClassBody }>('/:classId', {
    config: { auth: write },
    schema: {
      operationId: 'updateClass',
      tags,
      summary: 'Update, archive or restore a class',
      description: [
        'Partial update: omitted fields are unchanged. archived true archives the class (never deletes it); false restores it.',
        'A capacity applies to the future occurrences that set none of their own: below the seats booked and offered in any of them it is refused (409 CAPACITY_BELOW_BOOKED) and nothing changes; raised, freed seats promote from the waitlist.',
        'Length and instructor apply to occurrences scheduled afterwards.',
      ].join('\n\n'),
      params: ClassParams,
      body: UpdateClassBody,
      response: { 200: ClassResponse },
    },
    handler: (request) => classes.updateClass(merchantContext(request), request.params.classId, request.body),
  });
}
