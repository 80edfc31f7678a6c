// Shared by the booking page's end-to-end tests: the app listening on a loopback port with its
// PUBLIC_URL (the manage links in emails point at it), a real SMTP server receiving what the app
// sends (codes, confirmations), the messages worker running as in production, a shop with its page
// switched on, and the checks every step makes (axe, the feed, the diary, the mail).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after } from 'node:test';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { startTestApp, testConfig, type TestApp } from '../support/app.ts';
import { call } from '../support/http.ts';
import { startSmtp, type Received, type SmtpStub } from '../notifications/messages/support.ts';
import { createMessagesWorker } from '../../src/notifications/messages/worker.ts';
import { manageLinks } from '../../src/booking-page/page-deps.ts';
import { chromiumAvailable, launchBrowser } from './browser.ts';

export const skip = chromiumAvailable() ? false : 'Chromium is not installed (apt-get install -y chromium)';
export const PAGE_DIST = path.resolve('booking-page/dist');
const axeSource: string = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface PageWorld {
  t: TestApp;
  base: string;
  smtp: SmtpStub;
  browser: Awaited<ReturnType<typeof launchBrowser>>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The app on a loopback port, SMTP_URL pointed at a real SMTP server, the messages worker running. */
export async function startWorld(now: string, env: Record<string, string> = {}): Promise<PageWorld> {
  if (!fs.existsSync(path.join(PAGE_DIST, 'index.html'))) {
    const built = spawnSync('npm', ['run', 'booking-page:build'], { stdio: 'inherit' });
    assert.equal(built.status, 0, 'the booking page build failed');
  }
  const smtp = await startSmtp();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const appEnv = { SMTP_URL: smtp.url, MAIL_FROM: 'Fade Barbers <bookings@shop.test>', PUBLIC_URL: base, ...env };
  const t = await startTestApp({ now, env: appEnv });
  await t.app.listen({ port, host: '127.0.0.1' });
  // The worker a deployment runs beside the API: plans messages from the events and sends them.
  const config = testConfig({ ...appEnv, MESSAGES_POLL_MS: '100' });
  const worker = createMessagesWorker({
    db: t.db,
    clock: t.clock,
    config: config.messages,
    manageLink: manageLinks(config, t.clock),
    publicUrl: config.bookingPage.publicUrl,
  });
  worker.start();
  const browser = await launchBrowser();
  // Each step waits up to a minute: this machine is shared, and the proof of work and the mail take
  // their time under load (the steps' own timings print with E2E_DEBUG=1).
  const newContext = browser.browser.newContext.bind(browser.browser);
  browser.browser.newContext = async (options) => {
    const context = await newContext(options);
    context.setDefaultTimeout(60_000);
    return context;
  };
  after(async () => {
    await browser.close();
    await worker.stop();
    await smtp.close();
  });
  return { t, base, smtp, browser };
}

export interface Shop {
  id: string;
  slug: string;
  token: string;
  units: Record<string, string>;
  services: Record<string, string>;
}

const EVERY_DAY = Object.fromEntries(
  ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].map((d) => [
    d,
    [{ open: '09:00', close: '18:00' }],
  ]),
);

/** A shop with Alex and Sam (09:00-18:00 every day), a Haircut with a £10 deposit and a Beard trim, its page on. */
export async function shop(w: PageWorld, slug: string, settings: Record<string, unknown> = {}): Promise<Shop> {
  const { t } = w;
  const store = await t.fx.store({ name: 'Fade Barbers', cancellation_window_min: 60 });
  const token = await t.fx.merchantToken(store.id);
  const units: Record<string, string> = {};
  for (const [i, name] of ['Alex', 'Sam'].entries()) {
    units[name] = (await t.fx.unit(store.id, { display_name: name, sort: i })).id;
    const hours = await call(t.app, 'PUT', `/api/v1/bookings/units/${units[name]}/hours`, {
      token,
      body: { store_id: store.id, week: EVERY_DAY },
    });
    assert.equal(hours.status, 200, JSON.stringify(hours.body));
  }
  const services = {
    Haircut: (await t.fx.service(store.id, { name: 'Haircut', duration_min: 45, price_pence: 3000 })).id,
    'Beard trim': (await t.fx.service(store.id, { name: 'Beard trim', duration_min: 20, price_pence: 1500 })).id,
  };
  await t.db.query(`UPDATE services SET deposit_policy = '{"amount_pence": 1000}'::jsonb WHERE id = $1`, [
    services.Haircut,
  ]);
  const on = await call(t.app, 'PATCH', '/api/v1/bookings/settings', {
    token,
    body: { store_id: store.id, booking_page_slug: slug, booking_page_enabled: true, ...settings },
  });
  assert.equal(on.status, 200, JSON.stringify(on.body));
  return { id: store.id, slug, token, units, services };
}

