// The manage page (/book/{slug}/manage#token=...): the token came in the fragment, so it never reached
// a server log; it lives in this tab. It shows the booking and offers cancel (inside the shop's rules)
// and reschedule (a new time held first, then moved: the old time is kept until the new one is
// secured). Every change is a POST from a button, so a mail scanner that opens the link changes nothing.
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  attempt,
  manageToken,
  newKey,
  pageSession,
  sentence,
  setManageToken,
  takeFragmentToken,
  type ApiClient,
} from './api.ts';
import { Picker } from './Picker.tsx';
import { Countdown, useRemaining } from './Countdown.tsx';
import { useFocusOnOpen, When } from './focus.tsx';
import { money, when } from './time.ts';
import type { Held, Managed, PageInfo } from './types.ts';

function tokenFromLink(slug: string): string | null {
  const t = takeFragmentToken();
  if (t) setManageToken(slug, t);
  return t ?? manageToken(slug);
}

export function Manage(props: { api: ApiClient; slug: string; page: PageInfo }) {
  const { api, slug, page } = props;
  const [token, setToken] = useState(() => tokenFromLink(slug));
  const [view, setView] = useState<Managed | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [mode, setMode] = useState<'view' | 'cancel' | 'move'>('view');
  const [held, setHeld] = useState<Held | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const key = useRef(newKey());
  const auth = () => ({ authorization: `Bearer ${token ?? ''}` });

  async function load() {
    if (!token) return setError('This link has no booking in it. Open the link from your confirmation email.');
    const r = await attempt(() =>
      api.GET('/api/v1/book/{slug}/manage', { params: { path: { slug } }, headers: auth() }),
    );
    if (!r.ok) return setError(sentence(r.refusal));
    setError(null);
    setView(r.data);
  }
  useEffect(() => void load(), [token]);

  async function cancel() {
    if (busy) return;
    setBusy(true);
    const r = await attempt(() =>
      api.POST('/api/v1/book/{slug}/manage/cancel', {
        params: { path: { slug } },
        body: {},
        headers: { ...auth(), 'idempotency-key': key.current },
      }),
    );
    setBusy(false);
    if (!r.ok) return setError(sentence(r.refusal));
    key.current = newKey();
    setView(view && { ...view, appointment: r.data.appointment, can_cancel: false, can_reschedule: false });
    setMode('view');
    setDone('Your booking is cancelled.');
  }

  async function move() {
    if (busy || !held) return;
    setBusy(true);
    setError(null);
    const r = await attempt(() =>
      api.POST('/api/v1/book/{slug}/manage/reschedule', {
        params: { path: { slug } },
        body: { hold_id: held.hold.id },
        headers: { ...auth(), 'x-page-session': pageSession(slug) ?? '', 'idempotency-key': key.current },
      }),
    );
    setBusy(false);
    if (!r.ok) return setError(`${sentence(r.refusal)} Your booking was not changed.`);
    key.current = newKey();
    // The moved booking has a link of its own (the old one stops working).
    const next = /#token=(.+)$/.exec(r.data.manage_url)?.[1];
    if (next) {
      setManageToken(slug, next);
      setToken(next);
    } else await load();
    setHeld(null);
    setMode('view');
    setDone(`Your booking is moved to ${when(r.data.appointment.starts_at, page.timezone).store}.`);
  }

  const a = view?.appointment;
  const service = view?.service_name ?? page.services.find((s) => s.id === a?.service_id)?.name;
  const staff = view?.unit_name ?? page.staff.find((s) => s.unit_id === a?.unit_id)?.name;
  return (
    <section aria-labelledby="manage-title">
      <h2 id="manage-title">Your booking</h2>
      {done && (
        <p class="ok" role="status" data-testid="manage-done">
          {done}
        </p>
      )}
      {error && (
        <p class="error" role="alert" data-testid="manage-error">
          {error}
        </p>
      )}
      {a && (
        <div class="card" data-testid="managed">
          <p>
            <strong>{[service ?? 'Appointment', staff ? `with ${staff}` : ''].filter(Boolean).join(' ')}</strong>
          </p>
          <p>
            <When at={a.starts_at} tz={page.timezone} />
          </p>
          <p data-testid="managed-status">
            Status: {a.status.replace(/_/g, ' ')}
            {a.status === 'pending_payment'
              ? ` (a deposit of ${money(a.deposit_pence, a.currency)} is due; no money has been taken)`
              : ''}
          </p>
          {mode === 'view' && (
            <div class="actions">
              {view.can_reschedule && (
                <button
                  type="button"
                  onClick={() => {
                    setDone(null);
                    setMode('move');
                  }}
                >
                  Change the time
                </button>
              )}
              {view.can_cancel && (
                <button
                  type="button"
                  onClick={() => {
                    setDone(null);
                    setMode('cancel');
                  }}
                >
                  Cancel this booking
                </button>
              )}
            </div>
          )}
          {mode === 'view' && !view.can_cancel && a.status !== 'cancelled' && view.cancel_deadline && (
            <p class="hint">
              Online changes closed at {when(view.cancel_deadline, page.timezone).store}. Please call the shop.
            </p>
          )}
        </div>
      )}
      {mode === 'cancel' && a && <ConfirmCancel busy={busy} onYes={() => void cancel()} onNo={() => setMode('view')} />}
      {mode === 'move' && a && !held && (
        <MovePicker
          api={api}
          slug={slug}
          page={page}
          serviceId={a.service_id ?? undefined}
          token={token ?? undefined}
          onHeld={setHeld}
          onBack={() => setMode('view')}
        />
      )}
      {mode === 'move' && held && view && (
        <ConfirmMove
          held={held}
          view={view}
          page={page}
          busy={busy}
          onYes={() => void move()}
          onNo={() => {
            setHeld(null);
            setMode('view');
          }}
        />
      )}
    </section>
  );
}

