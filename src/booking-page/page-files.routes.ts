// The booking page's built files (booking-page/dist, built by Vite from booking-page/), served by
// this same process:
// - /book/{slug} and /book/{slug}/manage: index.html rendered for the shop (page-html.ts: its head,
//   first screen, config and inlined stylesheet), for an enabled page only (an unknown slug and a
//   page switched off answer the same plain 404), revalidated on every visit (no-cache, not no-store:
//   the back/forward cache may keep it), with a Content-Security-Policy whose frame-ancestors
//   is the store's cors_origins ('none' when the list is empty): only the shop's own sites can frame
//   it. No X-Frame-Options here (DENY would override frame-ancestors in older browsers);
// - /book/assets/*: the hashed assets, immutable; /book/embed.js: the embed script; /favicon.ico;
// - compression: @fastify/compress (registered in app.ts) compresses these files when accepted.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { auth } from '../platform/auth/guard.ts';
import { AppError } from '../platform/errors/app-error.ts';
import { CONSOLE_DIST } from '../console/console.routes.ts';
import { storeBySlug } from './booking-page.repository.ts';
import type { Database } from '../platform/db/port.ts';
import type { BookingPageResponse } from './booking-page.schemas.ts';
import { renderPage } from './page-html.ts';

export const PAGE_DIST = fileURLToPath(new URL('../../booking-page/dist/', import.meta.url));
const PAGE_PUBLIC = fileURLToPath(new URL('../../booking-page/public/', import.meta.url));
const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,48}[a-z0-9])?$/;

/** The page's policy: everything from this origin only, framed only by the store's own sites. */
export function pageCsp(frameAncestors: readonly string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // The ALTCHA widget styles its own element.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    `frame-ancestors ${frameAncestors.length ? frameAncestors.join(' ') : "'none'"}`,
  ].join('; ');
}

const NOT_BUILT =
  'The booking page is not built. Run "npm run booking-page:build" (npm install does it through the prepare script).\n';
const NO_PAGE = 'There is no booking page here.\n';

function pageHeaders(reply: FastifyReply, frameAncestors: readonly string[]) {
  reply.header('content-security-policy', pageCsp(frameAncestors));
  reply.removeHeader('x-frame-options');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-content-type-options', 'nosniff');
}

/** The first of these files that exists (dist first: Vite copies public/ into it). */
const firstOf = (...paths: Array<[root: string, file: string]>) =>
  paths.find(([root, file]) => existsSync(`${root}${file}`)) ?? null;

/** The built index.html and its stylesheet, read again only when the build changes. */
function builtTemplate(root: string) {
  let cached: { mtime: number; html: string; css: string | null } | null = null;
  return () => {
    const mtime = statSync(`${root}index.html`).mtimeMs;
    if (cached?.mtime !== mtime) {
      const html = readFileSync(`${root}index.html`, 'utf8');
      const href = /<link rel="stylesheet"[^>]*href="\/book\/(assets\/[\w.-]+\.css)"/.exec(html)?.[1];
      cached = {
        mtime,
        html,
        css: href && existsSync(`${root}${href}`) ? readFileSync(`${root}${href}`, 'utf8') : null,
      };
    }
    return cached;
  };
}

export interface PageFilesOptions {
  db: Database;
  /** The page's public config (getBookingPage), rendered into its HTML. */
  pageConfig: (slug: string) => Promise<BookingPageResponse>;
  /** PUBLIC_URL: the page's canonical and preview address. */
  publicUrl: string;
  root?: string;
}

export async function pageFilesRoutes(app: FastifyInstance, opts: PageFilesOptions) {
  const root = opts.root ?? PAGE_DIST;
  await app.register(fastifyStatic, { root, serve: false, decorateReply: true });
  const common = { config: { auth: auth.public() }, schema: { hide: true } } as const;
  const template = builtTemplate(root);

  async function page(slug: string, reply: FastifyReply, manage: boolean) {
    const store = SLUG.test(slug) ? await storeBySlug(opts.db, slug) : null;
    if (!store) {
      pageHeaders(reply, []);
      return reply.code(404).type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(NO_PAGE);
    }
    pageHeaders(reply, store.cors_origins);
    if (!existsSync(`${root}index.html`)) return reply.code(503).type('text/plain; charset=utf-8').send(NOT_BUILT);
    const built = template();
    const { page: config } = await opts.pageConfig(slug);
    const html = renderPage(built.html, built.css, {
      page: config,
      url: `${opts.publicUrl}/book/${config.slug}`,
      manage,
    });
    // The HTML names the current hashed assets and the shop as it is now: revalidated on every visit.
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
  }

  app.get<{ Params: { slug: string } }>('/book/:slug', common, (request, reply) =>
    page(request.params.slug, reply, false),
  );
  app.get<{ Params: { slug: string } }>('/book/:slug/manage', common, (request, reply) =>
    page(request.params.slug, reply, true),
  );

  app.get<{ Params: { '*': string } }>('/book/assets/*', common, (request, reply) => {
    const file = request.params['*'];
    if (!/^[\w.-]+$/.test(file) || !existsSync(`${root}assets/${file}`)) {
      throw new AppError('ROUTE_NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0]}`);
    }
    pageHeaders(reply, []);
    return reply.sendFile(`assets/${file}`, root, { maxAge: 31_536_000_000, immutable: true });
  });

  app.get('/book/embed.js', common, (request, reply) => {
    const found = firstOf([root, 'embed.js'], [PAGE_PUBLIC, 'embed.js']);
    if (!found) throw new AppError('ROUTE_NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0]}`);
    // Shops paste the script tag once; an hour's cache lets a fix reach them the same day. It is
    // loaded by the shop's own site, another origin: the app's Cross-Origin-Resource-Policy
    // (same-origin) would make the browser refuse it.
    return reply
      .header('cache-control', 'public, max-age=3600')
      .header('cross-origin-resource-policy', 'cross-origin')
      .sendFile('embed.js', found[0], { cacheControl: false });
  });

  // One icon for the page and the console (the browser asks for it on every page).
  app.get('/favicon.ico', common, (request, reply) => {
    const found = firstOf([root, 'favicon.ico'], [PAGE_PUBLIC, 'favicon.ico'], [CONSOLE_DIST, 'favicon.ico']);
    if (!found) throw new AppError('ROUTE_NOT_FOUND', `No route for ${request.method} ${request.url.split('?')[0]}`);
    return reply
      .header('cache-control', 'public, max-age=86400')
      .sendFile('favicon.ico', found[0], { cacheControl: false });
  });
}
