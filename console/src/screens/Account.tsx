// Your account (staff sessions only): your own calendar feed (when you are a unit), your sessions
// with "sign out everywhere", and your passkeys with "Add a passkey".
import { useEffect, useState } from 'preact/hooks';
import { errorMessage, type Ok } from '../../../client/index.ts';
import { useApp } from '../api.ts';
import { addPasskey, passkeysSupported } from '../staff-auth.ts';
import { FeedLink } from './CalendarFeeds.tsx';

type SessionItem = Ok<'/api/v1/auth/sessions', 'get'>['sessions'][number];
type Passkey = Ok<'/api/v1/auth/passkeys', 'get'>['passkeys'][number];

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : 'never');

export function Account(props: { onSignedOut: (message: string) => void }) {
  const { api, notify, session } = useApp();
  const [unitId, setUnitId] = useState<string | null>(null);
  const [sessions, setSessions] = useState<SessionItem[] | null>(null);
  const [passkeys, setPasskeys] = useState<Passkey[] | null>(null);
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = async () => {
    const [s, p] = await Promise.all([api.GET('/api/v1/auth/sessions', {}), api.GET('/api/v1/auth/passkeys', {})]);
    if (s.data) setSessions(s.data.sessions);
    if (p.data) setPasskeys(p.data.passkeys);
    if (!s.data || !p.data) setError(errorMessage(s.error ?? p.error));
  };
  useEffect(() => {
    void load();
  }, []);
  useEffect(() => {
    void api.GET('/api/v1/auth/me', {}).then(({ data }) => data && setUnitId(data.unit_id));
  }, []);

  async function guarded(work: () => Promise<void>) {
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      await work();
    } finally {
      setBusy(false);
    }
  }

  const end = (s: SessionItem) =>
    guarded(async () => {
      const { error: failure } = await api.DELETE('/api/v1/auth/sessions/{sessionId}', {
        params: { path: { sessionId: s.id } },
      });
      if (failure) return setError(errorMessage(failure));
      if (s.current) return props.onSignedOut('You signed out.');
      notify('Session ended');
      await load();
    });

  // Every other session first, then this one: the last call still has a session to authenticate it.
  const everywhere = () =>
    guarded(async () => {
      for (const s of (sessions ?? []).filter((x) => !x.current)) {
        const { error: failure } = await api.DELETE('/api/v1/auth/sessions/{sessionId}', {
          params: { path: { sessionId: s.id } },
        });
        if (failure) return setError(errorMessage(failure));
      }
      await api.POST('/api/v1/auth/sign-out', {});
      props.onSignedOut('You signed out everywhere.');
    });

  const add = () =>
    guarded(async () => {
      const failure = await addPasskey(api, name.trim());
      if (failure) return setError(failure);
      setName('');
      notify('Passkey added');
      await load();
    });

  const remove = (p: Passkey) =>
    guarded(async () => {
      const { data, error: failure } = await api.DELETE('/api/v1/auth/passkeys/{passkeyId}', {
        params: { path: { passkeyId: p.id } },
      });
      if (!data) return setError(errorMessage(failure));
      setPasskeys(data.passkeys);
      notify('Passkey removed');
    });

  return (
    <section aria-labelledby="account-title">
      <div class="toolbar">
        <h1 id="account-title">Your account</h1>
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {unitId && (
        <>
          <h2 id="feed-title">Your calendar</h2>
          <p>
            Your appointments and classes in your phone's calendar: subscribe to this link (Google, Apple or Outlook).
            Anyone with it can read your diary: rotate it if it leaks.
          </p>
          <ul aria-labelledby="feed-title" class="plain">
            <FeedLink unit={{ id: unitId, display_name: session.staffName ?? 'Your' }} />
          </ul>
        </>
      )}
      <h2 id="sessions-title">Your sessions</h2>
      <table aria-labelledby="sessions-title">
        <thead>
          <tr>
            <th scope="col">Browser</th>
            <th scope="col">Signed in</th>
            <th scope="col">Last seen</th>
            <th scope="col">
              <span class="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {(sessions ?? []).map((s) => (
            <tr key={s.id}>
              <td>
                {s.user_agent ?? 'Unknown browser'}
                {s.current && <strong> (this one)</strong>}
              </td>
              <td>{when(s.created_at)}</td>
              <td>{when(s.last_seen_at)}</td>
              <td>
                <button type="button" disabled={busy} onClick={() => void end(s)}>
                  {s.current ? 'Sign out' : 'End'}
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        <button type="button" disabled={busy || !sessions} onClick={() => void everywhere()}>
          Sign out everywhere
        </button>
      </p>

      <h2 id="passkeys-title">Passkeys</h2>
      {passkeys?.length === 0 && (
        <p class="notice">
          No passkeys yet. A passkey signs you in with your device's screen lock instead of a password.
        </p>
      )}
      <ul aria-labelledby="passkeys-title" class="plain">
        {(passkeys ?? []).map((p) => (
          <li key={p.id}>
            <span>{p.name}</span>{' '}
            <span class="hint">
              added {when(p.created_at)}, last used {when(p.last_used_at)}
            </span>{' '}
            <button
              type="button"
              disabled={busy}
              aria-label={`Remove passkey ${p.name}`}
              onClick={() => void remove(p)}
            >
              Remove
            </button>
          </li>
        ))}
      </ul>
      {passkeysSupported() ? (
        <form
          class="form inline"
          aria-label="Add a passkey"
          onSubmit={(e) => {
            e.preventDefault();
            void add();
          }}
        >
          <label for="passkey-name">Passkey name</label>
          <input
            id="passkey-name"
            value={name}
            placeholder="Work laptop"
            maxLength={100}
            onInput={(e) => setName(e.currentTarget.value)}
          />
          <button type="submit" disabled={busy}>
            Add a passkey
          </button>
        </form>
      ) : (
        <p class="notice">This browser cannot make passkeys.</p>
      )}
    </section>
  );
}