/** axe-core on the page as it is: every violation, whatever its impact. */
export async function axe(page: Page, step: string): Promise<void> {
  await page.evaluate(axeSource);
  const result: any = await page.evaluate(() => (window as any).axe.run(document, { resultTypes: ['violations'] }));
  const found = result.violations.map(
    (v: any) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n: any) => n.target.join(' ')).join(', ')}`,
  );
  assert.deepEqual(found, [], `axe violations on the step "${step}"`);
}

/** Mail to this address received after `from` (an index into smtp.received), waited for. */
export async function mailTo(
  w: PageWorld,
  address: string,
  from: number,
  match: (m: Received) => boolean = () => true,
  timeoutMs = 30_000,
): Promise<Received> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = w.smtp.received.slice(from).find((m) => m.to.includes(address) && match(m));
    if (found) return found;
    if (Date.now() > deadline) {
      const planned = await w.t.db.query(`SELECT kind, channel, status, last_error FROM messages ORDER BY created_at`);
      throw new Error(
        `messages: ${JSON.stringify(planned.rows)}; ` +
          `no mail to ${address} after #${from} within ${timeoutMs} ms (got: ${w.smtp.received
            .slice(from)
            .map((m) => `${m.to} "${m.mail.subject}"`)
            .join('; ')})`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The 6-digit code in the sign-in email. */
export async function codeFor(w: PageWorld, address: string, from: number): Promise<string> {
  const mail = await mailTo(w, address, from, (m) => /\b\d{6}\b/.test(m.mail.text ?? ''));
  return /\b(\d{6})\b/.exec(mail.mail.text ?? '')![1];
}

/** The manage link in a confirmation email (with its token in the fragment). */
export function manageLink(mail: Received): string {
  const m = /(https?:\/\/[^\s"<>]+\/manage#token=[A-Za-z0-9\-._~+/=]+)/.exec(mail.mail.text ?? '');
  assert.ok(m, `no manage link in "${mail.mail.subject}"`);
  return m[1];
}

/** The store's events after a cursor: their types and the cursor to resume from. */
export async function feed(
  w: PageWorld,
  s: Shop,
  after: string | null,
): Promise<{ types: string[]; events: any[]; cursor: string | null }> {
  const r = await call(w.t.app, 'GET', '/api/v1/events', {
    token: s.token,
    query: { store_id: s.id, ...(after ? { after } : {}), limit: 500 },
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  return { types: r.body.events.map((e: any) => e.type), events: r.body.events, cursor: r.body.next_cursor ?? after };
}

/**
 * Waits until the feed after `after` holds every wanted type (a feed shows an event once every older
 * transaction on the server has finished), then returns what it holds.
 */
export async function feedWith(w: PageWorld, s: Shop, after: string | null, wanted: string[], timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const f = await feed(w, s, after);
    if (wanted.every((t) => f.types.includes(t))) return f;
    if (Date.now() > deadline)
      throw new Error(`the feed has ${JSON.stringify(f.types)}, not all of ${JSON.stringify(wanted)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The diary of one store-local day: each unit's live appointments and holds. */
export async function diary(w: PageWorld, s: Shop, date: string) {
  const r = await call(w.t.app, 'GET', '/api/v1/bookings/diary', {
    token: s.token,
    query: { store_id: s.id, from_date: date, to_date: date },
  });
  assert.equal(r.status, 200, JSON.stringify(r.body));
  const appointments = r.body.units.flatMap((u: any) => u.appointments.map((a: any) => ({ ...a, unit_id: u.unit.id })));
  const holds = r.body.units.flatMap((u: any) => u.holds.map((h: any) => ({ ...h, unit_id: u.unit.id })));
  return { appointments, holds };
}

/** Presses Tab until the focused element matches, as a keyboard user would reach it. */
export async function tabTo(
  page: Page,
  matches: (el: { tag: string; text: string; label: string; attrs: Record<string, string> }) => boolean,
  max = 80,
): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const el = await page.evaluate(() => {
      const a = document.activeElement as HTMLElement | null;
      if (!a) return null;
      const attrs: Record<string, string> = {};
      for (const at of Array.from(a.attributes)) attrs[at.name] = at.value;
      const label = (a as HTMLInputElement).labels?.[0]?.textContent ?? a.getAttribute('aria-label') ?? '';
      return { tag: a.tagName.toLowerCase(), text: (a.textContent ?? '').trim(), label: label.trim(), attrs };
    });
    if (el && matches(el)) return;
  }
  throw new Error('the element was not reached with Tab');
}

/** A time on the page's list, by the start it books. */
export const slot = (page: Page, startsAt: string) => page.locator(`.times button[data-starts-at^="${startsAt}"]`);

/** Opens a folded picker (Service, With) unless it is open already. */
export async function unfold(page: Page, what: 'Service' | 'With') {
  const details = page.locator('details.fold', { has: page.locator('summary .what', { hasText: what }) });
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) await details.locator('summary').click();
}

/** Picks service, who and day on the page (opening the folded pickers), waiting for the day's times. */
export async function pick(page: Page, service: string, who: string, date: string) {
  await unfold(page, 'Service');
  await page.getByRole('radio', { name: new RegExp(`^${service}`) }).check();
  await unfold(page, 'With');
  await page.getByRole('radio', { name: who, exact: true }).check();
  await page.locator(`.days button[data-date="${date}"]`).click();
  await page.getByRole('heading', { name: /^Times on / }).waitFor();
  await page.locator('.times button').first().waitFor();
}

/** Waits for the step's success element; a refusal shown instead fails with its sentence. */
export async function outcome(page: Page, ok: string, refused: string) {
  await page
    .locator(`[data-testid="${ok}"], [data-testid="${refused}"]`)
    .first()
    .waitFor()
    .catch(async (err) => {
      if (process.env.E2E_DEBUG) await page.screenshot({ path: `/tmp/e2e-${ok}.png`, fullPage: true });
      throw err;
    });
  if (await page.getByTestId(refused).count()) assert.fail(`refused: ${await page.getByTestId(refused).innerText()}`);
}
