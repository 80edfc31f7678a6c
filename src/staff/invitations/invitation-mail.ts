// The invitation's email, sent as a secret mail (src/notifications/delivery/secret-mail.ts: straight
// over SMTP, never through the outbox): the link carries the token, which must never be stored in the
// clear. The token travels in the fragment (#token=), as the booking page's
// manage links do, so it never reaches a server log or a Referer. Without SMTP_URL outside production
// it goes to the development mailbox, as every message does there, kept until the link expires (the
// owner trying the service on their own machine reads it in the console); in production nothing is
// sent (a warning without the address says so).
import type { Config } from '../../config.ts';
import type { Queryable } from '../../platform/db/port.ts';
import { dropReplacedInvitations } from '../../notifications/delivery/dev-mailbox.repository.ts';
import { escapeHtml, secretMailer } from '../../notifications/delivery/secret-mail.ts';
import type { Mailer, SecretMailAddress, SecretMailTexts } from '../../notifications/delivery/secret-mail.ts';

export interface InvitationMail extends SecretMailAddress {
  storeName: string;
  role: string;
  invitedBy: string | null;
  token: string;
  hours: number;
}

export type InvitationMailer = Mailer<InvitationMail>;

/** The console's accept page with the token in the fragment. */
export function acceptUrl(config: Config, token: string): string {
  return `${config.bookingPage.publicUrl}/console/#/accept#token=${token}`;
}

export function renderInvitationMail(config: Config, mail: InvitationMail): SecretMailTexts {
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
  return secretMailer(
    config,
    db,
    log,
    {
      label: 'staff invitation',
      kind: 'staff_invitation',
      notSent: 'staff invitation not sent: SMTP_URL is not set',
      // A newer invitation to the same address replaces the older's dead link.
      beforeKeep: (q, mail) => dropReplacedInvitations(q, mail.storeId, mail.to),
    },
    (mail) => renderInvitationMail(config, mail),
  );
}
