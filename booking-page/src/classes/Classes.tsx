// The shop's classes on its page (issue 44), a chunk of its own loaded by slot.tsx: the week's classes
// with seats left, and for one of them "Book" (a seat is left) or "Join the waitlist" (full), after the
// email code the appointment steps use. An offer link (?offer=<booking id>) opens the offer first
// (Offer.tsx). Every refusal shows the envelope's sentence and books nothing.
import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import type { Ok } from '../../../client/index.ts';
import { attempt, getCustomerToken, newKey, sentence, type ApiClient } from '../api.ts';
import { useFocusOnOpen, When } from '../focus.tsx';
import { EmailCode, type SignedIn } from '../EmailCode.tsx';
import { addDays, longDate, money } from '../time.ts';
import type { PageInfo } from '../types.ts';
import { Offer } from './Offer.tsx';

export type Week = Ok<'/api/v1/book/{slug}/classes', 'get'>;
export type ClassOccurrence = Week['occurrences'][number];
export interface ClassesProps {
  api: ApiClient;
  slug: string;
  page: PageInfo;
  first: Week | null;
  offer: string | null;
}

/** The tab's customer token from the email code, shared with the appointment steps. */
export function useSignedIn(slug: string) {
  return useState<SignedIn | null>(() => {
    const token = getCustomerToken(slug);
    return token ? { token, email: '', name: null } : null;
  });
}

function seats(o: ClassOccurrence): string {
  if (o.joinable === 'book') return `${o.seats_left} of ${o.capacity} ${o.seats_left === 1 ? 'seat' : 'seats'} left`;
  if (o.joinable === 'waitlist') return `Full: ${o.waitlisted} on the waitlist`;
  return 'Full';
}

export function Classes(props: ClassesProps) {
  const { api, slug, page } = props;
  const [week, setWeek] = useState<Week | null>(props.first);
  const [error, setError] = useState<string | null>(null);
  const [chosen, setChosen] = useState<ClassOccurrence | null>(null);
  const signed = useSignedIn(slug);
  const today = props.first?.from ?? null;

  async function load(from: string | null) {
    setError(null);
    const r = await attempt(() =>
      api.GET('/api/v1/book/{slug}/classes', { params: { path: { slug }, query: from ? { from } : {} } }),
    );
    if (!r.ok) return setError(sentence(r.refusal));
    setWeek(r.data);
  }

  return (
    <>
      {props.offer && <Offer api={api} slug={slug} page={page} bookingId={props.offer} signed={signed} />}
      <section class="classes" aria-labelledby="classes-title" data-testid="classes">
        <h2 id="classes-title">Classes</h2>
        {week && (
          <div class="actions week-nav">
            <button
              type="button"
              class="link"
              disabled={!today || week.from <= today}
              onClick={() => void load(addDays(week.from, -7))}
            >
              Previous week
            </button>
            <span data-testid="classes-week">
              {longDate(week.from)} to {longDate(week.to)}
            </span>
            <button type="button" class="link" onClick={() => void load(addDays(week.from, 7))}>
              Next week
            </button>
          </div>
        )}
        {error && (
          <p class="error" role="alert">
            {error}
          </p>
        )}
        {week && week.occurrences.length === 0 && <p>No classes this week.</p>}
        {week && week.occurrences.length > 0 && (
          <ul class="class-list">
            {week.occurrences.map((o) => (
              <li key={o.id} class="card" data-testid="class-occurrence">
                <strong>{o.name}</strong>
                {o.instructor_name && <> with {o.instructor_name}</>}
                {typeof o.price_pence === 'number' && o.price_pence > 0 && (
                  <> · {money(o.price_pence, page.currency)}</>
                )}
                <br />
                <When at={o.starts_at} tz={week.timezone} />
                <br />
                <span data-testid="class-seats">{seats(o)}</span>
                {o.joinable !== 'full' && (
                  <div class="actions">
                    <button
                      type="button"
                      aria-label={`${o.joinable === 'book' ? 'Book' : 'Join the waitlist for'} ${o.name}`}
                      onClick={() => setChosen(o)}
                    >
                      {o.joinable === 'book' ? 'Book' : 'Join the waitlist'}
                    </button>
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
        {chosen && week && (
          <Join
            key={chosen.id}
            api={api}
            slug={slug}
            page={page}
            tz={week.timezone}
            occurrence={chosen}
            signed={signed}
            onDone={() => void load(week.from)}
          />
        )}
      </section>
    </>
  );
}

/** A line that takes the focus when it appears (the step after the sign-in), as the appointment steps' headings do. */
export function FocusedLine(props: { testid?: string; children: ComponentChildren }) {
  const ref = useFocusOnOpen<HTMLParagraphElement>();
  return (
    <p tabIndex={-1} ref={ref} data-testid={props.testid}>
      {props.children}
    </p>
  );
}

function Join(props: {
  api: ApiClient;
  slug: string;
  page: PageInfo;
  tz: string;
  occurrence: ClassOccurrence;
  signed: ReturnType<typeof useSignedIn>;
  onDone: () => void;
}) {
  const { api, slug, occurrence: o } = props;
  const [signedIn, setSignedIn] = props.signed;
  const heading = useFocusOnOpen<HTMLHeadingElement>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const key = useRef(newKey());
  const waitlist = o.joinable === 'waitlist';

  async function book(e: Event) {
    e.preventDefault();
    if (busy || !signedIn) return;
    setBusy(true);
    setError(null);
    const r = await attempt(() =>
      api.POST('/api/v1/book/{slug}/classes/occurrences/{occurrenceId}/bookings', {
        params: { path: { slug, occurrenceId: o.id } },
        body: {},
        headers: { authorization: `Bearer ${signedIn.token}`, 'idempotency-key': key.current },
      }),
    );
    setBusy(false);
    if (!r.ok) {
      if (r.refusal.status === 401) setSignedIn(null);
      return setError(sentence(r.refusal));
    }
    const b = r.data.booking;
    setDone(
      b.status === 'confirmed'
        ? `Booked: your place in ${o.name} is confirmed. A confirmation email is on its way.`
        : `You're on the waitlist for ${o.name}, place ${b.waitlist_position}. If a seat comes free we'll email you.`,
    );
    props.onDone();
  }

  return (
    <section class="card join" aria-labelledby="join-title">
      <h3 id="join-title" tabIndex={-1} ref={heading}>
        {waitlist ? 'Join the waitlist' : 'Book'}: {o.name}
      </h3>
      <p class="summary">
        <When at={o.starts_at} tz={props.tz} />
      </p>
      {done ? (
        <p class="ok" role="status" data-testid="class-done">
          {done}
        </p>
      ) : !signedIn ? (
        <EmailCode api={api} slug={slug} mode={props.page.sign_in} onSignedIn={setSignedIn} />
      ) : (
        <form onSubmit={book}>
          <FocusedLine testid="signed-in">Signed in{signedIn.email ? ` as ${signedIn.email}` : ''}.</FocusedLine>
          {waitlist && (
            <p>
              This class is full. On the waitlist you are offered a seat, in the order people joined, if one comes free.
            </p>
          )}
          <button type="submit" disabled={busy}>
            {busy ? 'Booking…' : waitlist ? 'Join the waitlist' : 'Book this class'}
          </button>
        </form>
      )}
      {error && (
        <p class="error" role="alert" data-testid="class-error">
          {error}
        </p>
      )}
    </section>
  );
}
