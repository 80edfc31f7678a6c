// What a channel is to the sender: something that hands one message to a provider and says how it
// went. A failure is either temporary (retried with backoff) or permanent (recorded, not retried).
import type { MessageChannel } from '../messages/message-kinds.ts';

export interface OutgoingMessage {
  channel: MessageChannel;
  to: string;
  subject: string;
  text: string;
  html: string;
  ics: string | null;
  /** icalendar METHOD of the attachment (REQUEST or CANCEL). */
  icsMethod: 'REQUEST' | 'CANCEL' | null;
  messageId: string;
}

export interface Transport {
  readonly channel: MessageChannel;
  /** Resolves with the provider's id for the message; throws SendFailure. */
  send(message: OutgoingMessage): Promise<{ providerId: string | null }>;
  close(): Promise<void>;
}

export class SendFailure extends Error {
  readonly permanent: boolean;
  /** An error code or status: safe to log and store (never an address or a body). */
  readonly code: string;
  constructor(code: string, permanent: boolean) {
    super(`send failed: ${code}`);
    this.code = code;
    this.permanent = permanent;
  }
}
