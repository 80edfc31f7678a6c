// The sign-in code's email, sent as a secret mail (src/notifications/delivery/secret-mail.ts: straight
// over SMTP, never through the outbox; a code lives 10 minutes). Sent after the answer, so the answer
// takes the same time whatever happens to the mail. Without SMTP_URL: outside production the code is
// kept in the development mailbox until it expires, in production it is never kept (sendCode refuses
// first: getBookingPage says sign_in 'none').
import type { Config } from '../../config.ts';
import type { Queryable } from '../../platform/db/port.ts';
import { secretMailer } from '../../notifications/delivery/secret-mail.ts';

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
  config: Pick<Config, 'production' | 'messages'>,
  db: Queryable,
  log: { warn(obj: object, msg: string): void },
): CodeMailer {
  const mailer = secretMailer(config, db, log, {
    label: 'sign-in code',
    notSent: 'sign-in code not sent: no SMTP_URL in production',
  });
  return {
    send: (mail) =>
      mailer.send({
        storeId: mail.storeId,
        to: mail.to,
        sentAt: mail.sentAt,
        expiresAt: mail.expiresAt,
        ...renderCodeMail(mail),
      }),
    close: () => mailer.close(),
  };
}
