// The OpenAPI 3.1 document and the docs page come from the same schemas the routes validate with.
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ERRORS } from '../errors/error-codes.ts';
import { ErrorEnvelope } from './schemas.ts';
import { REPLAY_HEADER } from '../idempotency.ts';

const ERROR_REF = { $ref: 'ErrorEnvelope#' };

/**
 * Tags in docs-page order. A route's tag not listed here is still shown (after these); a new
 * surface adds its tag here in its place, before `Operator`.
 */
export const TAG_ORDER: Array<{ name: string; description: string }> = [
  {
    name: 'Appointments',
    description:
      'Book, move, check in, complete, cancel, mark no-show and settle appointments; search history by person.',
  },
  { name: 'Diary', description: "The store's diary by unit, and time-off entries." },
  { name: 'Units', description: 'Staff members, rooms or tables that appointments occupy.' },
  { name: 'Walk-in queue', description: 'The live walk-in queue: join, call, seat and remove.' },
  { name: 'Service periods', description: 'Named opening windows such as Lunch or Dinner.' },
  { name: 'Services', description: 'Bookable services with their variants and add-ons.' },
  {
    name: 'Online booking',
    description:
      "Online booking: settings, opening hours, availability, holds, deposits and the customer's own appointments.",
  },
  {
    name: 'Booking page',
    description:
      "The shop's own booking page at /book/{slug}: its public reads, the guest's hold, email code sign-in, confirm, and the manage link.",
  },
  {
    name: 'Classes',
    description:
      'Classes: the timetable (classes and their occurrences), bookings with capacity, the waitlist and its offers, check-in and no-show.',
  },
  { name: 'Customers', description: "The store's customers: edit, block, attendance, journey, roster and search." },
  {
    name: 'Import',
    description:
      "Bring a shop's customers and appointments in from CSV files: a dry run reports every row, then the real run writes the good ones.",
  },
  {
    name: 'Reports',
    description:
      'How the shop did over a range of its days: appointments, no-shows, utilisation, revenue and customers, as JSON or CSV.',
  },
  { name: 'Notification preferences', description: "The signed-in customer's per-store notification preferences." },
  {
    name: 'Events',
    description:
      "What changed, in order: the pull feed and the live stream (Server-Sent Events); each type's payload is under webhooks.",
  },
  {
    name: 'Webhooks',
    description:
      'Signed webhook endpoints of the store: register, rotate secrets, read the delivery log, retry and replay.',
  },
  {
    name: 'Staff',
    description:
      "The shop's own people: sign-in (password, passkey, OIDC), sessions, invitations, roles and store API keys. A session is the cookie bbo_session; an API key is sent as Authorization: Bearer bbo_live_....",
  },
  {
    name: 'Development',
    description:
      'Development only, absent when NODE_ENV=production: the development mailbox (messages and sign-in codes kept instead of sent).',
  },
  {
    name: 'Operator',
    description: "The deployment operator's surface (ADMIN_TOKEN); off when ADMIN_TOKEN is not set.",
  },
];

/**
 * webhooks: the OpenAPI `webhooks` map (every event type with its payload), assembled above the
 * platform from the features' schemas (events/event-payloads.ts) and handed in by buildApp.
 */
export async function registerOpenApi(app: FastifyInstance, webhooks: Record<string, unknown>) {
  app.addSchema(ErrorEnvelope);

  // Every documented route answers errors in the envelope and states its security.
  app.addHook('onRoute', (route) => {
    const rule = route.config?.auth;
    if (!rule || route.url.startsWith('/docs')) return;
    const schema = (route.schema ??= {});
    const response = ((schema as any).response ??= {});
    // A public operation says so (an empty requirement), as the booking page's do.
    if (rule.kind === 'public') (schema as any).security ??= [{}];
    if (rule.kind !== 'public') {
      response['4xx'] ??= ERROR_REF;
      response['5xx'] ??= ERROR_REF;
      (schema as any).security ??= [rule.kind === 'admin' ? { adminToken: [] } : { bearerAuth: [] }];
      const scopeNote =
        rule.kind === 'merchant'
          ? `Merchant token, scope ${rule.scope}${rule.entitlements?.length ? `; entitlements ${rule.entitlements.join(', ')}` : ''}${rule.permissions?.length ? `; permissions ${rule.permissions.join(', ')}` : ''}.`
          : rule.kind === 'customer'
            ? `Customer token, scope ${rule.scope}.`
            : rule.kind === 'merchant_or_customer'
              ? `Merchant token with scope ${rule.merchantScope}${rule.entitlements?.length ? ` and entitlements ${rule.entitlements.join(', ')}` : ''}, or customer token with scope ${rule.customerScope}.`
              : 'Operator surface: Authorization: Bearer <ADMIN_TOKEN>.';
      // One schema object can be shared by a route's variants (HEAD, trailing slash): note it once.
      const description: string | undefined = (schema as any).description;
      if (!description?.includes(scopeNote))
        (schema as any).description = [description, scopeNote].filter(Boolean).join('\n\n');
    }
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Bookings and customer back office API',
        version: '1.0.0',
        description: [
          'Merchant bookings, customer management and customer notification preferences.',
          'Every non-2xx answer is `{ "error": { "code", "message", "requestId" } }`; the codes are listed in `x-error-codes`.',
          `Mutating requests may carry \`Idempotency-Key\` (1-255 visible ASCII characters). The first successful result is stored for 24 hours with its effect; a retry with the same key and body replays it with the header \`${REPLAY_HEADER}: true\`; the same key with a different body answers 422 IDEMPOTENCY_KEY_REUSED; a duplicate while the first is still running answers 409 IDEMPOTENCY_IN_PROGRESS. Failed requests store nothing.`,
          'Rate limits answer 429 RATE_LIMITED with Retry-After.',
        ].join('\n\n'),
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      // Relative: the document describes the deployment that serves it.
      servers: [{ url: '/', description: 'This deployment' }],
      // The order of the docs page: the merchant and customer surfaces first, the operator's last.
      tags: TAG_ORDER,
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          adminToken: { type: 'http', scheme: 'bearer', description: 'The ADMIN_TOKEN of the deployment' },
          // What a webhook receiver checks (the `webhooks` map): not a credential the API accepts.
          webhookSignature: {
            type: 'apiKey',
            in: 'header',
            name: 'webhook-signature',
            description:
              "Standard Webhooks: `v1,<base64 HMAC-SHA256>` of `webhook-id.webhook-timestamp.body` with the endpoint's secret (space-separated during a rotation). See docs/webhooks.md.",
          },
        },
      },
      'x-error-codes': Object.fromEntries(Object.entries(ERRORS).map(([code, e]) => [code, e])),
      // Every event type with its payload (docs/events.md).
      webhooks,
    } as any,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });
  // staticCSP: the docs page's own policy (its scripts and styles by hash) replaces the API's
  // `default-src 'none'` from security-headers.ts on the /docs routes, so the page still renders.
  // Without upgrade-insecure-requests: a deployment served over plain HTTP (a local network, a
  // container behind its own proxy) would otherwise have its scripts requested over HTTPS and fail.
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    logLevel: 'warn',
    staticCSP: true,
    transformStaticCSP: (header) => header.replace(/\s*upgrade-insecure-requests;?/, ''),
  });
}
