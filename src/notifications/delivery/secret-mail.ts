// An email that carries a secret (a sign-in code, an invitation's link), sent straight over SMTP
// (nodemailer, the transport the messages sender uses) rather than through the messages outbox: the
// secret must never be stored in the clear (the outbox keeps bodies), and it lives minutes or hours,
// so the outbox's retries would only deliver dead ones. Without SMTP_URL: outside production it is
// kept in the development mailbox until it expires; in production nothing is sent (a warning
// without the address says so). Neither the secret nor the address reaches the log: only a failure's
// code. Used by src/customers/sign-in/code-mail.ts and src/staff/invitations/invitation-mail.ts.
import { randomUUID } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../platform/db/port.ts';
import { deliveryMode } from './delivery-mode.ts';
import { dropExpiredCodes, keepCode, type KeptCode } from './dev-mailbox.repository.ts';
import { smtpTransport } from '../channels/smtp.transport.ts';
import type { Transport } from '../channels/transport.ts';
import { mailDomain } from '../messages/worker.ts';

/** Whom a secret mail goes to, from which store, and how long its secret lives. */
export interface SecretMailAddress {
  storeId: string;
  to: string;
  sentAt: string;
  expiresAt: string;
}

export interface SecretMailTexts {
  subject: string;
  text: string;
  html: string;
}

export type SecretMail = SecretMailAddress & SecretMailTexts;

export interface Mailer<M> {
  send(mail: M): Promise<void>;
  close(): Promise<void>;
}

/** Text made safe inside the HTML part (numeric character references). */
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export interface SecretMailKind {
  /** What the log lines call it ("sign-in code"). */
  label: string;
  /** The development mailbox's kind (default: a sign-in code). */
  kind?: KeptCode['kind'];
  /** The log line when nothing is sent (production without SMTP_URL). */
  notSent: string;
  /** Before keeping a new one in the development mailbox (after the expired ones are dropped). */
  beforeKeep?: (db: Queryable, mail: SecretMail) => Promise<void>;
}

/** A mailer of M: each mail's texts rendered by `render`, then sent (or kept) as a secret mail. */
export function secretMailer<M extends SecretMailAddress>(
  config: Pick<Config, 'production' | 'messages'>,
  db: Queryable,
  log: { warn(obj: object, msg: string): void },
  what: SecretMailKind,
  render: (mail: M) => SecretMailTexts,
): Mailer<M> {
  const messages = config.messages;
  const route = deliveryMode(config).email;
  let transport: Transport | null = null;
  const domain = mailDomain(messages.mailFrom);
  return {
    async send(input) {
      const mail: SecretMail = {
        storeId: input.storeId,
        to: input.to,
        sentAt: input.sentAt,
        expiresAt: input.expiresAt,
        ...render(input),
      };
      if (route === 'dev_mailbox') {
        // Secrets past their expiry go as new ones come (and as the mailbox is read): none outlives it for long.
        await dropExpiredCodes(db, mail.sentAt)
          .then(() => what.beforeKeep?.(db, mail))
          .then(() =>
            keepCode(db, {
              kind: what.kind,
              storeId: mail.storeId,
              channel: 'email',
              to: mail.to,
              subject: mail.subject,
              text: mail.text,
              expiresAt: mail.expiresAt,
              createdAt: mail.sentAt,
            }),
          )
          .catch((err: any) =>
            log.warn({ error: err?.code ?? 'keep_failed' }, `${what.label} not kept in the development mailbox`),
          );
        return;
      }
      if (route !== 'smtp' || !messages.smtpUrl) {
        log.warn({}, what.notSent);
        return;
      }
      transport ??= smtpTransport({ url: messages.smtpUrl, from: messages.mailFrom, maxConnections: 2 });
      try {
        await transport.send({
          channel: 'email',
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html,
          ics: null,
          icsMethod: null,
          messageId: `<${randomUUID()}@${domain}>`,
        });
      } catch (err: any) {
        log.warn({ error: err?.code ?? 'send_failed' }, `${what.label} not delivered`);
      }
    },
    async close() {
      await transport?.close();
    },
  };
}
