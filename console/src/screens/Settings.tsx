// The store's booking settings: read with GET /api/v1/bookings/settings, saved with PATCH (only the
// fields changed). A refusal shows the envelope's message and keeps what was typed. The booking page's
// address (slug) and switch are settings too; once it is on, its link and embed snippet are shown.
import { useEffect, useState } from 'preact/hooks';
import { useApp, useAction, idem } from '../api.ts';
import { DeliveryWarning } from './DeliveryWarning.tsx';
import type { Body, Ok } from '../../../client/index.ts';
import { CalendarFeeds } from './CalendarFeeds.tsx';

type Settings = Ok<'/api/v1/bookings/settings', 'get'>['settings'];
type Patch = Body<'/api/v1/bookings/settings', 'patch'>;
type NumberField = Exclude<
  keyof Settings,
  | 'store_id'
  | 'timezone'
  | 'cors_origins'
  | 'booking_page_slug'
  | 'booking_page_enabled'
  | 'calendar_feed_contacts'
  | DetailField
>;
// The shop's details on its booking page (blank clears one): [field, label, lines, most characters].
type DetailField = 'address' | 'phone' | 'website' | 'about';
const DETAILS: Array<[DetailField, string, number, number]> = [
  ['address', 'Address (shown with a map link)', 3, 300],
  ['phone', 'Phone (a UK number)', 1, 40],
  ['website', 'Website (https://...)', 1, 300],
  ['about', 'About the shop (a few lines)', 3, 600],
];

const FIELDS: Array<[NumberField, string, string]> = [
  ['slot_step_min', 'Minutes between offered start times', 'from local midnight'],
  ['min_notice_min', 'Minimum notice (minutes)', 'no online slot sooner than this'],
  ['booking_horizon_days', 'Booking horizon (days)', 'how far ahead customers can book'],
  ['hold_minutes', 'Checkout hold (minutes)', 'how long a slot is held during checkout'],
  ['deposit_due_minutes', 'Deposit due within (minutes)', 'an unpaid booking is cancelled after this'],
  ['reminder_lead_hours', 'Reminder lead (hours)', 'how long before the start a reminder goes'],
  ['cancellation_window_min', 'Cancellation window (minutes)', 'customers cannot cancel or move within this'],
];

