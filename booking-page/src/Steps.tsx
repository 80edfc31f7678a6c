// The steps after a time is held (your details and the email code with the hold's countdown ->
// confirm -> done, with Add to calendar): a chunk of their own, loaded while the customer looks at the
// times (Booker.tsx), so the first screen's script is only what the first screen needs.
import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { attempt, newKey, pageSession, sentence, SLOT_LOST, type ApiClient } from './api.ts';
import { depositText } from './Picker.tsx';
import { EmailCode, type SignedIn } from './EmailCode.tsx';
import { Countdown, useRemaining } from './Countdown.tsx';
import { money, when } from './time.ts';
import { googleCalendarUrl, icsHref, type CalendarEvent } from './calendar.ts';
import { useFocusOnOpen, When } from './focus.tsx';
import type { Confirmed, Held, PageInfo } from './types.ts';

export function Details(props: {
  api: ApiClient;
  slug: string;
  page: PageInfo;
  held: Held;
  signedIn: SignedIn | null;
  setSignedIn: (s: SignedIn | null) => void;
  back: (message: string | null) => void;
  onDone: (d: Confirmed) => void;
}) {
  const { api, slug, page, held, signedIn } = props;
  const remaining = useRemaining(held.deadline);
  const heading = useFocusOnOpen<HTMLHeadingElement>();
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ text: string; lost: boolean } | null>(null);
  const key = useRef(newKey());
  const tz = page.timezone;
  const service = page.services.find((s) => s.id === held.choice.serviceId);
  const deposit = service ? depositText(page, service) : null;

  async function confirm(e: Event) {
    e.preventDefault();
    if (busy || !signedIn) return;
    setBusy(true);
    setError(null);
    const r = await attempt(() =>
      api.POST('/api/v1/book/{slug}/holds/{holdId}/confirm', {
        params: { path: { slug, holdId: held.hold.id } },
        body: note.trim() ? { guest_note: note.trim() } : {},
        headers: {
          authorization: `Bearer ${signedIn.token}`,
          'x-page-session': pageSession(slug) ?? '',
          'idempotency-key': key.current,
        },
      }),
    );
    setBusy(false);
    if (r.ok) return props.onDone(r.data);
    if (r.refusal.status === 401) props.setSignedIn(null);
    setError({ text: sentence(r.refusal), lost: SLOT_LOST.has(r.refusal.code ?? '') });
  }

  return (
    <section aria-labelledby="details-title">
      <h2 id="details-title" tabIndex={-1} ref={heading}>
        Your booking
      </h2>
      <p class="summary" data-testid="held-summary">
        <strong>{held.choice.label}</strong>
        <br />
        <When at={held.hold.starts_at} tz={tz} />
      </p>
      <Countdown remaining={remaining} what={when(held.hold.starts_at, tz).store} />
      {remaining === 0 && !error && (
        <p class="error" role="alert">
          Your hold has ended, so the time may be given to someone else.{' '}
          <button type="button" onClick={() => props.back('Your hold ended. Choose a time again.')}>
            Choose a time again
          </button>
        </p>
      )}
      {!signedIn ? (
        <EmailCode api={api} slug={slug} mode={page.sign_in} onSignedIn={props.setSignedIn} />
      ) : (
        <ConfirmForm onSubmit={confirm}>
          <p data-testid="signed-in">Signed in{signedIn.email ? ` as ${signedIn.email}` : ''}.</p>
          {deposit && (
            <p class="deposit" data-testid="deposit-note">
              This service asks for a {deposit}. Booking it now takes no money: the booking waits for the deposit, which
              the shop will ask you for.
            </p>
          )}
          <label>
            A note for the shop (optional)
            <textarea
              name="note"
              rows={2}
              maxLength={500}
              value={note}
              onInput={(e) => setNote(e.currentTarget.value)}
            />
          </label>
          <button type="submit" disabled={busy}>
            {busy ? 'Booking…' : 'Confirm booking'}
          </button>
        </ConfirmForm>
      )}
      {error && (
        <div class="error" role="alert" data-testid="confirm-error">
          <p>{error.text}</p>
          {error.lost && (
            <button type="button" onClick={() => props.back(`${error.text} Nothing was booked. Choose a time again.`)}>
              Choose another time
            </button>
          )}
        </div>
      )}
      <p>
        <button type="button" class="link" onClick={() => props.back(null)}>
          Back: choose another time (lets this one go)
        </button>
      </p>
    </section>
  );
}

/** The confirm step's form: its heading takes the focus once the customer is signed in. */
function ConfirmForm(props: { onSubmit: (e: Event) => void; children: ComponentChildren }) {
  const heading = useFocusOnOpen<HTMLHeadingElement>();
  return (
    <form onSubmit={props.onSubmit} aria-labelledby="confirm-title">
      <h3 id="confirm-title" tabIndex={-1} ref={heading}>
        Confirm
      </h3>
      {props.children}
    </form>
  );
}

export function Done(props: { page: PageInfo; held: Held; done: Confirmed }) {
  const heading = useFocusOnOpen<HTMLHeadingElement>();
  const a = props.done.appointment;
  const pending = a.status === 'pending_payment';
  return (
    <section aria-labelledby="done-title">
      <h2 id="done-title" tabIndex={-1} ref={heading}>
        {pending ? 'Booked: pending a deposit' : 'Booked'}
      </h2>
      <p class="summary" data-testid="done-summary">
        <strong>{props.held.choice.label}</strong>
        <br />
        <When at={a.starts_at} tz={props.page.timezone} />
      </p>
      {pending ? (
        <p class="deposit" data-testid="pending-note">
          This booking is pending a deposit of {money(a.deposit_pence, a.currency)}. No money has been taken: the shop
          will ask you for it.
        </p>
      ) : (
        <p data-testid="confirmed-note">Your booking is confirmed.</p>
      )}
      <p>
        {pending
          ? 'Once the deposit is paid, a confirmation email with a calendar file and a link to change or cancel follows.'
          : 'A confirmation email with a calendar file and a link to change or cancel is on its way.'}
      </p>
      <AddToCalendar page={props.page} label={props.held.choice.label} done={props.done} />
      {props.done.manage_url && (
        <p>
          <a href={props.done.manage_url}>Manage this booking</a>
        </p>
      )}
    </section>
  );
}

function AddToCalendar(props: { page: PageInfo; label: string; done: Confirmed }) {
  const a = props.done.appointment;
  const event: CalendarEvent = {
    uid: `${a.id}@${location.host}`,
    title: `${props.label} at ${props.page.store_name}`,
    startsAt: a.starts_at,
    endsAt: a.ends_at,
    location: props.page.shop.address?.replace(/\s*\n\s*/g, ', ') ?? null,
    details: `Booked at ${location.origin}/book/${props.page.slug}${props.page.shop.phone ? `. The shop: ${props.page.shop.phone_display ?? props.page.shop.phone}` : ''}`,
  };
  return (
    <p class="actions" data-testid="add-to-calendar">
      <span>Add to calendar:</span>
      <a href={icsHref(event)} download="booking.ics" data-testid="ics-download">
        Calendar file (.ics)
      </a>
      <a href={googleCalendarUrl(event)} target="_blank" rel="noopener" data-testid="google-calendar">
        Google Calendar
      </a>
    </p>
  );
}
