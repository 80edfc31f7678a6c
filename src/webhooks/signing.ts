// Endpoint secrets and Standard Webhooks signatures (the `standardwebhooks` package signs, so a
// receiver's `verify` from the same package accepts what we send).
import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';

/** A new endpoint secret: `whsec_` + base64 of 32 random bytes (the spec asks for 24 to 64). */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export interface SigningKeys {
  secret: string;
  /** The secret before the last rotation, while it still signs (24 h after the rotation). */
  previousSecret: string | null;
}

// new Webhook() decodes the base64 key: keep the decoded signers of recently used secrets.
const signers = new Map<string, Webhook>();
function signer(secret: string): Webhook {
  let s = signers.get(secret);
  if (!s) {
    if (signers.size > 10_000) signers.clear();
    s = new Webhook(secret);
    signers.set(secret, s);
  }
  return s;
}

/**
 * The three Standard Webhooks headers for one attempt. During a rotation both secrets sign; the
 * signatures are space-separated (the current secret's first), and a receiver holding either verifies.
 */
export function signatureHeaders(eventId: string, at: Date, body: string, keys: SigningKeys): Record<string, string> {
  const signatures = [signer(keys.secret).sign(eventId, at, body)];
  if (keys.previousSecret) signatures.push(signer(keys.previousSecret).sign(eventId, at, body));
  return {
    'webhook-id': eventId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signatures.join(' '),
  };
}
