// TRUST_PROXY: the proxies (addresses or CIDRs, comma-separated) whose X-Forwarded-For is believed.
// A request's address (request.ip, which every per-address limit reads) is then the nearest address
// in X-Forwarded-For not itself a trusted proxy (proxy-addr, through Fastify's trustProxy). Unset, the
// socket's address counts and forwarded headers are ignored: anyone can write X-Forwarded-For.
import { isIP } from 'node:net';

export function parseTrustProxy(raw: string | undefined, fail: (message: string) => never): readonly string[] | null {
  const list = (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!list.length) return null;
  for (const entry of list) {
    const [address, bits, ...rest] = entry.split('/');
    const family = isIP(address);
    const maxBits = family === 4 ? 32 : 128;
    const bitsOk = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits);
    if (!family || !bitsOk || rest.length)
      fail(`TRUST_PROXY must be a comma-separated list of IP addresses or CIDRs such as 10.0.0.0/8 (got "${entry}")`);
  }
  return Object.freeze(list);
}
