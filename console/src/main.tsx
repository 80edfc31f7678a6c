// The console's shell: sign-in, the navigation and the hash routes (#/diary, #/queue, #/classes, #/customers,
// #/customers/<id>, #/catalogue, #/import, #/reports, #/settings, #/staff, #/account, and #/mailbox
// where the development mailbox exists; #/accept#token= for an invitation). Only the page's fragment
// changes, so the server serves one page and no route (or token) ever reaches its logs. The navigation
// shows what the signed-in role may open (roles.ts).
import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { AppContext, makeClient, type Ctx } from './api.ts';
import { decode, forgetToken, saveToken, storedToken, takeTokenFromFragment, type Session } from './session.ts';
import { LiveHub } from './live.ts';
import { SignIn } from './screens/SignIn.tsx';
import { currentStaff, mayHaveSession, signOutOnServer, takeOidcError } from './staff-auth.ts';
import { mayOpen } from './roles.ts';
import { lazyView } from '../../web-shared/lazy.tsx';

// Every screen but sign-in is a chunk of its own, fetched when opened: a first visit loads the shell
// and the sign-in page only (issue 41: the console's first load on a phone).
const loading = () => <p aria-busy="true">Loading…</p>;
const Diary = lazyView(() => import('./screens/Diary.tsx').then((m) => m.Diary), loading);
const Queue = lazyView(() => import('./screens/Queue.tsx').then((m) => m.Queue), loading);
const Customers = lazyView(() => import('./screens/Customers.tsx').then((m) => m.Customers), loading);
const CustomerPage = lazyView(() => import('./screens/CustomerPage.tsx').then((m) => m.CustomerPage), loading);
const Catalogue = lazyView(() => import('./screens/Catalogue.tsx').then((m) => m.Catalogue), loading);
const Settings = lazyView(() => import('./screens/Settings.tsx').then((m) => m.Settings), loading);
const Import = lazyView(() => import('./screens/Import.tsx').then((m) => m.Import), loading);
const Reports = lazyView(() => import('./screens/Reports.tsx').then((m) => m.Reports), loading);
const Staff = lazyView(() => import('./screens/Staff.tsx').then((m) => m.Staff), loading);
const Account = lazyView(() => import('./screens/Account.tsx').then((m) => m.Account), loading);
const AcceptInvitation = lazyView(
  () => import('./screens/AcceptInvitation.tsx').then((m) => m.AcceptInvitation),
  loading,
);
const Classes = lazyView(() => import('./screens/Classes.tsx').then((m) => m.Classes), loading);
const Mailbox = lazyView(() => import('./screens/Mailbox.tsx').then((m) => m.Mailbox), loading);

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
  ['/classes', 'Classes'],
  ['/customers', 'Customers'],
  ['/catalogue', 'Catalogue'],
  ['/import', 'Import'],
  ['/reports', 'Reports'],
  ['/settings', 'Settings'],
  ['/staff', 'Staff'],
  ['/account', 'Your account'],
] as const;
// Shown only where the development mailbox exists (outside production, no SMTP_URL).
const MAILBOX_NAV = ['/mailbox', 'Mailbox'] as const;

/** The token of an invitation (#/accept#token=...) or of the first-run setup link (#/setup#token=...), taken out of the address bar. */
function takeInvitationToken(): { token: string; setup: boolean } | null {
  const match = /^#\/(accept|setup)#token=([A-Za-z0-9_-]{20,100})/.exec(location.hash);
  if (!match) return null;
  history.replaceState(null, '', `${location.pathname}${location.search}#/${match[1]}`);
  return { token: match[2], setup: match[1] === 'setup' };
}

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

const INVITATION = takeInvitationToken();
const OIDC_ERROR = takeOidcError();

