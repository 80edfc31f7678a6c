// The booking page as one plugin: its API under /api/v1/book and its built files under /book.
import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { bookingPageRoutes } from './booking-page.routes.ts';
import { pageFilesRoutes } from './page-files.routes.ts';
import { pageDeps } from './page-deps.ts';
import { getBookingPage } from './booking-page.service.ts';
import { pageReads } from './page-context.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Redis client the rate limits share (REDIS_URL), or null. */
    sharedRedis: Redis | null;
  }
}

export async function bookingPage(app: FastifyInstance) {
  const deps = pageDeps(app, app.hasDecorator('sharedRedis') ? app.sharedRedis : null);
  await app.register(bookingPageRoutes, { prefix: '/api/v1/book', deps });
  await app.register(pageFilesRoutes, {
    db: deps.db,
    pageConfig: (slug) => getBookingPage(pageReads(deps), slug),
    publicUrl: deps.config.bookingPage.publicUrl,
  });
}
