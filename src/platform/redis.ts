// The one way the service opens Redis (REDIS_URL): shared rate limits (http/rate-limit.ts) and the
// replica's write positions (db/read-routing.open.ts). ioredis is loaded only here, when a URL is
// set, so a shop without Redis never loads it (docs/decisions/embedded-engine.md). Errors are logged
// under the caller's name, never with the URL (it may carry a password).
import type { Redis } from 'ioredis';

export async function openRedis(url: string, onError: (err: Error) => void): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, {
    connectTimeout: 2_000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    lazyConnect: false,
  });
  redis.on('error', onError);
  return redis;
}
