// The shop's booking page: /book/{slug} books, /book/{slug}/manage#token=... manages one booking.
// The shop's name, its policies and the steps; in an iframe (?embed=1) it tells the parent its
// height, so the embedding site can size the frame (postMessage { type: 'bbo:height', height }).
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { attempt, makeClient, route, sentence } from './api.ts';
import { Booker } from './Booker.tsx';
import { searchFirstTimes } from './Picker.tsx';
import { BookByPhone, ShopHeader, Visit } from './Shop.tsx';
import { ClassesSlot, offerFromAddress } from './classes/slot.tsx';
import { minutes, setZoneNames } from './time.ts';
import { lazyView, whenIdle } from '../../web-shared/lazy.tsx';
import type { PageInfo } from './types.ts';
import './styles.css';

function Policies(props: { page: PageInfo }) {
  const { page } = props;
  const window = page.cancellation_window_min;
  return (
    <section class="policies" aria-labelledby="policies-title">
      <h2 id="policies-title">Before you book</h2>
      <ul>
        <li data-testid="cancellation-policy">
          {window > 0
            ? `You can cancel or change a booking online up to ${minutes(window)} before it starts.`
            : 'You can cancel or change a booking online until it starts.'}
        </li>
        <li data-testid="deposit-policy">
          {page.services.some((s) => s.deposit)
            ? 'Services marked with a deposit wait for it after you book: the shop asks you for it. No money is taken on this page.'
            : 'No deposit is needed.'}
        </li>
        <li>A chosen time is held for you for {page.hold_minutes} minutes while you sign in with your email.</li>
      </ul>
    </section>
  );
}

// The manage page is a chunk of its own: the booking page's first screen does not carry it.
const Manage = lazyView(
  () => import('./Manage.tsx').then((m) => m.Manage),
  () => <p aria-busy="true">Loading…</p>,
);

const where = route();
// An offer email's link (?offer=<booking id>) opens the classes view first (classes/slot.tsx).
const offer = offerFromAddress();
const api = makeClient();
// The server renders the page's config into the HTML (src/booking-page/page-html.ts): the first
// render has the shop at once, and the first times are asked for before it. Without it (Vite's dev
// server), the config is asked for first.
const served = (() => {
  const el = document.getElementById('page-data');
  try {
    const data = el ? (JSON.parse(el.textContent ?? '') as { page: PageInfo; zones?: Record<string, string> }) : null;
    setZoneNames(data?.zones);
    return data?.page ?? null;
  } catch {
    return null;
  }
})();
const pageAnswer = served
  ? null
  : where
    ? attempt(() => api.GET('/api/v1/book/{slug}', { params: { path: { slug: where.slug } } }))
    : null;
if (served && where && !where.manage) searchFirstTimes(api, where.slug, served);
void pageAnswer?.then((r) => {
  if (r.ok && !where?.manage) searchFirstTimes(api, where!.slug, r.data.page);
});

/**
 * False for the first render, true once the page is idle after it: what lies below the first screen
 * (the shop's window, the policies) renders then, in a task of its own, so the first render (one
 * task on the main thread) is only the first screen. Below the times' reserved room: nothing moves.
 */
function useBelowTheFold(): boolean {
  const [shown, setShown] = useState(false);
  useEffect(() => whenIdle(() => setShown(true), 1000), []);
  return shown;
}

function App() {
  const [page, setPage] = useState<PageInfo | null>(served);
  const below = useBelowTheFold();
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (served) return;
    if (!where || !pageAnswer) return setError('There is no booking page at this address.');
    void pageAnswer.then((r) => {
      if (!r.ok) return setError(sentence(r.refusal));
      setPage(r.data.page);
      document.title = `${where.manage ? 'Your booking at' : 'Book at'} ${r.data.page.store_name}`;
    });
  }, []);

  if (error)
    return (
      <main id="main">
        <h1>Booking</h1>
        <p class="error" role="alert">
          {error}
        </p>
      </main>
    );
  if (!page || !where)
    return (
      <main id="main" aria-busy="true">
        <h1>Booking</h1>
        <p>Loading…</p>
      </main>
    );
  // The shop's classes, where it has some (a chunk of their own): last, once the page is idle (below the
  // fold, as the shop's window), or first for an offer's link.
  const classes =
    !where.manage && page.sign_in !== 'none' ? (
      <ClassesSlot api={api} slug={where.slug} page={page} offer={offer} />
    ) : null;
  return (
    <>
      <ShopHeader page={page} />
      <main id="main">
        {offer && classes}
        {where.manage ? (
          <Manage api={api} slug={where.slug} page={page} />
        ) : page.sign_in === 'none' ? (
          <BookByPhone page={page} />
        ) : (
          <Booker api={api} slug={where.slug} page={page} />
        )}
        {below && !where.manage && <Visit page={page} />}
        {below && page.sign_in !== 'none' && <Policies page={page} />}
        {below && !offer && classes}
      </main>
    </>
  );
}

// Inside the shop's own site: report the height whenever it changes (the parent checks our origin).
if (new URLSearchParams(location.search).get('embed') === '1' && parent !== window) {
  document.documentElement.classList.add('embedded');
  let last = 0;
  const app = document.getElementById('app')!;
  new ResizeObserver(() => {
    // The content's own height (the document's would never shrink below the frame's).
    const height = Math.ceil(app.getBoundingClientRect().height);
    if (height !== last) parent.postMessage({ type: 'bbo:height', height: (last = height) }, '*');
  }).observe(app);
}

render(<App />, document.getElementById('app')!);
