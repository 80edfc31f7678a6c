// The sign-in code's email, sent as a secret mail (src/notifications/delivery/secret-mail.ts: straight
// over SMTP, never through the outbox; a code lives 10 minutes). Sent after the answer, so the answer
// takes the same time whatever happens to the mail. Without SMTP_URL: outside production the code is
// kept in the development mailbox until it expires, in production it is never kept (sendCode refuses
// first: getBookingPage says sign_in 'none').
import type { Config } from '../../config.ts';
import type { Queryable } from '../../platform/db/port.ts';
import { escapeHtml, secretMailer } from '../../notifications/delivery/secret-mail.ts';
import type { Mailer, SecretMailAddress, SecretMailTexts } from '../../notifications/delivery/secret-mail.ts';

export interface CodeMail extends SecretMailAddress {
  code: string;
  storeName: string;
  minutes: number;
}

export type CodeMailer = Mailer<CodeMail>;

export function renderCodeMail(mail: CodeMail): SecretMailTexts {
  const shop = escapeHtml(mail.storeName);
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
  return secretMailer(
    config,
    db,
    log,
    { label: 'sign-in code', notSent: 'sign-in code not sent: no SMTP_URL in production' },
    renderCodeMail,
  );
}
