// The development mailbox (#/mailbox): outside production with no SMTP_URL, what would have been sent
// to customers, booking page sign-in codes included (each shown until it expires), read with
// GET /api/v1/dev/mailbox. Production has no such route; this screen then says so.
import { useEffect, useState } from 'preact/hooks';
import { useApp } from '../api.ts';
import type { Ok } from '../../../client/index.ts';

type Kept = Ok<'/api/v1/dev/mailbox', 'get'>['messages'][number];

const when = (iso: string) =>
  new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });

export function Mailbox() {
  const { api } = useApp();
  const [messages, setMessages] = useState<Kept[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const refresh = () =>
    void api.GET('/api/v1/dev/mailbox', { params: { query: { limit: 50 } } }).then(({ data, error }) => {
      if (!data) return setError((error as any)?.error?.message ?? 'There is no development mailbox here');
      setError(null);
      setMessages(data.messages);
    });
  useEffect(() => {
    refresh();
    // A code arrives a moment after the page asked for it: look again every few seconds.
    const t = setInterval(refresh, 3000);
    return () => clearInterval(t);
  }, []);

  return (
    <section aria-labelledby="mailbox-title">
      <div class="toolbar">
        <h1 id="mailbox-title">
          Mailbox <span class="dev-badge">development only</span>
        </h1>
        <button type="button" onClick={refresh}>
          Refresh
        </button>
      </div>
      <p class="notice">
        No SMTP_URL is set, so nothing is sent: customer messages and booking page sign-in codes land here instead. A
        code is shown until it expires. In production this mailbox does not exist.
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {messages && messages.length === 0 && (
        <p class="notice">Nothing yet. Ask for a code on the booking page and it appears here.</p>
      )}
      <ul class="list mailbox">
        {(messages ?? []).map((m) => (
          <li key={m.id} data-kind={m.kind}>
            <div class="row-head">
              <strong>{m.subject}</strong>
            </div>
            <div class="muted">
              {m.kind === 'sign_in_code' ? 'Sign-in code' : m.kind === 'staff_invitation' ? 'Staff invitation' : m.kind}{' '}
              · {m.channel} to {m.to} · {when(m.created_at)}
              {m.expires_at ? ` · expires ${when(m.expires_at)}` : ''}
            </div>
            <pre class="mail-text">{m.text}</pre>
          </li>
        ))}
      </ul>
    </section>
  );
}
