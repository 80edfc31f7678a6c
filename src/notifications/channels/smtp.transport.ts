// Email over SMTP with nodemailer (SMTP_URL: smtp:// or smtps://, credentials in the URL). A pooled
// transport keeps a few connections open so a burst of messages does not pay a handshake each.
// nodemailer (about 8 MB of a process's memory) is loaded at the first send: a shop without
// SMTP_URL never loads it (docs/decisions/embedded-engine.md).
import type { Transporter } from 'nodemailer';
import { SendFailure, type OutgoingMessage, type Transport } from './transport.ts';

export interface SmtpOptions {
  url: string;
  from: string;
  maxConnections?: number;
}

/** 5xx is the server's final answer; 4xx and anything without an SMTP reply (connection refused,
 * reset, timeout) may succeed later. */
export function classifySmtpError(err: any): SendFailure {
  const code = typeof err?.responseCode === 'number' ? err.responseCode : null;
  if (code !== null) return new SendFailure(`smtp_${code}`, code >= 500);
  return new SendFailure(typeof err?.code === 'string' ? err.code : 'smtp_error', false);
}

export function smtpTransport(options: SmtpOptions): Transport {
  let mailer: Promise<Transporter> | null = null;
  const open = () =>
    (mailer ??= import('nodemailer').then(({ default: nodemailer }) =>
      nodemailer.createTransport({
        url: options.url,
        pool: true,
        maxConnections: options.maxConnections ?? 5,
        maxMessages: Infinity,
        connectionTimeout: 10_000,
        greetingTimeout: 10_000,
        socketTimeout: 30_000,
        // The sender retries, under its claim (sender.ts): nodemailer's pool must not. By default it
        // re-sends a message itself, up to 5 times, when a connection closes mid-send, so a relay that
        // drops connections kept a send pending past its claim's lease; another worker then sent the
        // message as well, and both copies arrived once the relay recovered. Now a dropped connection
        // fails the send at once, and each wait of a send is bounded by one of the three timeouts here
        // (connecting, the greeting, and silence on the socket), all well under half the default lease.
        maxRequeues: 0,
        // Never log message content or addresses.
        logger: false,
        debug: false,
      } as any),
    ));
  return {
    channel: 'email',
    async send(m: OutgoingMessage) {
      try {
        const info = await (await open()).sendMail({
          from: options.from,
          to: m.to,
          subject: m.subject,
          text: m.text,
          html: m.html,
          messageId: m.messageId,
          ...(m.ics
            ? { icalEvent: { method: m.icsMethod ?? 'REQUEST', filename: 'appointment.ics', content: m.ics } }
            : {}),
        });
        return { providerId: typeof info.response === 'string' ? info.response.slice(0, 200) : null };
      } catch (err) {
        throw classifySmtpError(err);
      }
    },
    async close() {
      (await mailer?.catch(() => null))?.close();
    },
  };
}
