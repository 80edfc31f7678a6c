// The sign-in code by text (SMS_*: Twilio's Messages API shape, the transport the messages sender
// uses), sent straight after the answer and never stored, like the email code (code-mail.ts). Offered
// only when an SMS provider is configured (page.sign_in 'email_or_sms' or 'sms').
import type { MessagesConfig } from '../../notifications/messages/messages.config.ts';
import { smsTransport } from '../../notifications/channels/sms.transport.ts';
import type { Transport } from '../../notifications/channels/transport.ts';

export interface CodeText {
  to: string;
  code: string;
  storeName: string;
  minutes: number;
}

export interface CodeTexter {
  send(text: CodeText): Promise<void>;
}

export const renderCodeText = (t: CodeText) =>
  `${t.code} is your code to book at ${t.storeName}. It works once, for ${t.minutes} minutes.`;

export function codeTexter(config: MessagesConfig, log: { warn(obj: object, msg: string): void }): CodeTexter {
  let transport: Transport | null = null;
  return {
    async send(t) {
      if (!config.sms) {
        log.warn({}, 'sign-in code not texted: no SMS provider');
        return;
      }
      transport ??= smsTransport(config.sms);
      try {
        await transport.send({
          channel: 'sms',
          to: t.to,
          subject: '',
          text: renderCodeText(t),
          html: '',
          ics: null,
          icsMethod: null,
          messageId: '',
        });
      } catch (err: any) {
        // The code and the number never reach the log: only the failure's code.
        log.warn({ error: err?.code ?? 'send_failed' }, 'sign-in code not delivered by text');
      }
    },
  };
}
