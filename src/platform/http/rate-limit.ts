// Rate limits: a generous global ceiling per principal, and tighter limits on the operations the
// spec marks. In memory by default; shared through Redis when REDIS_URL is set, so several server
// processes draw on one budget (../redis.ts opens it).
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { principalOf } from '../auth/actor.ts';
import { AppError } from '../errors/app-error.ts';
import { openRedis } from '../redis.ts';

export interface RateLimitSettings {
  globalPerMinute: number;
  redisUrl: string | null;
}

function keyFor(request: FastifyRequest): string {
  return request.actor ? principalOf(request.actor) : `ip:${request.ip}`;
}

export async function registerRateLimits(app: FastifyInstance, settings: RateLimitSettings): Promise<Redis | null> {
  const redis = settings.redisUrl
    ? await openRedis(settings.redisUrl, (err) => app.log.warn({ err: { message: err.message } }, 'redis error'))
    : null;
  await app.register(rateLimit, {
    global: true,
    max: settings.globalPerMinute,
    timeWindow: 60_000,
    // Runs after the auth guard (onRequest) so the budget belongs to the principal, not the IP.
    hook: 'preValidation',
    keyGenerator: keyFor,
    redis: redis ?? undefined,
    nameSpace: 'bbo-rl:',
    // If Redis is unreachable, serve rather than refuse everyone.
    skipOnError: true,
    allowList: (request) => request.routeOptions.config?.auth?.kind === 'public',
    errorResponseBuilder: (_request, context) =>
      Object.assign(new AppError('RATE_LIMITED', `Too many requests; retry in ${context.after}`), { statusCode: 429 }),
  });
  return redis;
}

/** Per-route limit for the operations the spec marks as rate limited. */
export const routeLimit = (max: number) => ({ max, timeWindow: 60_000, keyGenerator: keyFor });
