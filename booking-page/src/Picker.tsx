// Service (variant, add-ons) -> who -> day -> time, as Cal.com's Booker orders them. Choosing a time
// places the hold at once (guarded by the proof of work); a slot lost to someone else says so, shows
// the times free now, and holds nothing.
import { useEffect, useRef, useState } from 'preact/hooks';
import { attempt, pageSession, setPageSession, SLOT_LOST, sentence, type ApiClient, type Outcome } from './api.ts';
import { Altcha, CHECK_FAILED, payloadFrom, type Guard } from './altcha.tsx';
import { Honeypot, honeypot } from './honeypot.tsx';
import {
  addDays,
  browserClock,
  browserOffset,
  browserZone,
  dayTitle,
  minutes,
  money,
  shortDate,
  slotOffset,
  zoneAt,
} from './time.ts';
import type { Availability, Choice, Held, PageInfo, PageService, Slot } from './types.ts';

export interface PickerProps {
  api: ApiClient;
  slug: string;
  page: PageInfo;
  /** Rescheduling: the service is the booking's own, and the hold carries the manage token. */
  fixedServiceId?: string;
  bearer?: string;
  onHeld: (held: Held) => void;
  /** Set when the page came back here after a refusal: shown first, above fresh times. */
  notice?: string | null;
  /** Coming back from a hold: the same choices and the same day as before. */
  initial?: { choice: Choice; day: string } | null;
}

function price(page: PageInfo, pence: number) {
  return money(pence, page.currency);
}

/** "Deposit £10.00" or "30% deposit", beside a service that asks for one. */
export function depositText(page: PageInfo, s: PageService): string | null {
  if (!s.deposit) return null;
  if (typeof s.deposit.amount_pence === 'number')
    return `deposit ${money(Math.min(s.deposit.amount_pence, s.price_pence), page.currency)}`;
  if (typeof s.deposit.percent === 'number') return `${s.deposit.percent}% deposit`;
  return 'deposit due';
}

type TimesQuery = {
  service_id: string;
  variant_id?: string;
  addon_ids?: string;
  unit_id?: string;
  from_date?: string;
  to_date?: string;
};
const early = new Map<string, Promise<Outcome<Availability>>>();

/** The search, or the one already asked for these choices before the first render (used once). */
function searchTimes(api: ApiClient, slug: string, query: TimesQuery): Promise<Outcome<Availability>> {
  const key = JSON.stringify(query);
  const started = early.get(key);
  early.delete(key);
  return started ?? attempt(() => api.GET('/api/v1/book/{slug}/availability', { params: { path: { slug }, query } }));
}

/** Starts the first screen's search (the first service, anyone, the first week) as soon as the page is known. */
export function searchFirstTimes(api: ApiClient, slug: string, page: PageInfo) {
  const first = page.services[0];
  if (first) early.set(JSON.stringify({ service_id: first.id }), searchTimes(api, slug, { service_id: first.id }));
}

/**
 * True from the customer's first touch, key or scroll. The proof-of-work widget (the largest part of
 * the page's script) waits for it; a time chosen before the widget is ready waits for it in turn
 * (payloadFrom), so the first press pays at most the widget's load.
 */
function useFirstInteraction(): boolean {
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    const events = ['pointerdown', 'keydown', 'touchstart', 'scroll'] as const;
    const arm = () => setArmed(true);
    for (const e of events) addEventListener(e, arm, { once: true, passive: true });
    return () => {
      for (const e of events) removeEventListener(e, arm);
    };
  }, []);
  return armed;
}