function App() {
  const [session, setSession] = useState<Session | null>(initialSession);
  // Without a token, a staff session cookie may be there: ask who is signed in before showing sign-in
  // (only where a sign-in happened in this browser: staff-auth.ts mayHaveSession).
  const [checking, setChecking] = useState(session === null && INVITATION === null && mayHaveSession());
  const [invitation, setInvitation] = useState(INVITATION);
  const [signOutMessage, setSignOutMessage] = useState<string | null>(OIDC_ERROR);
  const [toast, setToast] = useState<{ text: string; kind: 'ok' | 'error' } | null>(null);
  const route = useRoute();

  useEffect(() => {
    if (!checking) return;
    void currentStaff().then(
      (s) => {
        if (s) setSession(s);
        setChecking(false);
      },
      () => setChecking(false),
    );
  }, []);

  const signOut = (message: string | null) => {
    forgetToken();
    setSession(null);
    setSignOutMessage(message);
  };
  // A staff session ends on the server too; a token is only forgotten (the platform that minted it revokes it).
  const signOutClicked = async () => {
    if (session?.kind === 'staff') await signOutOnServer();
    signOut('You signed out.');
  };
  const staffSignedIn = (s: Session) => {
    setInvitation(null);
    setSignOutMessage(null);
    setSession(s);
    if (!location.hash.startsWith('#/') || /^#\/(accept|setup)/.test(location.hash)) location.hash = '#/diary';
  };

  const ctx = useMemo<Ctx | null>(() => {
    if (!session) return null;
    const api = makeClient(
      () => storedToken(),
      (message) => signOut(`Signed out: ${message}. Sign in again.`),
    );
    return { api, session, notify: (text, kind = 'ok') => setToast({ text, kind }) };
  }, [session]);

  const hub = useMemo(
    () =>
      session
        ? new LiveHub(
            session.storeId,
            () => storedToken(),
            (message) => signOut(`Signed out: ${message}. Sign in again.`),
          )
        : null,
    [session],
  );
  useEffect(() => () => hub?.close(), [hub]);
  const [devMailbox, setDevMailbox] = useState(false);
  useEffect(() => {
    if (ctx)
      void ctx.api.GET('/api/v1/notifications/delivery').then(({ data }) => setDevMailbox(Boolean(data?.dev_mailbox)));
  }, [ctx]);
  useEffect(() => {
    if (!toast) return;
    const t = setTimeout(() => setToast(null), 6000);
    return () => clearTimeout(t);
  }, [toast]);

  if (checking)
    return (
      <main id="main" class="signin" aria-busy="true">
        <p>Loading…</p>
      </main>
    );
  if (invitation && !session)
    return <AcceptInvitation token={invitation.token} setup={invitation.setup} onSignIn={staffSignedIn} />;
  if (!session || !ctx || !hub) {
    return (
      <SignIn
        message={signOutMessage}
        onSignIn={staffSignedIn}
        onToken={(token) => {
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
  else if (route.startsWith('/classes') && mayOpen(session, '/classes')) screen = <Classes />;
  else if (route.startsWith('/catalogue')) screen = <Catalogue />;
  else if (route.startsWith('/settings')) screen = <Settings />;
  else if (route.startsWith('/import') && mayOpen(session, '/import')) screen = <Import />;
  else if (route.startsWith('/reports') && mayOpen(session, '/reports')) screen = <Reports />;
  else if (route.startsWith('/staff') && mayOpen(session, '/staff')) screen = <Staff />;
  else if (route.startsWith('/account') && session.kind === 'staff') screen = <Account onSignedOut={signOut} />;
  else if (route.startsWith('/mailbox') && mayOpen(session, '/mailbox')) screen = <Mailbox />;
  else screen = <Diary hub={hub} />;

  return (
    <AppContext.Provider value={ctx}>
      <header class="top">
        <nav aria-label="Main">
          <ul>
            {[...NAV, ...(devMailbox ? [MAILBOX_NAV] : [])]
              .filter(([href]) => mayOpen(session, href))
              .map(([href, label]) => (
                <li key={href}>
                  <a href={`#${href}`} aria-current={route.startsWith(href) ? 'page' : undefined}>
                    {label}
                  </a>
                </li>
              ))}
          </ul>
        </nav>
        <div class="who">
          <span>{session.staffName ?? 'Staff'}</span>
          <button type="button" onClick={() => void signOutClicked()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main">{screen}</main>
      <div class={`toast ${toast?.kind ?? ''}`} role="status" aria-live="polite">
        {toast?.text ?? ''}
      </div>
    </AppContext.Provider>
  );
}

render(<App />, document.getElementById('app')!);
