// Sign-in: paste a merchant token (or open a /console#token=<jwt> link, handled before this renders).
import { useState } from 'preact/hooks';

export function SignIn(props: { message: string | null; onSignIn: (token: string) => string | null }) {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <main id="main" class="signin">
      <h1>Merchant console</h1>
      {props.message && <p class="notice" role="alert">{props.message}</p>}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          setError(props.onSignIn(token.trim()));
        }}
      >
        <label for="token">Merchant token</label>
        <textarea id="token" rows={4} value={token} onInput={(e) => setToken(e.currentTarget.value)} autocomplete="off" spellcheck={false} required />
        {error && <p class="error" role="alert">{error}</p>}
        <button type="submit">Sign in</button>
      </form>
      <p class="hint">Or open the link <code>npm run demo</code> prints. The token stays in this tab until you sign out.</p>
    </main>
  );
}
