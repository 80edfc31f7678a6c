// Schemas of how messages reach customers here (getMessageDelivery) and of the development mailbox
// (listDevMailbox, outside production only).
import { Type, type Static } from 'typebox';
import { Instant, NullableInstant, Uuid } from '../../platform/http/schemas.ts';

export const SIGN_IN_MODES = ['email', 'email_or_sms', 'sms', 'none'] as const;

export const MessageDeliveryResponse = Type.Object({
  email: Type.String({
    enum: ['smtp', 'dev_mailbox', 'none'],
    description:
      'smtp: sent (SMTP_URL); dev_mailbox: kept in the development mailbox (no SMTP_URL, not production); none: no way to send (production without SMTP_URL)',
  }),
  sms: Type.String({
    enum: ['provider', 'none'],
    description: 'provider: texts are sent (SMS_*); none: no SMS provider',
  }),
  sign_in: Type.String({
    enum: [...SIGN_IN_MODES],
    description: 'how the booking page can send a sign-in code; none: online booking cannot confirm',
  }),
  dev_mailbox: Type.Boolean({
    description: 'true when the development mailbox (listDevMailbox) holds what would have been sent',
  }),
});
export type MessageDeliveryResponse = Static<typeof MessageDeliveryResponse>;

export const DevMailboxQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  },
  { additionalProperties: false },
);
export type DevMailboxQuery = Static<typeof DevMailboxQuery>;

export const DevMailboxMessage = Type.Object({
  id: Uuid,
  source: Type.String({
    enum: ['sign_in_code', 'staff_invitation', 'message'],
    description:
      'a booking page sign-in code, a staff invitation (its link), or a customer message held for want of a channel',
  }),
  kind: Type.String({
    description: 'sign_in_code, staff_invitation, or the message kind (confirmation, reminder, ...)',
  }),
  channel: Type.String({ enum: ['email', 'sms'] }),
  to: Type.String(),
  subject: Type.String(),
  text: Type.String(),
  created_at: Instant,
  expires_at: NullableInstant,
});
export const DevMailboxResponse = Type.Object({
  development_only: Type.Literal(true),
  messages: Type.Array(DevMailboxMessage, { description: 'newest first' }),
});
export type DevMailboxResponse = Static<typeof DevMailboxResponse>;
