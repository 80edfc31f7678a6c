// The random secrets of staff accounts (session tokens, invitation and setup tokens, API keys) and
// the one way they are stored: the SHA-256 of the text, never the text itself.
import { createHash, randomBytes } from 'node:crypto';

/** 256 random bits, base64url (43 characters): well over the 128 bits a session needs. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function secretHash(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}
