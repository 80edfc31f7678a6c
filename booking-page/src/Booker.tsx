// The booking flow: pick (service, who, day, time: the slot is held at once) -> your details and the
// email code, with the hold's countdown -> confirm -> done. Each step's heading takes the focus when
// the step opens. A refused step shows the envelope's sentence and books and holds nothing. The steps
// after the pick are a chunk of their own (Steps.tsx), fetched once the times are on screen.
import { useEffect, useRef, useState } from 'preact/hooks';
import { attempt, getCustomerToken, pageSession, type ApiClient } from './api.ts';
import { Picker, type PickerProps } from './Picker.tsx';
import type { SignedIn } from './EmailCode.tsx';
import { dateIn } from './time.ts';
import { useFocusOnOpen } from './focus.tsx';
import { lazyView, whenIdle } from '../../web-shared/lazy.tsx';
import type { Confirmed, Held, PageInfo } from './types.ts';

type Step = 'pick' | 'details' | 'done';

const steps = () => import('./Steps.tsx');
export const Details = lazyView(() => steps().then((m) => m.Details));
const Done = lazyView(() => steps().then((m) => m.Done));

export function Booker(props: { api: ApiClient; slug: string; page: PageInfo }) {
  const { api, slug, page } = props;
  const [step, setStep] = useState<Step>('pick');
  const [held, setHeld] = useState<Held | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [done, setDone] = useState<Confirmed | null>(null);
  const returned = useRef(false); // the first view does not move the focus; a return to it does
  // The tab's customer token is read when the details step first needs it, not during the first
  // render (the first read of sessionStorage is slow on a phone). undefined: not read yet.
  const [stored, setSignedIn] = useState<SignedIn | null | undefined>(undefined);
  const signedIn = stored !== undefined || step === 'pick' ? (stored ?? null) : fromTab(slug);

  // The next steps' chunk: fetched at the first touch or once the page is idle after its load, so a
  // chosen time opens them at once, and outside the page's load.
  useEffect(() => {
    const fetchSteps = () => void Details.preload();
    for (const e of ['pointerdown', 'keydown', 'touchstart'] as const)
      addEventListener(e, fetchSteps, { once: true, passive: true });
    const afterLoad = () => setTimeout(() => whenIdle(fetchSteps), 1000);
    if (document.readyState === 'complete') afterLoad();
    else addEventListener('load', afterLoad, { once: true });
  }, []);

  const [last, setLast] = useState<{ choice: Held['choice']; day: string } | null>(null);

  async function back(message: string | null) {
    // Let the hold go (nothing to do when it already lapsed), and wait for it: the times searched next
    // must include the one just let go (a search racing the release left it out).
    if (held)
      await attempt(() =>
        api.DELETE('/api/v1/book/{slug}/holds/{holdId}', {
          params: { path: { slug, holdId: held.hold.id } },
          headers: { 'x-page-session': pageSession(slug) ?? '' },
        }),
      );
    if (held) setLast({ choice: held.choice, day: dateIn(held.hold.starts_at, page.timezone) });
    setHeld(null);
    setNotice(message);
    setStep('pick');
  }

  if (step === 'pick' || !held) {
    return (
      <PickStep
        api={api}
        slug={slug}
        page={page}
        notice={notice}
        initial={last}
        focus={returned.current}
        onHeld={(h) => {
          returned.current = true;
          setHeld(h);
          setNotice(null);
          setStep('details');
        }}
      />
    );
  }
  if (step === 'done' && done) return <Done page={page} held={held} done={done} />;
  return (
    <Details
      api={api}
      slug={slug}
      page={page}
      held={held}
      signedIn={signedIn}
      setSignedIn={setSignedIn}
      back={back}
      onDone={(d) => {
        setDone(d);
        setStep('done');
      }}
    />
  );
}

function PickStep(props: {
  api: ApiClient;
  slug: string;
  page: PageInfo;
  notice: string | null;
  initial: PickerProps['initial'];
  focus: boolean;
  onHeld: (h: Held) => void;
}) {
  const heading = useFocusOnOpen<HTMLHeadingElement>(props.focus);
  return (
    <section aria-labelledby="pick-title">
      <h2 id="pick-title" tabIndex={-1} ref={heading}>
        Choose a time
      </h2>
      <Picker
        api={props.api}
        slug={props.slug}
        page={props.page}
        notice={props.notice}
        initial={props.initial}
        onHeld={props.onHeld}
      />
    </section>
  );
}

function fromTab(slug: string): SignedIn | null {
  const token = getCustomerToken(slug);
  return token ? { token, email: '', name: null } : null;
}
