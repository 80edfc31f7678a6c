// Where a webhook may be sent (SSRF guard). A URL is checked when it is registered and again before
// every attempt, because a name can resolve elsewhere later (DNS rebinding): the name is resolved,
// EVERY address it resolves to must be public, and the request then connects to the address that was
// checked, never to a second lookup's answer.
import dns from 'node:dns';
import net from 'node:net';
import { AppError } from '../platform/errors/app-error.ts';

export interface TargetRules {
  /** https only (NODE_ENV=production). */
  requireHttps: boolean;
  /** Private, loopback and link-local addresses allowed (WEBHOOK_ALLOW_PRIVATE_TARGETS). */
  allowPrivate: boolean;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (dns.lookup with all: the resolver the OS uses). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

// Addresses that are not the public internet: this host, private networks, link-local (cloud
// metadata services live at 169.254.169.254), carrier-grade NAT, multicast, reserved and
// documentation ranges, and the IPv6 equivalents.
const blocked = new net.BlockList();
for (const [prefix, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  blocked.addSubnet(prefix, bits, 'ipv4');
for (const [prefix, bits] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['64:ff9b::', 96],
  ['100::', 64],
] as const)
  blocked.addSubnet(prefix, bits, 'ipv6');

/** True when the address is loopback, private, link-local or otherwise not a public host. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family === 6) {
    // An IPv4 address written as IPv6 (::ffff:10.0.0.1) is that IPv4 address.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return blocked.check(mapped[1], 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return true; // not an address at all: refuse rather than guess
}

export class TargetRefused extends Error {}

/** Checks the URL's form: http(s), https when required, no credentials, a host. */
export function checkUrlForm(raw: string, rules: TargetRules): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused('url must be an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TargetRefused('url must be http or https');
  if (rules.requireHttps && url.protocol !== 'https:') throw new TargetRefused('url must be https');
  if (url.username || url.password) throw new TargetRefused('url must not carry credentials');
  if (!url.hostname) throw new TargetRefused('url must name a host');
  return url;
}

/**
 * Resolves the URL's host and checks every address; returns the address to connect to. Throws
 * TargetRefused when the target is not allowed or does not resolve.
 */
export async function resolveTarget(
  url: URL,
  rules: TargetRules,
  resolve: Resolver = systemResolver,
): Promise<ResolvedAddress> {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let addresses: ResolvedAddress[];
  const literal = net.isIP(host);
  if (literal) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      throw new TargetRefused(`the host ${host} does not resolve`);
    }
    if (addresses.length === 0) throw new TargetRefused(`the host ${host} does not resolve`);
  }
  if (!rules.allowPrivate) {
    for (const a of addresses) {
      if (isPrivateAddress(a.address)) {
        throw new TargetRefused(
          `the host ${host} resolves to a private, loopback or link-local address, which webhooks may not target`,
        );
      }
    }
  }
  return addresses[0];
}

/** The registration check: form and addresses; a refusal is a 400 with a clear code. */
export async function assertTargetAllowed(raw: string, rules: TargetRules, resolve?: Resolver): Promise<string> {
  try {
    const url = checkUrlForm(raw, rules);
    await resolveTarget(url, rules, resolve);
    return url.toString();
  } catch (err) {
    if (err instanceof TargetRefused) throw new AppError('WEBHOOK_TARGET_REFUSED', err.message);
    throw err;
  }
}