export function Picker(props: PickerProps) {
  const { api, slug, page } = props;
  const services = props.fixedServiceId ? page.services.filter((s) => s.id === props.fixedServiceId) : page.services;
  const before = props.initial;
  const [serviceId, setServiceId] = useState(before?.choice.serviceId ?? services[0]?.id ?? '');
  const [variantId, setVariantId] = useState<string>(before?.choice.variantId ?? '');
  const [addonIds, setAddonIds] = useState<string[]>(before?.choice.addonIds ?? []);
  const [unitId, setUnitId] = useState<string>(before?.choice.unitId ?? '');
  const [fromDate, setFromDate] = useState<string | undefined>(before?.day);
  const [avail, setAvail] = useState<Availability | null>(null);
  const [day, setDay] = useState<string>(before?.day ?? '');
  const [message, setMessage] = useState<string | null>(props.notice ?? null);
  const [busy, setBusy] = useState(false);
  const [reload, setReload] = useState(0);
  const seq = useRef(0);
  const guard = useRef<Guard | null>(null);
  const service: PageService | undefined = services.find((s) => s.id === serviceId);
  const armed = useFirstInteraction();

  useEffect(() => {
    if (!serviceId) return;
    const mine = ++seq.current;
    const query = {
      service_id: serviceId,
      ...(variantId ? { variant_id: variantId } : {}),
      ...(addonIds.length ? { addon_ids: addonIds.join(',') } : {}),
      ...(unitId ? { unit_id: unitId } : {}),
      ...(fromDate ? { from_date: fromDate, to_date: addDays(fromDate, 6) } : {}),
    };
    void searchTimes(api, slug, query).then((r) => {
      if (mine !== seq.current) return;
      if (!r.ok) return setMessage(sentence(r.refusal));
      setAvail(r.data);
      const days = r.data.days;
      setDay((d) =>
        days.some((x) => x.date === d && x.slots.length)
          ? d
          : (days.find((x) => x.slots.length)?.date ?? days[0]?.date ?? ''),
      );
    });
  }, [serviceId, variantId, addonIds.join(','), unitId, fromDate, reload]);

  const tz = page.timezone;
  const shown = avail?.days.find((d) => d.date === day);
  // Each time on the shop's clock (the API's local_time) with its zone's short name, and on the
  // browser's clock beside it where that reads differently. No Intl here (time.ts says why).
  const times =
    shown?.slots.map((s) => {
      const offset = slotOffset(shown.date, s.local_time, s.starts_at);
      return {
        slot: s,
        zone: zoneAt(offset, s.starts_at, tz),
        local: browserOffset(s.starts_at) === offset ? null : browserClock(s.starts_at),
      };
    }) ?? [];
  const elsewhere = times.some((t) => t.local);
  useEffect(() => {
    // Measured by the end-to-end test: the first frame with times on screen, from navigation start.
    if (shown?.slots.length && !performance.getEntriesByName('bbo:times-painted').length) {
      requestAnimationFrame(() => performance.mark('bbo:times-painted'));
    }
  }, [shown]);

  async function choose(slot: Slot) {
    if (busy) return;
    setBusy(true);
    setMessage(null);
    const altcha = await payloadFrom(guard);
    if (!altcha) {
      setBusy(false);
      return setMessage(CHECK_FAILED);
    }
    const session = pageSession(slug);
    const website = honeypot('hp-hold');
    const r = await attempt(() =>
      api.POST('/api/v1/book/{slug}/holds', {
        params: { path: { slug } },
        body: {
          service_id: serviceId,
          ...(variantId ? { variant_id: variantId } : {}),
          ...(addonIds.length ? { addon_ids: addonIds } : {}),
          unit_id: unitId || null,
          starts_at: slot.starts_at,
          altcha,
          website,
        },
        headers: {
          ...(session ? { 'x-page-session': session } : {}),
          ...(props.bearer ? { authorization: `Bearer ${props.bearer}` } : {}),
        },
      }),
    );
    setBusy(false);
    if (!r.ok) {
      if (SLOT_LOST.has(r.refusal.code ?? '')) {
        setMessage(`${sentence(r.refusal)} Nothing is held for you. The times below are the ones free now.`);
        setReload((n) => n + 1);
      } else setMessage(sentence(r.refusal));
      return;
    }
    setPageSession(slug, r.data.page_session);
    const staff = page.staff.find((s) => s.unit_id === r.data.hold.unit_id)?.name;
    const variant = service?.variants.find((v) => v.id === variantId)?.name;
    const label = [service?.name, variant].filter(Boolean).join(', ') + (staff ? ` with ${staff}` : '');
    props.onHeld({
      hold: r.data.hold,
      choice: { serviceId, variantId: variantId || null, addonIds, unitId: unitId || null, label },
      deadline: Date.now() + page.hold_minutes * 60_000,
    });
  }

  const toggleAddon = (id: string, on: boolean) => setAddonIds((a) => (on ? [...a, id] : a.filter((x) => x !== id)));
  const first = avail?.days[0]?.date;
  const variant = service?.variants.find((v) => v.id === variantId);
  const staffName = page.staff.find((s) => s.unit_id === unitId)?.name ?? 'Anyone available';
  // A tapped choice that needs nothing more folds its picker back to one line. Not one made with the
  // arrow keys (a click with detail 0): they move through the choices, each one a change.
  const fold = (e: MouseEvent) => {
    if (e.detail > 0) (e.currentTarget as HTMLElement).closest('details')?.removeAttribute('open');
  };

  // The first screen on a phone: the pickers fold to one line each (a tap opens one), the days scroll
  // sideways, and the times' area keeps its room before they arrive (styles.css: .times-area). The
  // server renders the same first screen (src/booking-page/page-html.ts).
  return (
    <div class="picker">
      {service && (
        <details class="fold">
          <summary>
            <span class="what">Service</span>{' '}
            <span class="chosen">
              {[service.name, variant?.name].filter(Boolean).join(', ')} ·{' '}
              {minutes(variant?.duration_min ?? service.duration_min)}
            </span>
          </summary>
          <fieldset>
            <legend class="sr-only">Service</legend>
            {services.map((s) => (
              <label key={s.id} class="choice">
                <input
                  type="radio"
                  name="service"
                  checked={s.id === serviceId}
                  onChange={() => {
                    setServiceId(s.id);
                    setVariantId('');
                    setAddonIds([]);
                  }}
                  onClick={(e) => {
                    if (!s.variants.length && !s.addons.length) fold(e);
                  }}
                />
                <span>
                  <strong>{s.name}</strong> · {minutes(s.duration_min)} · {price(page, s.price_pence)}
                  {depositText(page, s) ? ` · ${depositText(page, s)}` : ''}
                  {s.description ? <small> {s.description}</small> : null}
                </span>
              </label>
            ))}
            {service.variants.length > 0 && (
              <label>
                Option
                <select value={variantId} onChange={(e) => setVariantId(e.currentTarget.value)}>
                  <option value="">
                    Standard ({minutes(service.duration_min)}, {price(page, service.price_pence)})
                  </option>
                  {service.variants.map((v) => (
                    <option key={v.id} value={v.id}>
                      {v.name} ({minutes(v.duration_min ?? service.duration_min)},{' '}
                      {price(page, v.price_pence ?? service.price_pence)})
                    </option>
                  ))}
                </select>
              </label>
            )}
            {service.addons.length > 0 && (
              <fieldset class="addons">
                <legend>Add-ons</legend>
                {service.addons.map((a) => (
                  <label key={a.id} class="choice">
                    <input
                      type="checkbox"
                      checked={addonIds.includes(a.id)}
                      onChange={(e) => toggleAddon(a.id, e.currentTarget.checked)}
                    />
                    <span>
                      {a.name}
                      {a.extra_min ? ` · +${minutes(a.extra_min)}` : ''} · +{price(page, a.extra_pence)}
                    </span>
                  </label>
                ))}
              </fieldset>
            )}
          </fieldset>
        </details>
      )}

      <details class="fold">
        <summary>
          <span class="what">With</span> <span class="chosen">{staffName}</span>
        </summary>
        <fieldset>
          <legend class="sr-only">With</legend>
          <label class="choice">
            <input type="radio" name="staff" checked={!unitId} onChange={() => setUnitId('')} onClick={fold} />{' '}
            <span>Anyone available</span>
          </label>
          {page.staff.map((s) => (
            <label key={s.unit_id} class="choice">
              <input
                type="radio"
                name="staff"
                checked={unitId === s.unit_id}
                onChange={() => setUnitId(s.unit_id)}
                onClick={fold}
              />{' '}
              <span>{s.name}</span>
            </label>
          ))}
        </fieldset>
      </details>

      <div class="days" role="group" aria-label="Days">
        <button
          type="button"
          disabled={!fromDate}
          onClick={() => setFromDate(first && fromDate ? addDays(first, -7) : undefined)}
        >
          Earlier
        </button>
        {/* Earlier and Later keep their places as the days arrive between them (no layout shift). */}
        <div class="day-list">
          {avail?.days.map((d) => (
            <button
              key={d.date}
              type="button"
              aria-pressed={d.date === day}
              disabled={!d.slots.length}
              onClick={() => setDay(d.date)}
              data-date={d.date}
            >
              {shortDate(d.date)}
            </button>
          ))}
        </div>
        <button type="button" disabled={!first} onClick={() => first && setFromDate(addDays(first, 7))}>
          Later
        </button>
      </div>

      <section class="times-area" aria-labelledby="time-title">
        <h3 id="time-title">Times{day ? ` on ${dayTitle(day)}` : ''}</h3>
        <p class="zone" data-testid="zone-note">
          Times are in the shop's time zone, {tz}
          {times[0] ? ` (${times[0].zone})` : ''}.
          {elsewhere ? ` Your time (${browserZone()}) is shown beside each.` : ''}
        </p>
        {message && (
          <p class="error" role="alert" data-testid="picker-message">
            {message}
          </p>
        )}
        {avail && !shown?.slots.length && <p>No free times on this day. Try another day.</p>}
        <ul class="times" aria-label="Times">
          {times.map(({ slot, zone, local }) => (
            <li key={slot.starts_at}>
              <button type="button" disabled={busy} onClick={() => void choose(slot)} data-starts-at={slot.starts_at}>
                {slot.local_time} <span class="zn">{zone}</span>
                {local && <span class="local">{local} your time</span>}
              </button>
            </li>
          ))}
        </ul>
      </section>
      <Honeypot id="hp-hold" />
      {/* Mounted once times are shown and the customer has touched the page: the widget's code loads
          after the first paint that matters, and outside the page's load (total blocking time). */}
      {avail && armed && <Altcha api={api} slug={slug} guard={guard} />}
    </div>
  );
}