function MovePicker(props: {
  api: ApiClient;
  slug: string;
  page: PageInfo;
  serviceId?: string;
  token?: string;
  onHeld: (h: Held) => void;
  onBack: () => void;
}) {
  const heading = useFocusOnOpen<HTMLHeadingElement>();
  return (
    <section aria-labelledby="move-title">
      <h3 id="move-title" tabIndex={-1} ref={heading}>
        Choose a new time
      </h3>
      <p>Your booking stays as it is until the new time is secured.</p>
      <Picker
        api={props.api}
        slug={props.slug}
        page={props.page}
        fixedServiceId={props.serviceId}
        bearer={props.token}
        onHeld={props.onHeld}
      />
      <button type="button" class="link" onClick={props.onBack}>
        Keep my booking as it is
      </button>
    </section>
  );
}

function ConfirmCancel(props: { busy: boolean; onYes: () => void; onNo: () => void }) {
  const heading = useFocusOnOpen<HTMLHeadingElement>();
  return (
    <div class="card" role="group" aria-labelledby="cancel-title">
      <h3 id="cancel-title" tabIndex={-1} ref={heading}>
        Cancel this booking?
      </h3>
      <div class="actions">
        <button type="button" disabled={props.busy} onClick={props.onYes}>
          Yes, cancel it
        </button>
        <button type="button" onClick={props.onNo}>
          No, keep it
        </button>
      </div>
    </div>
  );
}

/**
 * What the move will cost, told before the customer confirms: a hold of another variant or other
 * add-ons is priced as a fresh booking (the hold's quote, and its deposit when one is still due);
 * the same choice at another time keeps the price (docs/decisions/pricing.md).
 */
function moveQuote(held: Held, view: Managed): string {
  const a = view.appointment;
  const sameAddons =
    held.choice.addonIds.length === view.addon_ids.length &&
    held.choice.addonIds.every((id) => view.addon_ids.includes(id));
  if (held.choice.variantId === view.variant_id && sameAddons)
    return `The price stays ${money(a.price_pence, a.currency)}.`;
  const q = held.hold;
  const deposit =
    a.status === 'pending_payment' && a.payment_status === 'none' && q.deposit_pence > 0
      ? `; a deposit of ${money(q.deposit_pence, q.currency)} is due`
      : '';
  return `This changes what is booked: the new price is ${money(q.price_pence, q.currency)} (it was ${money(a.price_pence, a.currency)})${deposit}.`;
}

function ConfirmMove(props: {
  held: Held;
  view: Managed;
  page: PageInfo;
  busy: boolean;
  onYes: () => void;
  onNo: () => void;
}) {
  const heading = useFocusOnOpen<HTMLHeadingElement>();
  const remaining = useRemaining(props.held.deadline);
  return (
    <div class="card" role="group" aria-labelledby="move-confirm-title">
      <h3 id="move-confirm-title" tabIndex={-1} ref={heading}>
        Move your booking to this time?
      </h3>
      <p data-testid="move-summary">
        <When at={props.held.hold.starts_at} tz={props.page.timezone} />
      </p>
      <p data-testid="move-quote">{moveQuote(props.held, props.view)}</p>
      <Countdown remaining={remaining} what={when(props.held.hold.starts_at, props.page.timezone).store} />
      <div class="actions">
        <button type="button" disabled={props.busy} onClick={props.onYes}>
          Move my booking
        </button>
        <button type="button" onClick={props.onNo}>
          Keep the old time
        </button>
      </div>
    </div>
  );
}
