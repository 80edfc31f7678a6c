// Customer messages' settings (SMTP_*, MAIL_FROM, SMS_*, MESSAGES_*), parsed once with the rest of
// the configuration (src/config.ts): the channels and the planner and sender loop.
import { ConfigError, flag, int, text, type Env } from '../../platform/config/env-values.ts';

export interface MessagesConfig {
  /** smtp:// or smtps:// with credentials in the URL; null keeps email in the local mailbox. */
  readonly smtpUrl: string | null;
  readonly smtpMaxConnections: number;
  readonly mailFrom: string;
  /** Twilio-shaped SMS API; null (no SID, token or sender) keeps texts in the local mailbox. */
  readonly sms: {
    readonly baseUrl: string;
    readonly accountSid: string;
    readonly authToken: string;
    readonly from: string;
  } | null;
  /** Run the planner and sender loop inside this process. */
  readonly worker: boolean;
  readonly pollMs: number;
  readonly leaseMs: number;
  readonly retryBaseMs: number;
  readonly maxAttempts: number;
  readonly batch: number;
  readonly concurrency: number;
}

export function parseMessagesConfig(env: Env): MessagesConfig {
  const smtpUrl = text(env, 'SMTP_URL');
  if (smtpUrl !== null && !/^smtps?:\/\/[^/]/.test(smtpUrl))
    throw new ConfigError('SMTP_URL must be an smtp:// or smtps:// URL');
  const mailFrom = text(env, 'MAIL_FROM') ?? 'Bookings <bookings@localhost>';
  if (!/@[A-Za-z0-9.-]+>?$/.test(mailFrom))
    throw new ConfigError('MAIL_FROM must be an email address, optionally as "Name <address>"');
  const smsUrl = text(env, 'SMS_API_URL') ?? 'https://api.twilio.com';
  if (!/^https?:\/\//.test(smsUrl)) throw new ConfigError('SMS_API_URL must be an http(s) URL');
  const smsSid = text(env, 'SMS_ACCOUNT_SID');
  const smsToken = text(env, 'SMS_AUTH_TOKEN');
  const smsFrom = text(env, 'SMS_FROM');
  const smsSet = [smsSid, smsToken, smsFrom].filter((v) => v !== null).length;
  if (smsSet !== 0 && smsSet !== 3)
    throw new ConfigError('SMS_ACCOUNT_SID, SMS_AUTH_TOKEN and SMS_FROM are set together or not at all');
  return Object.freeze({
    smtpUrl,
    smtpMaxConnections: int(env, 'SMTP_MAX_CONNECTIONS', 5, 1, 100),
    mailFrom,
    sms:
      smsSet === 3
        ? Object.freeze({ baseUrl: smsUrl, accountSid: smsSid!, authToken: smsToken!, from: smsFrom! })
        : null,
    worker: flag(env, 'MESSAGES_WORKER', true),
    pollMs: int(env, 'MESSAGES_POLL_MS', 1000, 10, 600_000),
    leaseMs: int(env, 'MESSAGES_LEASE_MS', 120_000, 1000, 3_600_000),
    retryBaseMs: int(env, 'MESSAGES_RETRY_BASE_MS', 30_000, 10, 3_600_000),
    maxAttempts: int(env, 'MESSAGES_MAX_ATTEMPTS', 12, 1, 100),
    batch: int(env, 'MESSAGES_BATCH', 100, 1, 1000),
    concurrency: int(env, 'MESSAGES_CONCURRENCY', 20, 1, 200),
  });
}
