// The booking page's HTML for one shop (issue 41, docs/decisions/booking-page-window.md): the built
// index.html with the shop in it, so a shared link previews as the shop and the first paint already
// shows it.
// - the head: "Book at {shop}", a meta description, Open Graph and Twitter card tags, a canonical URL
//   (PUBLIC_URL), and a schema.org LocalBusiness block in JSON-LD;
// - the body: the same first screen the script renders (the shop, the folded service and staff
//   pickers, the space the times will take), then the page config as JSON for the script to start
//   from without asking again, with the shop zone's short names by offset (zoneNames); the script's
//   first render reuses this markup's nodes (Preact's render diffs against them);
// - the stylesheet inlined (no render-blocking request).
// Every store-supplied string is escaped for where it lands: HTML text and attributes by text(),
// JSON inside <script> by json() (`<` as \u003c, so `</script>` cannot close the block).
import type { BookingPageResponse } from './booking-page.schemas.ts';

type Page = BookingPageResponse['page'];

export interface PageHtmlInput {
  page: Page;
  /** The page's public address (PUBLIC_URL + /book/{slug}). */
  url: string;
  manage: boolean;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** HTML text or a quoted attribute value. */
export const text = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]);
/** JSON safe inside a <script> element (nothing in it can end the element or open a comment). */
export const json = (v: unknown) =>
  JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

