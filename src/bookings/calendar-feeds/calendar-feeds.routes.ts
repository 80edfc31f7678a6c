// GET/POST /api/v1/bookings/units/{unitId}/calendar-feed (the URL, a rotation) and the public feed
// GET /feeds/{token}.ics that calendars subscribe to.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { auth } from '../../platform/auth/guard.ts';
import { declareRoutes } from '../../platform/http/route.ts';
import { merchantContext } from '../../platform/context.ts';
import { AppError } from '../../platform/errors/app-error.ts';
import { UnitParams } from '../units/unit.schemas.ts';
import { feedUrl, readFeed, rotateFeed } from './calendar-feeds.service.ts';

const FeedUrl = Type.Object(
  {
    url: Type.String({
      description: "The unit's secret feed, https://.../feeds/{token}.ics: anyone with it can read the unit's diary",
    }),
  },
  { additionalProperties: false },
);

export async function calendarFeedRoutes(app: FastifyInstance) {
  const secret = app.deps.config.authSecret;
  // PUBLIC_URL: where calendars reach this service (an absolute URL they can subscribe to).
  const origin = app.deps.config.bookingPage.publicUrl;
  const route = declareRoutes(app, { tags: ['Units'] });
  route.get('/:unitId/calendar-feed', 'getUnitCalendarFeed', auth.merchantRead(), {
    summary: "The unit's secret calendar feed URL (ICS), for Google, Apple or Outlook calendars",
    description:
      "The feed holds the unit's appointments from 30 days back to 180 days ahead. The same URL is answered until it is rotated.",
    schema: { params: UnitParams, response: { 200: FeedUrl } },
    handler: async (request) => feedUrl(merchantContext(request), secret, origin, request.params.unitId),
  });

  route.post('/:unitId/calendar-feed', 'rotateUnitCalendarFeed', auth.merchantWrite(), {
    summary: "Rotate the unit's calendar feed: a new URL; the old one answers 404 at once",
    schema: { params: UnitParams, response: { 200: FeedUrl } },
    handler: async (request) => rotateFeed(merchantContext(request), secret, origin, request.params.unitId),
  });
}

/** The feed itself: public (the token is the credential), hidden from the API document. */
export async function calendarFeedFileRoutes(app: FastifyInstance) {
  app.get<{ Params: { file: string } }>(
    '/feeds/:file',
    { config: { auth: auth.public() }, schema: { hide: true } as any },
    async (request, reply) => {
      const file = request.params.file;
      const feed = file.endsWith('.ics') ? await readFeed(app.deps.db, app.deps.clock, file.slice(0, -4)) : null;
      if (!feed) throw new AppError('NOT_FOUND', 'Feed not found');
      // private: one person's diary; no-cache: keep it, but ask each time (the ETag makes that cheap).
      reply
        .header('cache-control', 'private, no-cache')
        .header('etag', feed.etag)
        .header('last-modified', feed.lastModified.toUTCString());
      const inm = request.headers['if-none-match'];
      const ims = request.headers['if-modified-since'];
      const fresh =
        inm !== undefined
          ? inm
              .split(',')
              .map((t) => t.trim().replace(/^W\//, ''))
              .includes(feed.etag)
          : ims !== undefined && !Number.isNaN(Date.parse(ims)) && Date.parse(ims) >= feed.lastModified.getTime();
      if (fresh) return reply.code(304).send();
      return reply.type('text/calendar; charset=utf-8').send(Buffer.from(feed.body));
    },
  );
}
