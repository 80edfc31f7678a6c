// The sign-in code's email, sent straight over SMTP (nodemailer, the same transport the messages
// sender uses) rather than through the messages outbox: the code must never be stored in the clear
// (the outbox keeps bodies), and a code lives 10 minutes, so the outbox's retries over hours would
// only deliver dead codes. Sent after the answer, so the answer takes the same time whatever happens
// to the mail. Without SMTP_URL: outside production the code is kept in the development mailbox
// until it expires (src/notifications/delivery/), in production it is never kept (sendCode refuses
// first: getBookingPage says sign_in 'none').
import type { Config } from '../../config.ts';
import type { Queryable } from '../../platform/db/port.ts';
import { deliveryMode } from '../../notifications/delivery/delivery-mode.ts';
import { dropExpiredCodes, keepCode } from '../../notifications/delivery/dev-mailbox.repository.ts';
import { smtpTransport } from '../../notifications/channels/smtp.transport.ts';
import type { Transport } from '../../notifications/channels/transport.ts';
import { mailDomain } from '../../notifications/messages/worker.ts';
import { randomUUID } from 'node:crypto';

export interface CodeMail {
  storeId: string;
  to: string;
  code: string;
  storeName: string;
  minutes: number;
  expiresAt: string;
  sentAt: string;
}

export interface CodeMailer {
  send(mail: CodeMail): Promise<void>;
  close(): Promise<void>;
}

export function renderCodeMail(mail: CodeMail): { subject: string; text: string; html: string } {
  const shop = mail.storeName.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return {
    subject: `Your code for ${mail.storeName}: ${mail.code}`,
    text: `Your code to book at ${mail.storeName} is ${mail.code}.\nIt works once, for ${mail.minutes} minutes.\n\nIf you did not ask for it, ignore this email.\n`,
    html: `<!doctype html><html><body><p>Your code to book at ${shop} is</p><p style="font-size:24px;letter-spacing:4px"><strong>${mail.code}</strong></p><p>It works once, for ${mail.minutes} minutes.</p><p>If you did not ask for it, ignore this email.</p></body></html>`,
  };
}

export function codeMailer(
  fullConfig: Pick<Config, 'production' | 'messages'>,
  db: Queryable,
  log: { warn(obj: object, msg: string): void },
): CodeMailer {
  const config = fullConfig.messages;
  const route = deliveryMode(fullConfig).email;
  let transport: Transport | null = null;
  const domain = mailDomain(config.mailFrom);
  return {
    async send(mail) {
      const body = renderCodeMail(mail);
      if (route === 'dev_mailbox') {
        // Codes past their expiry go as new ones come (and as the mailbox is read): none outlives it for long.
        await dropExpiredCodes(db, mail.sentAt)
          .then(() =>
            keepCode(db, {
              storeId: mail.storeId,
              channel: 'email',
              to: mail.to,
              subject: body.subject,
              text: body.text,
              expiresAt: mail.expiresAt,
              createdAt: mail.sentAt,
            }),
          )
          .catch((err: any) =>
            log.warn({ error: err?.code ?? 'keep_failed' }, 'sign-in code not kept in the development mailbox'),
          );
        return;
      }
      if (route !== 'smtp' || !config.smtpUrl) {
        log.warn({}, 'sign-in code not sent: no SMTP_URL in production');
        return;
      }
      transport ??= smtpTransport({ url: config.smtpUrl, from: config.mailFrom, maxConnections: 2 });
      try {
        await transport.send({
          channel: 'email',
          to: mail.to,
          ...body,
          ics: null,
          icsMethod: null,
          messageId: `<${randomUUID()}@${domain}>`,
        });
      } catch (err: any) {
        // The code (and the address) never reach the log: only the failure's code.
        log.warn({ error: err?.code ?? 'send_failed' }, 'sign-in code not delivered');
      }
    },
    async close() {
      await transport?.close();
    },
  };
}