export function Settings() {
  const { api, session, notify } = useApp();
  const [saved, setSaved] = useState<Settings | null>(null);
  const [form, setForm] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const save = useAction();

  const fill = (s: Settings) => {
    setSaved(s);
    setForm({
      ...Object.fromEntries(FIELDS.map(([k]) => [k, String(s[k])])),
      cors_origins: s.cors_origins.join('\n'),
      booking_page_slug: s.booking_page_slug ?? '',
      booking_page_enabled: String(s.booking_page_enabled),
      ...Object.fromEntries(DETAILS.map(([k]) => [k, s[k] ?? ''])),
    });
  };
  useEffect(() => {
    void api
      .GET('/api/v1/bookings/settings', { params: { query: { store_id: session.storeId } } })
      .then(({ data, error }) => {
        if (!data) return setError((error as any)?.error?.message ?? 'Could not load the settings');
        fill(data.settings);
      });
  }, []);

  async function submit(e: Event) {
    e.preventDefault();
    if (!saved) return;
    const body: Patch = { store_id: session.storeId };
    for (const [k] of FIELDS) if (form[k] !== String(saved[k])) body[k] = Number(form[k]);
    const origins = form.cors_origins
      .split('\n')
      .map((o) => o.trim())
      .filter(Boolean);
    if (origins.join('\n') !== saved.cors_origins.join('\n')) body.cors_origins = origins;
    const slug = form.booking_page_slug.trim() || null;
    if (slug !== saved.booking_page_slug) body.booking_page_slug = slug;
    if (form.booking_page_enabled !== String(saved.booking_page_enabled))
      body.booking_page_enabled = form.booking_page_enabled === 'true';
    for (const [k] of DETAILS) if (form[k].trim() !== (saved[k] ?? '')) body[k] = form[k].trim() || null;
    if (Object.keys(body).length === 1) return notify('Nothing changed');
    const r = await save.run((key) => api.PATCH('/api/v1/bookings/settings', { body, headers: idem(key) }));
    if (r) {
      fill(r.settings);
      notify('Settings saved');
    }
  }

  return (
    <section aria-labelledby="settings-title">
      <div class="toolbar">
        <h1 id="settings-title">Settings</h1>
        {saved && <span class="tz">{saved.timezone}</span>}
      </div>
      <DeliveryWarning />
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {saved && (
        <form class="card form settings" onSubmit={submit} aria-label="Booking settings">
          {FIELDS.map(([k, label, hint]) => (
            <label key={k}>
              {label}
              <input
                type="number"
                value={form[k]}
                onInput={(e) => setForm({ ...form, [k]: e.currentTarget.value })}
                name={k}
                required
                aria-describedby={`${k}-hint`}
              />
              <small id={`${k}-hint`}>{hint}</small>
            </label>
          ))}
          <label>
            Websites allowed to book online (one origin a line, e.g. https://shop.example)
            <textarea
              rows={3}
              value={form.cors_origins}
              onInput={(e) => setForm({ ...form, cors_origins: e.currentTarget.value })}
              name="cors_origins"
            />
          </label>
          <fieldset>
            <legend>Booking page</legend>
            <label>
              Page address (lower-case letters, digits and hyphens)
              <input
                value={form.booking_page_slug}
                onInput={(e) => setForm({ ...form, booking_page_slug: e.currentTarget.value })}
                name="booking_page_slug"
                aria-describedby="slug-hint"
              />
              <small id="slug-hint">
                {location.origin}/book/{form.booking_page_slug || 'your-shop'}
              </small>
            </label>
            <label class="inline">
              <input
                type="checkbox"
                checked={form.booking_page_enabled === 'true'}
                onChange={(e) => setForm({ ...form, booking_page_enabled: String(e.currentTarget.checked) })}
                name="booking_page_enabled"
              />{' '}
              Customers can book on the page
            </label>
          </fieldset>
          <fieldset>
            <legend>Shop details on the booking page</legend>
            {DETAILS.map(([k, label, lines, max]) => (
              // biome-ignore lint/a11y/noLabelWithoutControl: the control is the textarea or input chosen just below
              <label key={k}>
                {label}
                {lines > 1 ? (
                  <textarea
                    rows={lines}
                    maxLength={max}
                    value={form[k]}
                    onInput={(e) => setForm({ ...form, [k]: e.currentTarget.value })}
                    name={k}
                  />
                ) : (
                  <input
                    type={(k === 'phone' ? 'tel' : 'text') as 'text'}
                    inputMode={k === 'website' ? 'url' : undefined}
                    maxLength={max}
                    value={form[k]}
                    onInput={(e) => setForm({ ...form, [k]: e.currentTarget.value })}
                    name={k}
                  />
                )}
              </label>
            ))}
          </fieldset>
          {save.error && (
            <p class="error" role="alert" data-testid="settings-error">
              {save.error}
            </p>
          )}
          <button type="submit" disabled={save.busy}>
            Save settings
          </button>
        </form>
      )}
      {saved?.booking_page_enabled && saved.booking_page_slug && <PageLink slug={saved.booking_page_slug} />}
      <CalendarFeeds />
    </section>
  );
}

/** The live page's link and the one-line snippet for the shop's own site (which must be listed above). */
function PageLink(props: { slug: string }) {
  const url = `${location.origin}/book/${props.slug}`;
  const snippet = `<script src="${location.origin}/book/embed.js" data-slug="${props.slug}"></script>`;
  return (
    <section class="card" aria-labelledby="page-link-title" data-testid="booking-page-link">
      <h2 id="page-link-title">Your booking page</h2>
      <p>
        Share this link:{' '}
        <a href={url} target="_blank" rel="noopener">
          {url}
        </a>
      </p>
      <label>
        Put the page on your own website (add the site to "Websites allowed to book online" first)
        <textarea readOnly rows={2} value={snippet} name="embed_snippet" onFocus={(e) => e.currentTarget.select()} />
      </label>
      <small>Add data-mode="button" for a "Book now" button that opens the page instead.</small>
    </section>
  );
}
