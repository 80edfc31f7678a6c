// SMS through Twilio's Messages REST API shape: POST {base}/2010-04-01/Accounts/{sid}/Messages.json,
// form-encoded To, From and Body, HTTP basic auth (account SID and auth token). The base URL is
// configurable so a local server can stand in for the provider. Only E.164 numbers are sent.
import { SendFailure, type OutgoingMessage, type Transport } from './transport.ts';

export interface SmsOptions {
  baseUrl: string;
  accountSid: string;
  authToken: string;
  from: string;
  timeoutMs?: number;
}

export const E164 = /^\+[1-9][0-9]{6,14}$/;

// Twilio error codes that will never succeed for this message (invalid or unreachable number,
// unsubscribed recipient): https://www.twilio.com/docs/api/errors
const PERMANENT_CODES = new Set([21211, 21214, 21217, 21219, 21408, 21610, 21612, 21614]);

export function smsTransport(options: SmsOptions): Transport {
  const url = `${options.baseUrl.replace(/\/+$/, '')}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`;
  const auth = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;
  return {
    channel: 'sms',
    async send(m: OutgoingMessage) {
      if (!E164.test(m.to)) throw new SendFailure('invalid_number', true);
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ To: m.to, From: options.from, Body: m.text.trim() }).toString(),
          signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
        });
      } catch (err: any) {
        throw new SendFailure(err?.name === 'TimeoutError' ? 'sms_timeout' : 'sms_unreachable', false);
      }
      const body: any = await res.json().catch(() => null);
      if (res.ok) return { providerId: typeof body?.sid === 'string' ? body.sid : null };
      const code = typeof body?.code === 'number' ? body.code : null;
      // 429 and 5xx are the provider's trouble, 401/403 our credentials': both may clear. Other 4xx
      // refuse this message for good.
      const permanent =
        (code !== null && PERMANENT_CODES.has(code)) ||
        (res.status >= 400 && res.status < 500 && ![401, 403, 429].includes(res.status));
      throw new SendFailure(code !== null ? `sms_${res.status}_${code}` : `sms_${res.status}`, permanent);
    },
    async close() {},
  };
}
