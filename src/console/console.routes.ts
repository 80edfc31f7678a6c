// The merchant console: the built single-page app (console/dist) served at /console from this same
// process. The files are public (they hold no data; every API call they make carries the merchant's
// bearer token), and every route declares that rule like any other. The pages get a strict
// Content-Security-Policy: scripts and styles only from this origin, no inline script, no framing.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { auth } from '../platform/auth/guard.ts';
import { AppError } from '../platform/errors/app-error.ts';

export const CONSOLE_DIST = fileURLToPath(new URL('../../console/dist/', import.meta.url));

// connect-src 'self': the API and the events stream are on this origin. No 'unsafe-inline' anywhere.
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

function securityHeaders(reply: FastifyReply) {
  reply.header('content-security-policy', CONSOLE_CSP);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-frame-options', 'DENY');
  reply.header('cross-origin-opener-policy', 'same-origin');
}

const NOT_BUILT = `The console is not built. Run "npm run console:build" (npm install does it through the prepare script).\n`;

export async function consoleRoutes(app: FastifyInstance, opts: { root?: string } = {}) {
  const root = opts.root ?? CONSOLE_DIST;
  // serve: false: the routes below are declared here, each with its auth rule; the plugin only streams files.
  await app.register(fastifyStatic, { root, serve: false, decorateReply: true });

  // Encapsulated: these headers apply to the console's routes only (the API and /docs keep their own).
  app.addHook('onSend', async (_request, reply, payload) => {
    securityHeaders(reply);
    return payload;
  });

  const common = { config: { auth: auth.public() }, schema: { hide: true } } as const;

  app.get('/console', common, (_request, reply) => reply.redirect('/console/', 302));

  app.get('/console/', common, (_request, reply) => {
    if (!existsSync(`${root}/index.html`)) return reply.code(503).type('text/plain').send(NOT_BUILT);
    // The page itself is never cached (it names the current hashed assets); the assets are immutable.
    return reply.header('cache-control', 'no-store').sendFile('index.html', { cacheControl: false });
  });

  app.get<{ Params: { '*': string } }>('/console/*', common, (request, reply) => {
    const file = request.params['*'];
    // Only the build's hashed assets; anything else is the ordinary 404 (not the router's not-found
    // handler, which would see this wildcard's HEAD route and answer 405).
    if (!/^assets\/[\w.-]+$/.test(file) || file.includes('..') || !existsSync(`${root}/${file}`)) {
      throw new AppError('ROUTE_NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0]}`);
    }
    return reply.sendFile(file, { maxAge: 31_536_000_000, immutable: true });
  });
}
