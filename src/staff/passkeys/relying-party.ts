// Who the passkeys are for: the relying party is the service's own origin, PUBLIC_URL (its host is
// the RP ID). A passkey made at one PUBLIC_URL host works only there, so changing it strands them.
import type { Config } from '../../config.ts';

export interface RelyingParty {
  id: string;
  origin: string;
  name: string;
}

export function relyingParty(config: Config): RelyingParty {
  const url = new URL(config.bookingPage.publicUrl);
  return { id: url.hostname, origin: url.origin, name: 'Back office' };
}

/** The algorithms offered and accepted (EdDSA, ES256, RS256): the same list for both steps of a registration. */
export const ALGORITHMS = [-8, -7, -257];

/** A ceremony's options, and its challenge, live five minutes. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
