// Micro-benchmark behind a finding in docs/performance/history/round-1.md: verifying the bearer token
// (src/platform/auth/tokens.ts, jose over WebCrypto) on every request. Measures the service's own
// verify() against the same verify() behind a small cache of already-verified tokens.
// Run: ./node_modules/.bin/node bench/micro/token-verify.ts
import { loadConfig } from '../../src/config.ts';
import { createTokenService } from '../../src/platform/auth/tokens.ts';

const config = loadConfig({ AUTH_SECRET: 'x'.repeat(48) } as NodeJS.ProcessEnv);
const tokens = createTokenService(config);
const { token } = await tokens.sign(
  { kind: 'merchant', store_id: '7026be03-65fc-6320-8bc0-7e26b0d87077', user_id: 'u1' },
  3600,
);

async function time(label: string, verify: (t: string) => Promise<unknown>, n = 20_000, concurrency = 32) {
  for (let i = 0; i < 2_000; i++) await verify(token);
  const t0 = performance.now();
  let left = n;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0) await verify(token);
    }),
  );
  console.log(
    `${label}: ${(((performance.now() - t0) * 1000) / n).toFixed(1)} µs per request (${concurrency} in flight)`,
  );
}

const cache = new Map<string, { actor: unknown; exp: number }>();
async function cached(t: string) {
  const hit = cache.get(t);
  if (hit && hit.exp > Date.now()) return hit.actor;
  const actor = await tokens.verify(t);
  cache.set(t, { actor, exp: Date.now() + 60_000 });
  return actor;
}
await time('jose verify per request', (t) => tokens.verify(t));
await time('verified-token cache', cached);
