// The console's shell: sign-in, the navigation and the hash routes (#/diary, #/queue, #/customers,
// #/customers/<id>, #/catalogue, #/settings, and #/mailbox where the development mailbox exists).
// Only the page's fragment changes, so the server serves one page and no route (or token) ever
// reaches its logs.
import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { AppContext, makeClient, type Ctx } from './api.ts';
import { decode, forgetToken, saveToken, storedToken, takeTokenFromFragment, type Session } from './session.ts';
import { LiveHub } from './live.ts';
import { SignIn } from './screens/SignIn.tsx';
import { Diary } from './screens/Diary.tsx';
import { Queue } from './screens/Queue.tsx';
import { Customers } from './screens/Customers.tsx';
import { CustomerPage } from './screens/CustomerPage.tsx';
import { Catalogue } from './screens/Catalogue.tsx';
import { Settings } from './screens/Settings.tsx';
import { Mailbox } from './screens/Mailbox.tsx';

function useRoute(): string {
  const [route, setRoute] = useState(location.hash.replace(/^#/, '') || '/diary');
  useEffect(() => {
    const on = () => setRoute(location.hash.replace(/^#/, '') || '/diary');
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

const NAV = [
  ['/diary', 'Diary'],
  ['/queue', 'Queue'],
  ['/customers', 'Customers'],
  ['/catalogue', 'Catalogue'],
  ['/settings', 'Settings'],
] as const;
// Shown only where the development mailbox exists (outside production, no SMTP_URL).
const MAILBOX_NAV = ['/mailbox', 'Mailbox'] as const;

function initialSession(): Session | null {
  const fromLink = takeTokenFromFragment();
  if (fromLink) {
    const s = decode(fromLink);
    if (s) saveToken(fromLink);
    return s;
  }
  const stored = storedToken();
  return stored ? decode(stored) : null;
}

function App() {
  const [session, setSession] = useState<Session | null>(initialSession);
  const [signOutMessage, setSignOutMessage] = useState<string | null>(null);
  const [toast, setToast] = useState<{ text: string; kind: 'ok' | 'error' } | null>(null);
  const route = useRoute();

  const signOut = (message: string | null) => {
    forgetToken();
    setSession(null);
    setSignOutMessage(message);
  };

  const ctx = useMemo<Ctx | null>(() => {
    if (!session) return null;
    const api = makeClient(() => storedToken(), (message) => signOut(`Signed out: ${message}. Sign in again.`));
    return { api, session, notify: (text, kind = 'ok') => setToast({ text, kind }) };
  }, [session]);

  const hub = useMemo(() => (session ? new LiveHub(session.storeId, () => storedToken(), (message) => signOut(`Signed out: ${message}. Sign in again.`)) : null), [session]);
  useEffect(() => () => hub?.close(), [hub]);
  const [devMailbox, setDevMailbox] = useState(false);
  useEffect(() => {
    if (ctx) void ctx.api.GET('/api/v1/notifications/delivery').then(({ data }) => setDevMailbox(Boolean(data?.dev_mailbox)));
  }, [ctx]);
  useEffect(() => {
    if (!toast) return;
    const t = setTimeout(() => setToast(null), 6000);
    return () => clearTimeout(t);
  }, [toast]);

  if (!session || !ctx || !hub) {
    return (
      <SignIn
        message={signOutMessage}
        onSignIn={(token) => {
          const s = decode(token);
          if (!s) return 'That is not a merchant token (it names no store).';
          saveToken(token);
          setSignOutMessage(null);
          setSession(s);
          if (!location.hash.startsWith('#/')) location.hash = '#/diary';
          return null;
        }}
      />
    );
  }

  const customer = /^\/customers\/([0-9a-f-]{36})$/.exec(route);
  let screen;
  if (route.startsWith('/queue')) screen = <Queue hub={hub} />;
  else if (customer) screen = <CustomerPage id={customer[1]} />;
  else if (route.startsWith('/customers')) screen = <Customers />;
  else if (route.startsWith('/catalogue')) screen = <Catalogue />;
  else if (route.startsWith('/settings')) screen = <Settings />;
  else if (route.startsWith('/mailbox')) screen = <Mailbox />;
  else screen = <Diary hub={hub} />;

  return (
    <AppContext.Provider value={ctx}>
      <header class="top">
        <nav aria-label="Main">
          <ul>
            {[...NAV, ...(devMailbox ? [MAILBOX_NAV] : [])].map(([href, label]) => (
              <li key={href}>
                <a href={`#${href}`} aria-current={route.startsWith(href) ? 'page' : undefined}>{label}</a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <span>{session.staffName ?? 'Staff'}</span>
          <button type="button" onClick={() => signOut('You signed out.')}>Sign out</button>
        </div>
      </header>
      <main id="main">{screen}</main>
      <div class={`toast ${toast?.kind ?? ''}`} role="status" aria-live="polite">{toast?.text ?? ''}</div>
    </AppContext.Provider>
  );
}

render(<App />, document.getElementById('app')!);
