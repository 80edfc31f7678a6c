// The sign-in code's email, sent straight over SMTP (nodemailer, the same transport the messages
// sender uses) rather than through the messages outbox: the code must never be stored in the clear
// (the outbox keeps bodies), and a code lives 10 minutes, so the outbox's retries over hours would
// only deliver dead codes. Sent after the answer, so the answer takes the same time whatever happens
// to the mail. Without SMTP_URL nothing is sent (a warning without the address says so).
import type { MessagesConfig } from '../../config.ts';
import { smtpTransport } from '../../notifications/channels/smtp.transport.ts';
import type { Transport } from '../../notifications/channels/transport.ts';
import { mailDomain } from '../../notifications/messages/worker.ts';
import { randomUUID } from 'node:crypto';

export interface CodeMail {
  to: string;
  code: string;
  storeName: string;
  minutes: number;
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

export function codeMailer(config: MessagesConfig, log: { warn(obj: object, msg: string): void }): CodeMailer {
  let transport: Transport | null = null;
  const domain = mailDomain(config.mailFrom);
  return {
    async send(mail) {
      if (!config.smtpUrl) {
        log.warn({}, 'sign-in code not sent: SMTP_URL is not set');
        return;
      }
      transport ??= smtpTransport({ url: config.smtpUrl, from: config.mailFrom, maxConnections: 2 });
      const body = renderCodeMail(mail);
      try {
        await transport.send({ channel: 'email', to: mail.to, ...body, ics: null, icsMethod: null, messageId: `<${randomUUID()}@${domain}>` });
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
