// Passkeys' request and answer schemas: the WebAuthn JSON shapes of @simplewebauthn (v14), which the
// console passes through from @simplewebauthn/browser unchanged.
import { Type, type Static, type TSchema } from 'typebox';
import { Instant, Nullable } from '../../platform/http/schemas.ts';

const B64Url = Type.String({ minLength: 1, maxLength: 16_384, pattern: '^[A-Za-z0-9_-]+={0,2}$' });
const Transports = Type.Array(Type.String({ maxLength: 32 }), { maxItems: 8 });
const ClientExtensions = Type.Object({}, { additionalProperties: true });

/** A credential as @simplewebauthn/browser answers it, around the ceremony's own response. */
const BrowserCredential = <R extends TSchema>(response: R, description: string) =>
  Type.Object(
    {
      id: B64Url,
      rawId: B64Url,
      type: Type.Literal('public-key'),
      response,
      authenticatorAttachment: Type.Optional(Type.String({ maxLength: 32 })),
      clientExtensionResults: ClientExtensions,
    },
    { additionalProperties: false, description },
  );

const CredentialDescriptor = Type.Object(
  {
    id: Type.String(),
    type: Type.Literal('public-key'),
    transports: Type.Optional(Type.Array(Type.String())),
  },
  { additionalProperties: false },
);

export const RegistrationOptions = Type.Object(
  {
    challenge: Type.String(),
    rp: Type.Object({ name: Type.String(), id: Type.String() }, { additionalProperties: false }),
    user: Type.Object(
      { id: Type.String(), name: Type.String(), displayName: Type.String() },
      { additionalProperties: false },
    ),
    pubKeyCredParams: Type.Array(
      Type.Object({ alg: Type.Integer(), type: Type.Literal('public-key') }, { additionalProperties: false }),
    ),
    timeout: Type.Integer(),
    attestation: Type.String(),
    excludeCredentials: Type.Array(CredentialDescriptor),
    authenticatorSelection: Type.Object(
      {
        residentKey: Type.String(),
        userVerification: Type.String(),
        requireResidentKey: Type.Boolean(),
      },
      { additionalProperties: false },
    ),
    extensions: Type.Object({ credProps: Type.Boolean() }, { additionalProperties: false }),
    hints: Type.Array(Type.String()),
  },
  {
    additionalProperties: false,
    description: 'Pass to startRegistration({ optionsJSON }) of @simplewebauthn/browser.',
  },
);

export const AuthenticationOptions = Type.Object(
  {
    challenge: Type.String(),
    rpId: Type.String(),
    timeout: Type.Integer(),
    userVerification: Type.String(),
  },
  {
    additionalProperties: false,
    description:
      'Pass to startAuthentication({ optionsJSON }) of @simplewebauthn/browser; no allowCredentials: the passkey names its person (discoverable credentials).',
  },
);

export const RegistrationBody = Type.Object(
  {
    name: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 100,
        description: 'What the person calls this passkey ("Work laptop"); "Passkey" when absent.',
      }),
    ),
    credential: BrowserCredential(
      Type.Object(
        {
          clientDataJSON: B64Url,
          attestationObject: B64Url,
          authenticatorData: Type.Optional(B64Url),
          transports: Type.Optional(Transports),
          publicKeyAlgorithm: Type.Optional(Type.Integer()),
          publicKey: Type.Optional(B64Url),
        },
        { additionalProperties: false },
      ),
      'What startRegistration() of @simplewebauthn/browser answered.',
    ),
  },
  { additionalProperties: false },
);
export type RegistrationBody = Static<typeof RegistrationBody>;

export const AuthenticationBody = Type.Object(
  {
    store_id: Type.Optional(
      Type.String({
        format: 'uuid',
        description: 'The store to sign in to; without it, the one the person signed in to last.',
      }),
    ),
    credential: BrowserCredential(
      Type.Object(
        {
          clientDataJSON: B64Url,
          authenticatorData: B64Url,
          signature: B64Url,
          userHandle: Type.Optional(B64Url),
        },
        { additionalProperties: false },
      ),
      'What startAuthentication() of @simplewebauthn/browser answered.',
    ),
  },
  { additionalProperties: false },
);
export type AuthenticationBody = Static<typeof AuthenticationBody>;

export const Passkey = Type.Object(
  {
    id: Type.String({ description: 'The credential id (base64url).' }),
    name: Type.String(),
    created_at: Instant,
    last_used_at: Nullable(Instant),
  },
  { additionalProperties: false },
);

export const PasskeyList = Type.Object({ passkeys: Type.Array(Passkey) }, { additionalProperties: false });
export const PasskeyParams = Type.Object({ passkeyId: B64Url }, { additionalProperties: false });

export const SignedIn = Type.Object(
  {
    store_id: Type.String({ format: 'uuid' }),
    expires_at: Type.String({
      format: 'date-time',
      description: "The session's absolute expiry (it also ends after the idle time).",
    }),
  },
  { additionalProperties: false, description: 'Signed in: the answer sets the session cookie.' },
);