// As booking-page/src/time.ts formats them, so the script's first render reads the same.
const money = (pence: number, currency: string) =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(pence / 100);
function minutes(n: number): string {
  if (n < 60) return `${n} min`;
  const h = Math.floor(n / 60);
  return n % 60 ? `${h} h ${n % 60} min` : `${h} h`;
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const oneLine = (s: string) => s.replace(/\s*\n\s*/g, ', ');
const clip = (s: string, n: number) => (s.length <= n ? s : `${s.slice(0, n - 1).trimEnd()}…`);

/** About 155 characters: the shop's own words, or what it offers and where. */
export function description(page: Page): string {
  if (page.shop.about) return clip(oneLine(page.shop.about), 155);
  const services = page.services
    .slice(0, 4)
    .map((s) => s.name)
    .join(', ');
  const where = page.shop.address ? ` ${oneLine(page.shop.address)}.` : '';
  return clip(
    `Book ${services || 'an appointment'} at ${page.store_name} online: choose a time and it is held for you while you confirm.${where}`,
    155,
  );
}

/** schema.org LocalBusiness: name, address, phone, opening hours (midnight as 23:59, as search engines read it). */
export function localBusiness(page: Page, url: string) {
  const { shop } = page;
  return {
    '@context': 'https://schema.org',
    '@type': 'LocalBusiness',
    name: page.store_name,
    url: shop.website ?? url,
    ...(shop.about ? { description: shop.about } : {}),
    ...(shop.address ? { address: oneLine(shop.address) } : {}),
    ...(shop.phone ? { telephone: shop.phone } : {}),
    ...(shop.website ? { sameAs: [shop.website] } : {}),
    openingHoursSpecification: shop.opening_hours.map((d) => ({
      '@type': 'OpeningHoursSpecification',
      dayOfWeek: `https://schema.org/${DAYS[d.weekday]}`,
      opens: d.open,
      closes: d.close === '24:00' ? '23:59' : d.close,
    })),
    potentialAction: { '@type': 'ReserveAction', target: url },
  };
}

export function head(input: PageHtmlInput): string {
  const { page, url } = input;
  const title = input.manage ? `Your booking at ${page.store_name}` : `Book at ${page.store_name}`;
  const desc = description(page);
  const lines = [
    `<title>${text(title)}</title>`,
    `<meta name="description" content="${text(desc)}" />`,
    `<link rel="canonical" href="${text(url)}" />`,
  ];
  // The manage page is one customer's: no preview, not indexed.
  if (input.manage) return [...lines, '<meta name="robots" content="noindex" />'].join('\n    ');
  return [
    ...lines,
    '<meta property="og:type" content="website" />',
    `<meta property="og:site_name" content="${text(page.store_name)}" />`,
    `<meta property="og:title" content="${text(title)}" />`,
    `<meta property="og:description" content="${text(desc)}" />`,
    `<meta property="og:url" content="${text(url)}" />`,
    '<meta name="twitter:card" content="summary" />',
    `<meta name="twitter:title" content="${text(title)}" />`,
    `<meta name="twitter:description" content="${text(desc)}" />`,
    `<script type="application/ld+json">${json(localBusiness(page, url))}</script>`,
  ].join('\n    ');
}

/** The first screen as the script first renders it (booking-page/src: main.tsx, Booker.tsx, Picker.tsx). */
export function body(input: PageHtmlInput): string {
  const { page } = input;
  const { shop } = page;
  const contact = [
    shop.phone ? `<a href="tel:${text(shop.phone)}">${text(shop.phone_display ?? shop.phone)}</a>` : '',
    shop.map_url ? `<a href="${text(shop.map_url)}" rel="noopener">Map</a>` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  const header = `<header class="shop"><h1 data-testid="store-name">${text(page.store_name)}</h1>${contact ? `<p class="contact">${contact}</p>` : ''}</header>`;
  if (input.manage || page.sign_in === 'none') return `${header}<main id="main" aria-busy="true"></main>`;
  const first = page.services[0];
  const services = page.services
    .map(
      (s, i) =>
        `<label class="choice"><input type="radio" name="service"${i === 0 ? ' checked' : ''} /><span><strong>${text(s.name)}</strong> · ${minutes(s.duration_min)} · ${money(s.price_pence, page.currency)}${s.description ? `<small> ${text(s.description)}</small>` : ''}</span></label>`,
    )
    .join('');
  const staff = [
    '<label class="choice"><input type="radio" name="staff" checked /> <span>Anyone available</span></label>',
    ...page.staff.map(
      (s) => `<label class="choice"><input type="radio" name="staff" /> <span>${text(s.name)}</span></label>`,
    ),
  ].join('');
  const fold = (what: string, chosen: string, inner: string) =>
    `<details class="fold"><summary><span class="what">${what}</span> <span class="chosen">${chosen}</span></summary><fieldset><legend class="sr-only">${what}</legend>${inner}</fieldset></details>`;
  return (
    `${header}<main id="main"><section aria-labelledby="pick-title"><h2 id="pick-title" tabindex="-1">Choose a time</h2><div class="picker">` +
    (first ? fold('Service', `${text(first.name)} · ${minutes(first.duration_min)}`, services) : '') +
    fold('With', 'Anyone available', staff) +
    '<div class="days" role="group" aria-label="Days"><button type="button" disabled>Earlier</button><div class="day-list"></div><button type="button" disabled>Later</button></div>' +
    `<section class="times-area" aria-labelledby="time-title"><h3 id="time-title">Times</h3><p class="zone" data-testid="zone-note">Times are in the shop's time zone, ${text(page.timezone)}.</p><ul class="times" aria-label="Times"></ul></section>` +
    '</div></section></main>'
  );
}

const zoneCache = new Map<string, { until: number; names: Record<string, string> }>();
/**
 * The zone's short names by offset in minutes over the coming year ({"0": "GMT", "60": "BST"}), so
 * the page labels its times without building an Intl formatter first (booking-page/src/time.ts).
 * Sampled every 12 hours: a zone changes its offset at most a few times a year. Kept a day per zone.
 */
export function zoneNames(tz: string, now = Date.now()): Record<string, string> {
  const kept = zoneCache.get(tz);
  if (kept && kept.until > now) return kept.names;
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: tz,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    timeZoneName: 'short',
  });
  const names: Record<string, string> = {};
  for (let t = now - (now % 3_600_000); t < now + 400 * 86_400_000; t += 12 * 3_600_000) {
    const p = Object.fromEntries(parts.formatToParts(t).map((x) => [x.type, x.value]));
    const offset = Math.round((Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute) - t) / 60_000);
    names[String(offset)] ??= p.timeZoneName;
  }
  zoneCache.set(tz, { until: now + 86_400_000, names });
  return names;
}

/** The built index.html with the shop's head, first screen, config and inlined stylesheet. */
export function renderPage(template: string, css: string | null, input: PageHtmlInput): string {
  let html = template.replace(/<title>[^<]*<\/title>/, () => head(input));
  if (css !== null)
    html = html.replace(
      /<link rel="stylesheet"[^>]*>/,
      () => `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`,
    );
  return html.replace(
    '<div id="app"></div>',
    () =>
      `<div id="app">${body(input)}</div>\n    <script type="application/json" id="page-data">${json({ page: input.page, zones: zoneNames(input.page.timezone) })}</script>`,
  );
}
