// Keys of the booking page, each derived from AUTH_SECRET for one purpose (HMAC-SHA256 of a label),
// so a value made for one purpose can never pass as another: a manage link is not a page session,
// neither is a customer token (those are signed with AUTH_SECRET itself and its audience).
import { createHmac } from 'node:crypto';

export type KeyPurpose = 'altcha' | 'email' | 'email-code' | 'client-address' | 'manage-link' | 'page-session';

export function derivedKey(authSecret: string, purpose: KeyPurpose): Buffer {
  return createHmac('sha256', authSecret).update(`bbo:booking-page:${purpose}`).digest();
}

/** A keyed hash (hex) of a value that must not be stored as it is (an email, an address, a code). */
export function keyedHash(key: Buffer, value: string): string {
  return createHmac('sha256', key).update(value).digest('hex');
}
