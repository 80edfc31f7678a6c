// The invitation's email, sent straight over SMTP (the transport the messages sender uses), not
// through the messages outbox: the link carries the token, which must never be stored in the clear
// (the outbox keeps bodies). The token travels in the fragment (#token=), as the booking page's
// manage links do, so it never reaches a server log or a Referer. Without SMTP_URL outside production
// it goes to the development mailbox, as every message does there, kept until the link expires (the
// owner trying the service on their own machine reads it in the console); in production nothing is
// sent (a warning without the address says so).
import { randomUUID } from 'node:crypto';
import type { Config } from '../../config.ts';
import type { Queryable } from '../../platform/db/port.ts';
import { deliveryMode } from '../../notifications/delivery/delivery-mode.ts';
import {
  dropExpiredCodes,
  dropReplacedInvitations,
  keepCode,
} from '../../notifications/delivery/dev-mailbox.repository.ts';
import { smtpTransport } from '../../notifications/channels/smtp.transport.ts';
import type { Transport } from '../../notifications/channels/transport.ts';
import { mailDomain } from '../../notifications/messages/worker.ts';

export interface InvitationMail {
  storeId: string;
  to: string;
  storeName: string;
  role: string;
  invitedBy: string | null;
  token: string;
  hours: number;
  sentAt: string;
  expiresAt: string;
}

export interface InvitationMailer {
  send(mail: InvitationMail): Promise<void>;
  close(): Promise<void>;
}

/** The console's accept page with the token in the fragment. */
export function acceptUrl(config: Config, token: string): string {
  return `${config.bookingPage.publicUrl}/console/#/accept#token=${token}`;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function renderInvitationMail(
  config: Config,
  mail: InvitationMail,
): { subject: string; text: string; html: string } {
  const url = acceptUrl(config, mail.token);
  const by = mail.invitedBy ? `${mail.invitedBy} invited you` : 'You are invited';
  const role = mail.role.replace('_', ' ');
  return {
    subject: `Join ${mail.storeName} as ${role}`,
    text: `${by} to join ${mail.storeName} as ${role}.\n\nAccept and choose your password:\n${url}\n\nThe link works once, for ${mail.hours} hours.\nIf you did not expect it, ignore this email.\n`,
    html: `<!doctype html><html><body><p>${escapeHtml(by)} to join ${escapeHtml(mail.storeName)} as ${escapeHtml(role)}.</p><p><a href="${escapeHtml(url)}">Accept and choose your password</a></p><p>The link works once, for ${mail.hours} hours.</p><p>If you did not expect it, ignore this email.</p></body></html>`,
  };
}

export function invitationMailer(
  config: Config,
  db: Queryable,
  log: { warn(obj: object, msg: string): void },
): InvitationMailer {
  let transport: Transport | null = null;
  const domain = mailDomain(config.messages.mailFrom);
  const route = deliveryMode(config).email;
  return {
    async send(mail) {
      if (route === 'dev_mailbox') {
        const body = renderInvitationMail(config, mail);
        await dropExpiredCodes(db, mail.sentAt)
          .then(() => dropReplacedInvitations(db, mail.storeId, mail.to))
          .then(() =>
            keepCode(db, {
              kind: 'staff_invitation',
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
            log.warn({ error: err?.code ?? 'keep_failed' }, 'staff invitation not kept in the development mailbox'),
          );
        return;
      }
      if (route !== 'smtp' || !config.messages.smtpUrl) {
        log.warn({}, 'staff invitation not sent: SMTP_URL is not set');
        return;
      }
      transport ??= smtpTransport({ url: config.messages.smtpUrl, from: config.messages.mailFrom, maxConnections: 2 });
      try {
        await transport.send({
          channel: 'email',
          to: mail.to,
          ...renderInvitationMail(config, mail),
          ics: null,
          icsMethod: null,
          messageId: `<${randomUUID()}@${domain}>`,
        });
      } catch (err: any) {
        // Neither the token nor the address reaches the log: only the failure's code.
        log.warn({ error: err?.code ?? 'send_failed' }, 'staff invitation not delivered');
      }
    },
    async close() {
      await transport?.close();
    },
  };
}
