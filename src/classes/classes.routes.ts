// /api/v1/classes: the timetable's classes. Every operation needs the store's classes entitlement.
// Occurrences and bookings register under the same prefix (occurrences.routes.ts, class-bookings.routes.ts).
import type { FastifyInstance } from 'fastify';
import { auth } from '../platform/auth/guard.ts';
import { declareRoutes } from '../platform/http/route.ts';
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
  const route = declareRoutes(app, { tags });
  route.get('', 'listClasses', read, {
    summary: 'List classes',
    description: 'Ordered by name. Archived classes only with include_archived=true.',
    schema: { querystring: ClassListQuery, response: { 200: ClassListResponse } },
    handler: (request) => classes.listClasses(merchantContext(request), request.query.include_archived ?? false),
  });

  route.post('', 'createClass', write, {
    summary: 'Create a class',
    description:
      'A class is what occurrences are scheduled from: its length, its capacity, its instructor (a unit, which each occurrence occupies) and how its waitlist promotes.',
    schema: { body: CreateClassBody, response: { 200: ClassResponse } },
    handler: (request) => classes.createClass(merchantContext(request), request.body),
  });

  route.get('/:classId', 'getClass', read, {
    summary: 'Read a class',
    schema: { params: ClassParams, response: { 200: ClassResponse } },
    handler: (request) => classes.getClass(merchantContext(request), request.params.classId),
  });

  route.patch('/:classId', 'updateClass', write, {
    summary: 'Update, archive or restore a class',
    description: [
      'Partial update: omitted fields are unchanged. archived true archives the class (never deletes it); false restores it.',
      'A capacity applies to the future occurrences that set none of their own: below the seats booked and offered in any of them it is refused (409 CAPACITY_BELOW_BOOKED) and nothing changes; raised, freed seats promote from the waitlist.',
      'Length and instructor apply to occurrences scheduled afterwards.',
    ].join('\n\n'),
    schema: { params: ClassParams, body: UpdateClassBody, response: { 200: ClassResponse } },
    handler: (request) => classes.updateClass(merchantContext(request), request.params.classId, request.body),
  });
}
