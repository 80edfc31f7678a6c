// One HTTP attempt: POST the event to the endpoint, connected to the address the target guard
// checked (a second lookup could answer differently: DNS rebinding). Redirects are not followed
// (a 3xx is a failure), the whole attempt is bounded by a timeout, and at most 1 KB of the answer
// is kept. Secrets and bodies are never logged here: the result carries only status, error text,
// duration and the kept answer.
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { checkUrlForm, resolveTarget, TargetRefused, type Resolver, type TargetRules } from './target-guard.ts';

export const ATTEMPT_TIMEOUT_MS = 15_000;
export const KEPT_BODY_BYTES = 1024;
/** Answers longer than this are cut off (the connection is dropped rather than drained). */
const DRAIN_LIMIT_BYTES = 64 * 1024;

export interface AttemptResult {
  ok: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
  body: string | null;
  retryAfter: string | null;
}

export interface SendOptions {
  rules: TargetRules;
  resolve?: Resolver;
  timeoutMs?: number;
  agents?: Agents;
}

export interface Agents {
  http: http.Agent;
  https: https.Agent;
}

/** Keep-alive connections per target (one set per worker): a busy endpoint is not a new TCP and TLS handshake per event. */
export function createAgents(): Agents {
  return {
    http: new http.Agent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 10_000 }),
    https: new https.Agent({ keepAlive: true, maxSockets: 256, keepAliveMsecs: 10_000 }),
  };
}

/** Closes the worker's connections (a stopped worker leaves no open handles). */
export function destroyAgents(agents: Agents): void {
  agents.http.destroy();
  agents.https.destroy();
}

export async function sendAttempt(
  rawUrl: string,
  headers: Record<string, string>,
  body: string,
  options: SendOptions,
): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string, status: number | null = null): AttemptResult => ({
    ok: false,
    status,
    error,
    durationMs: elapsed(),
    body: null,
    retryAfter: null,
  });
  let target;
  let url: URL;
  try {
    url = checkUrlForm(rawUrl, options.rules);
    target = await resolveTarget(url, options.rules, options.resolve);
  } catch (err) {
    if (err instanceof TargetRefused) return failed(`refused: ${err.message}`);
    throw err;
  }
  const pinned: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) (cb as any)(null, [{ address: target.address, family: target.family }]);
    else cb(null, target.address, target.family);
  };
  const secure = url.protocol === 'https:';
  const timeoutMs = options.timeoutMs ?? ATTEMPT_TIMEOUT_MS;

  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = (secure ? https : http).request(url, {
      method: 'POST',
      agent: options.agents ? (secure ? options.agents.https : options.agents.http) : false,
      lookup: pinned,
      headers: {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'bookings-webhooks/1',
        ...headers,
      },
    });
    // The whole attempt (connect, send, answer) within the timeout.
    const timer = setTimeout(() => {
      req.destroy();
      finish(failed(`timeout after ${timeoutMs} ms`));
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) =>
      finish(failed(err.code ? `${err.code}: ${err.message}`.slice(0, 300) : err.message.slice(0, 300))),
    );
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const chunks: Buffer[] = [];
      let kept = 0;
      let seen = 0;
      const done = (cut: boolean) => {
        const text = Buffer.concat(chunks).toString('utf8');
        const ok = status >= 200 && status < 300;
        const error = ok
          ? null
          : status >= 300 && status < 400
            ? `redirect (${status}) not followed`
            : `HTTP ${status}`;
        const retryAfter = typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null;
        if (cut) res.destroy();
        finish({ ok, status, error, durationMs: elapsed(), body: text, retryAfter });
      };
      res.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (kept < KEPT_BODY_BYTES) {
          const part = chunk.subarray(0, KEPT_BODY_BYTES - kept);
          chunks.push(part);
          kept += part.length;
        }
        if (seen > DRAIN_LIMIT_BYTES) done(true);
      });
      res.on('end', () => done(false));
      res.on('error', () => done(true));
    });
    req.end(body);
  });
}
