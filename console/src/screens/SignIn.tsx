// The sign-in page: email and password, a passkey, and the shop's identity provider when the server
// says it is set up (GET /api/v1/auth/options). A platform that embeds the console opens it with a
// /console#token=<jwt> link instead (handled before this renders), or pastes that token below.
import { useEffect, useState } from 'preact/hooks';
import type { Session } from '../session.ts';
import {
  markSession,
  passkeysSupported,
  publicApi,
  signInWithPasskey,
  signInWithPassword,
  type Outcome,
} from '../staff-auth.ts';

export function SignIn(props: {
  message: string | null;
  onSignIn: (session: Session) => void;
  onToken: (token: string) => string | null;
}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [oidc, setOidc] = useState(false);

  useEffect(() => {
    void publicApi.GET('/api/v1/auth/options', {}).then(({ data }) => setOidc(data?.oidc === true));
  }, []);

  async function attempt(how: () => Promise<Outcome>) {
    if (busy) return;
    setBusy(true);
    setError(null);
    const outcome = await how().catch((err: unknown) => ({
      ok: false as const,
      message: err instanceof Error ? err.message : 'The request failed',
    }));
    setBusy(false);
    if (outcome.ok) props.onSignIn(outcome.session);
    else setError(outcome.message);
  }

  return (
    <main id="main" class="signin">
      <h1>Sign in</h1>
      {props.message && (
        <p class="notice" role="alert">
          {props.message}
        </p>
      )}
      <form
        aria-label="Sign in with email and password"
        onSubmit={(e) => {
          e.preventDefault();
          void attempt(() => signInWithPassword(email.trim(), password));
        }}
      >
        <label for="email">Email</label>
        <input
          id="email"
          type="email"
          autocomplete="username webauthn"
          value={email}
          onInput={(e) => setEmail(e.currentTarget.value)}
          required
        />
        <label for="password">Password</label>
        <input
          id="password"
          type="password"
          autocomplete="current-password"
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
          required
        />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <div class="signin-other">
        {passkeysSupported() && (
          <button type="button" disabled={busy} onClick={() => void attempt(signInWithPasskey)}>
            Sign in with a passkey
          </button>
        )}
        {oidc && (
          <a class="button" href="/api/v1/auth/oidc/start" onClick={() => markSession(true)}>
            Sign in with your organisation
          </a>
        )}
      </div>
      <details class="signin-token">
        <summary>Sign in with a merchant token</summary>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            setError(props.onToken(token.trim()));
          }}
        >
          <label for="token">Merchant token</label>
          <textarea
            id="token"
            rows={4}
            value={token}
            onInput={(e) => setToken(e.currentTarget.value)}
            autocomplete="off"
            spellcheck={false}
            required
          />
          <button type="submit">Use this token</button>
        </form>
        <p class="hint">For a platform that mints its own tokens. The token stays in this tab until you sign out.</p>
      </details>
    </main>
  );
}
