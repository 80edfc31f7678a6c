// The accept page of an invitation (/console/#/accept#token=...) or of the first-run setup link
// (#/setup#token=..., which names no one, so it asks the first owner's email too): the person
// chooses their name and password; accepting signs them in (the answer sets the cookie).
import { useState } from 'preact/hooks';
import { errorMessage } from '../../../client/index.ts';
import { currentStaff, publicApi } from '../staff-auth.ts';
import type { Session } from '../session.ts';

export function AcceptInvitation(props: { token: string; setup: boolean; onSignIn: (session: Session) => void }) {
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: Event) {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    const body = { token: props.token, name: name.trim(), password, ...(props.setup ? { email: email.trim() } : {}) };
    const { data, error: failure } = await publicApi.POST('/api/v1/auth/invitations/accept', { body });
    const session = data ? await currentStaff() : null;
    setBusy(false);
    if (session) props.onSignIn(session);
    else setError(data ? 'Accepted, but this browser did not keep the session cookie.' : errorMessage(failure));
  }

  return (
    <main id="main" class="signin">
      <h1>{props.setup ? 'Set up the shop' : 'Join the shop'}</h1>
      <p>
        Choose the name your colleagues see and a password. A password of at least 15 characters (a passphrase is fine);
        8 once you add a passkey.
      </p>
      <form aria-label="Accept the invitation" onSubmit={submit}>
        <label for="accept-name">Your name</label>
        <input
          id="accept-name"
          autocomplete="name"
          value={name}
          onInput={(e) => setName(e.currentTarget.value)}
          required
          maxLength={120}
        />
        {props.setup && <label for="accept-email">Your email (you sign in with it)</label>}
        {props.setup && (
          <input
            id="accept-email"
            type="email"
            autocomplete="username"
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
            required
          />
        )}
        <label for="accept-password">Password</label>
        <input
          id="accept-password"
          type="password"
          autocomplete="new-password"
          minLength={8}
          value={password}
          onInput={(e) => setPassword(e.currentTarget.value)}
          required
        />
        <button type="submit" disabled={busy}>
          Accept and sign in
        </button>
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </main>
  );
}
