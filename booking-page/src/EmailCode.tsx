// Proving an email (or, where the shop texts, a UK mobile): send a 6-digit code (guarded by the proof
// of work and the honeypot), type it, sign in. The customer token that comes back lives in this tab
// only. Name and the other contact are used only when the customer is new (the server never lets
// unverified input change an existing customer). `mode` is the page's sign_in: text is offered only
// when it is 'email_or_sms' or 'sms'.
import { useRef, useState } from 'preact/hooks';
import { attempt, sentence, setCustomerToken, type ApiClient } from './api.ts';
import { Altcha, CHECK_FAILED, payloadFrom, type Guard } from './altcha.tsx';
import { Honeypot, honeypot } from './honeypot.tsx';

export interface SignedIn {
  token: string;
  /** What the customer is shown as signed in with: the email, or the mobile when texted. */
  email: string;
  name: string | null;
}

type Mode = 'email' | 'email_or_sms' | 'sms' | 'none';

export function EmailCode(props: { api: ApiClient; slug: string; mode?: Mode; onSignedIn: (s: SignedIn) => void }) {
  const { api, slug } = props;
  const mode = props.mode ?? 'email';
  const [by, setBy] = useState<'email' | 'sms'>(mode === 'sms' ? 'sms' : 'email');
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const guard = useRef<Guard | null>(null);
  const codeInput = useRef<HTMLInputElement>(null);
  const texting = by === 'sms';

  async function send(e: Event) {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    const altcha = await payloadFrom(guard);
    if (!altcha) {
      setBusy(false);
      return setError(CHECK_FAILED);
    }
    const website = honeypot('hp-code');
    const r = texting
      ? await attempt(() =>
          api.POST('/api/v1/book/{slug}/sms-code', {
            params: { path: { slug } },
            body: { phone: phone.trim(), altcha, website },
          }),
        )
      : await attempt(() =>
          api.POST('/api/v1/book/{slug}/email-code', {
            params: { path: { slug } },
            body: { email: email.trim(), altcha, website },
          }),
        );
    setBusy(false);
    if (!r.ok) return setError(sentence(r.refusal));
    setSent(true);
    setCode('');
    setNote(
      `We sent a 6-digit code to ${texting ? phone.trim() : email.trim()}. It works once, for ${Math.round(r.data.expires_in_s / 60)} minutes.`,
    );
    requestAnimationFrame(() => codeInput.current?.focus());
  }

  async function verify(e: Event) {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    const given = { code: code.trim(), ...(name.trim() ? { name: name.trim() } : {}) };
    const r = texting
      ? await attempt(() =>
          api.POST('/api/v1/book/{slug}/sms-code/verify', {
            params: { path: { slug } },
            body: { phone: phone.trim(), ...given, ...(email.trim() ? { email: email.trim() } : {}) },
          }),
        )
      : await attempt(() =>
          api.POST('/api/v1/book/{slug}/email-code/verify', {
            params: { path: { slug } },
            body: { email: email.trim(), ...given, ...(phone.trim() ? { phone: phone.trim() } : {}) },
          }),
        );
    setBusy(false);
    if (!r.ok) {
      if (r.refusal.code === 'CODE_EXPIRED') setSent(false);
      return setError(sentence(r.refusal));
    }
    setCustomerToken(slug, r.data.token);
    props.onSignedIn({
      token: r.data.token,
      email: r.data.customer.email ?? (texting ? phone.trim() : email.trim()),
      name: r.data.customer.name ?? null,
    });
  }

  return (
    <div class="email-code">
      <form onSubmit={send} aria-labelledby="you-title" noValidate={false}>
        <h3 id="you-title">Your details</h3>
        {mode === 'email_or_sms' && (
          <fieldset class="code-by" disabled={sent}>
            <legend>Send my code by</legend>
            <label>
              <input type="radio" name="code-by" value="email" checked={!texting} onChange={() => setBy('email')} />{' '}
              Email
            </label>
            <label>
              <input type="radio" name="code-by" value="sms" checked={texting} onChange={() => setBy('sms')} /> Text (UK
              mobile)
            </label>
          </fieldset>
        )}
        <label>
          {texting ? 'Email (optional)' : 'Email'}
          <input
            type="email"
            name="email"
            autoComplete="email"
            required={!texting}
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
            disabled={sent}
            aria-describedby={texting ? 'name-hint' : undefined}
          />
        </label>
        <label>
          Name
          <input
            name="name"
            autoComplete="name"
            value={name}
            onInput={(e) => setName(e.currentTarget.value)}
            disabled={sent}
            aria-describedby="name-hint"
          />
        </label>
        <label>
          {texting ? 'UK mobile' : 'Mobile (optional)'}
          <input
            type="tel"
            name="phone"
            autoComplete="tel"
            required={texting}
            value={phone}
            onInput={(e) => setPhone(e.currentTarget.value)}
            disabled={sent}
            aria-describedby={texting ? undefined : 'name-hint'}
          />
        </label>
        <small id="name-hint">Used when you book here for the first time.</small>
        <Honeypot id="hp-code" />
        {!sent && (
          <button type="submit" disabled={busy}>
            {busy ? 'Sending…' : texting ? 'Text me a code' : 'Email me a code'}
          </button>
        )}
      </form>
      {/* Outside the form: the widget's own checkbox is a required control, which would stop the
          browser from submitting while the proof of work runs in the background. */}
      {!sent && <Altcha api={api} slug={slug} guard={guard} />}
      {sent && (
        <form onSubmit={verify} aria-label="Sign in with the code">
          {note && (
            <p class="ok" data-testid="code-sent">
              {note}
            </p>
          )}
          <label>
            6-digit code
            <input
              ref={codeInput}
              name="code"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              required
              value={code}
              onInput={(e) => setCode(e.currentTarget.value)}
            />
          </label>
          <div class="actions">
            <button type="submit" disabled={busy}>
              {busy ? 'Checking…' : 'Sign in'}
            </button>
            <button
              type="button"
              class="link"
              onClick={() => {
                setSent(false);
                setError(null);
                setNote(null);
              }}
            >
              {texting ? 'Use another number or send a new code' : 'Use another email or send a new code'}
            </button>
          </div>
        </form>
      )}
      {error && (
        <p class="error" role="alert" data-testid="code-error">
          {error}
        </p>
      )}
    </div>
  );
}
