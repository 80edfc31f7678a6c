// How a message can reach a customer in this deployment, decided once from the configuration:
// - email: over SMTP (SMTP_URL); else, outside production, the development mailbox; else nowhere;
// - sms: through the provider (SMS_*); else nowhere (a text code needs a real phone; the development
//   mailbox takes the email code, which is enough to finish a booking on one's own machine);
// - sign_in: how the booking page can send a code, which the page reads (getBookingPage's
//   page.sign_in) and the console warns about (getMessageDelivery). 'none' only in production.
// Customer messages (confirmations, reminders) keep their own outcome: without a channel they are
// held as status 'mailbox' in every environment (src/notifications/messages/sender.ts).
import type { Config } from '../../config.ts';

export type EmailRoute = 'smtp' | 'dev_mailbox' | 'none';
export type SmsRoute = 'provider' | 'none';
export type SignInMode = 'email' | 'email_or_sms' | 'sms' | 'none';

export interface DeliveryMode {
  readonly email: EmailRoute;
  readonly sms: SmsRoute;
  readonly signIn: SignInMode;
  /** The development mailbox is in use (outside production, no SMTP_URL): the console shows it. */
  readonly devMailbox: boolean;
}

export function deliveryMode(config: Pick<Config, 'production' | 'messages'>): DeliveryMode {
  const email: EmailRoute = config.messages.smtpUrl ? 'smtp' : config.production ? 'none' : 'dev_mailbox';
  const sms: SmsRoute = config.messages.sms ? 'provider' : 'none';
  const signIn: SignInMode =
    email !== 'none' ? (sms === 'provider' ? 'email_or_sms' : 'email') : sms === 'provider' ? 'sms' : 'none';
  return Object.freeze({ email, sms, signIn, devMailbox: email === 'dev_mailbox' });
}
