// The offer email's link (?offer=<booking id>): after the email code, the customer's own booking is
// read (GET /api/v1/book/{slug}/classes/bookings/{id}: someone else's answers 404) and an offered seat
// is taken through POST /api/v1/classes/bookings/{id}/accept, the operation the desk uses for them.
// A lapsed offer is refused by the server (OFFER_EXPIRED) and its sentence shown.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Ok } from '../../../client/index.ts';
import { attempt, newKey, sentence, setCustomerToken, type ApiClient } from '../api.ts';
import { useFocusOnOpen, When } from '../focus.tsx';
import { EmailCode, type SignedIn } from '../EmailCode.tsx';
import { when } from '../time.ts';
import type { PageInfo } from '../types.ts';
import { FocusedLine } from './Classes.tsx';

type Own = Ok<'/api/v1/book/{slug}/classes/bookings/{bookingId}', 'get'>['booking'];

const STATUS: Record<string, string> = {
  confirmed: 'You have this seat: your booking is confirmed.',
  attended: 'You attended this class.',
  waitlisted: 'You are on the waitlist; no seat is offered to you yet.',
  promotion_expired: 'This offer has ended, and the seat went to the next person in line.',
  cancelled: 'This booking was cancelled.',
  no_show: 'This booking was marked as missed.',
};

export function Offer(props: {
  api: ApiClient;
  slug: string;
  page: PageInfo;
  bookingId: string;
  signed: [SignedIn | null, (s: SignedIn | null) => void];
}) {
  const { api, slug, page, bookingId } = props;
  const [signedIn, setSignedIn] = props.signed;
  const heading = useFocusOnOpen<HTMLHeadingElement>();
  const [own, setOwn] = useState<Own | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const key = useRef(newKey());
  const auth = signedIn ? { authorization: `Bearer ${signedIn.token}` } : undefined;

  useEffect(() => {
    if (!signedIn) return;
    void attempt(() =>
      api.GET('/api/v1/book/{slug}/classes/bookings/{bookingId}', {
        params: { path: { slug, bookingId } },
        headers: auth,
      }),
    ).then((r) => {
      if (r.ok) return setOwn(r.data.booking);
      if (r.refusal.status === 401) setSignedIn(null);
      setError(
        r.refusal.status === 404
          ? 'This offer is not for the email you signed in with. Sign in with the email the offer was sent to.'
          : sentence(r.refusal),
      );
    });
  }, [signedIn?.token]);

  async function accept(e: Event) {
    e.preventDefault();
    if (busy || !auth) return;
    setBusy(true);
    setError(null);
    const r = await attempt(() =>
      api.POST('/api/v1/classes/bookings/{bookingId}/accept', {
        params: { path: { bookingId } },
        body: {},
        headers: { ...auth, 'idempotency-key': key.current },
      }),
    );
    setBusy(false);
    if (!r.ok) return setError(sentence(r.refusal));
    setOwn({ ...own!, status: r.data.booking.status });
    setDone(true);
  }

  return (
    <section class="card offer" aria-labelledby="offer-title" data-testid="class-offer">
      <h2 id="offer-title" tabIndex={-1} ref={heading}>
        A seat offered to you
      </h2>
      {!signedIn ? (
        <>
          <p>Sign in with the email the offer was sent to, and take the seat.</p>
          <EmailCode api={api} slug={slug} mode={page.sign_in} onSignedIn={setSignedIn} />
        </>
      ) : (
        own && (
          <>
            <FocusedLine>
              <strong>{own.class_name}</strong>
              <br />
              <When at={own.starts_at} tz={page.timezone} />
            </FocusedLine>
            {done ? (
              <p class="ok" role="status" data-testid="offer-accepted">
                Booked: the seat is yours. A confirmation email is on its way.
              </p>
            ) : own.status === 'promotion_pending' ? (
              <form onSubmit={accept}>
                {own.offer_expires_at && (
                  <p data-testid="offer-until">Held for you until {when(own.offer_expires_at, page.timezone).store}.</p>
                )}
                <button type="submit" disabled={busy}>
                  {busy ? 'Taking the seat…' : 'Take this seat'}
                </button>
              </form>
            ) : (
              <p data-testid="offer-status">{STATUS[own.status] ?? own.status}</p>
            )}
          </>
        )
      )}
      {error && (
        <p class="error" role="alert" data-testid="offer-error">
          {error}
        </p>
      )}
      {signedIn && !own && error && (
        <p>
          <button
            type="button"
            class="link"
            onClick={() => {
              setCustomerToken(slug, null);
              setError(null);
              setSignedIn(null);
            }}
          >
            Sign in with another email
          </button>
        </p>
      )}
    </section>
  );
}
