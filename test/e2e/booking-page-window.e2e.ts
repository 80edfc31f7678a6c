// The booking page as the shop's window (issue 41), in headless Chromium against the app on a loopback
// port: the head and the first screen come from the server (read with scripts off), the page does not
// move as the times arrive and nothing of the page keeps it out of the back/forward cache; on a 390×844 phone the first row
// of times is in the first screen with the pickers folded to one line each; the confirmation offers
// "Add to calendar" (an .ics file and a Google Calendar link). axe-core finds nothing on each screen.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import ICAL from 'ical.js';
import type { Page } from 'playwright-core';
import {
  axe,
  codeFor,
  outcome,
  pick,
  shop,
  skip,
  slot,
  startWorld,
  type PageWorld,
  type Shop,
} from './booking-page-support.ts';
import { call } from '../support/http.ts';

let w: PageWorld;
let s: Shop;

if (!skip) {
  w = await startWorld('2027-03-10T08:00:00Z'); // a Wednesday; London is on GMT
  s = await shop(w, 'fade-barbers', {
    address: '12 Market Street\nLeeds LS1 6DT',
    phone: '0113 496 0000',
    website: 'https://fade.example',
    about: 'Cuts & shaves </title> since 1990.',
  });
}

const phone = {
  viewport: { width: 390, height: 844 },
  isMobile: true,
  hasTouch: true,
  deviceScaleFactor: 2,
  timezoneId: 'Europe/London',
};

/** Counts layout shifts not caused by input, from the first paint on. */
async function watchShifts(page: Page) {
  await page.addInitScript(() => {
    (window as any).__cls = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as any[]) if (!e.hadRecentInput) (window as any).__cls += e.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

test('the server renders the head and the first screen: title, description, preview tags, JSON-LD and the services, with scripts off', {
  skip,
}, async () => {
  const context = await w.browser.browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${w.base}/book/${s.slug}`);
  assert.equal(await page.title(), 'Book at Fade Barbers');
  const content = (sel: string) => page.locator(sel).getAttribute('content');
  assert.equal(await content('meta[name="description"]'), 'Cuts & shaves </title> since 1990.');
  assert.equal(await content('meta[property="og:title"]'), 'Book at Fade Barbers');
  assert.equal(await content('meta[property="og:url"]'), `${w.base}/book/fade-barbers`);
  assert.equal(await content('meta[name="twitter:card"]'), 'summary');
  const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!);
  assert.deepEqual(
    [ld['@type'], ld.name, ld.telephone, ld.address],
    ['LocalBusiness', 'Fade Barbers', '+441134960000', '12 Market Street, Leeds LS1 6DT'],
  );
  assert.equal(ld.openingHoursSpecification.length, 7);
  // Before any script: the shop, how to call it, its services (in the folded picker) and the times' place.
  assert.equal(await page.getByTestId('store-name').innerText(), 'Fade Barbers');
  assert.equal(await page.locator('header a[href="tel:+441134960000"]').innerText(), '0113 496 0000');
  await page.getByText('Haircut · 45 min · £30.00').waitFor({ state: 'attached' });
  await page.getByText('Beard trim · 20 min · £15.00').waitFor({ state: 'attached' });
  assert.equal(await page.locator('ul.times').count(), 1);
  await context.close();
});

test("the page holds still as the times arrive, shows the shop's window, and nothing keeps it out of the back/forward cache", {
  skip,
}, async () => {
  const context = await w.browser.browser.newContext({
    viewport: { width: 1350, height: 940 },
    timezoneId: 'Europe/London',
  });
  const page = await context.newPage();
  await watchShifts(page);
  await page.goto(`${w.base}/book/${s.slug}`);
  await page.waitForFunction(() => performance.getEntriesByName('bbo:times-painted').length > 0);
  await page.waitForTimeout(500);
  const cls = await page.evaluate(() => (window as any).__cls as number);
  assert.ok(cls < 0.1, `cumulative layout shift ${cls}`);
  // The script took over the server's markup: one header, one list of times, now filled.
  assert.equal(await page.locator('header.shop').count(), 1);
  assert.ok((await page.locator('.times button').count()) > 0);
  const window_ = page.getByTestId('shop-window');
  assert.match(await window_.innerText(), /Cuts & shaves <\/title> since 1990\./);
  assert.equal(
    await page.getByTestId('map-link').getAttribute('href'),
    'https://www.openstreetmap.org/search?query=12%20Market%20Street%2C%20Leeds%20LS1%206DT',
  );
  assert.equal(await page.getByTestId('shop-website').getAttribute('href'), 'https://fade.example/');
  assert.match(await page.getByTestId('opening-hours').innerText(), /Monday\s+09:00–18:00[\s\S]*Sunday\s+09:00–18:00/);
  await axe(page, "the shop's window");

  // Away and back. Playwright's Chromium runs with the back/forward cache switched off on its command
  // line, so the test reads Chromium's reasons for not restoring: only that switch, nothing of the
  // page's own (no-store, an unload handler, an open connection would each be named here).
  const cdp = await context.newCDPSession(page);
  await cdp.send('Page.enable');
  const reasons: string[] = [];
  cdp.on('Page.backForwardCacheNotUsed', (e: any) =>
    reasons.push(...e.notRestoredExplanations.map((x: any) => x.reason)),
  );
  await page.goto(`${w.base}/favicon.ico`);
  await page.goBack();
  await page.locator('.times button').first().waitFor();
  const COMMAND_LINE = new Set([
    'BackForwardCacheDisabled',
    'BackForwardCacheDisabledByCommandLine',
    'BrowsingInstanceNotSwapped',
  ]);
  assert.ok(reasons.length > 0, 'Chromium said why it did not restore');
  assert.deepEqual(
    reasons.filter((r) => !COMMAND_LINE.has(r)),
    [],
    'nothing of the page keeps it out of the back/forward cache',
  );
  await context.close();
});

test('on a 390×844 phone the first row of times is in the first screen, the pickers folded to one line each that a tap opens', {
  skip,
}, async () => {
  const context = await w.browser.browser.newContext(phone);
  const page = await context.newPage();
  await watchShifts(page);
  await page.goto(`${w.base}/book/${s.slug}`);
  await page.locator('.times button').first().waitFor();
  const first = (await page.locator('.times button').first().boundingBox())!;
  assert.ok(first.y + first.height <= 844, `the first time ends at y = ${first.y + first.height}`);
  const summaries = page.locator('details.fold > summary');
  assert.equal(await summaries.count(), 2);
  for (const box of await Promise.all((await summaries.all()).map((x) => x.boundingBox())))
    assert.ok(box!.height < 56, `a folded picker is one line (${box!.height} px)`);
  assert.equal(await page.getByRole('radio', { name: 'Sam', exact: true }).isVisible(), false, 'folded');
  await page.locator('details.fold > summary', { hasText: 'With' }).tap();
  await page.getByRole('radio', { name: 'Sam', exact: true }).tap();
  // A tapped choice folds the picker back, and its line says what was chosen.
  await page.waitForFunction(() => !document.querySelectorAll('details.fold')[1].hasAttribute('open'));
  assert.match(await page.locator('details.fold > summary', { hasText: 'With' }).innerText(), /^With\s+Sam$/);
  assert.ok((await page.evaluate(() => (window as any).__cls as number)) < 0.1);
  await axe(page, 'phone');
  await context.close();
});

test('the confirmation offers Add to calendar: an .ics file of the booking and a Google Calendar link, neither with the manage token', {
  skip,
}, async () => {
  const context = await w.browser.browser.newContext({
    viewport: { width: 1024, height: 900 },
    timezoneId: 'Europe/London',
    acceptDownloads: true,
  });
  const page = await context.newPage();
  await page.goto(`${w.base}/book/${s.slug}`);
  await pick(page, 'Beard trim', 'Alex', '2027-03-12');
  await slot(page, '2027-03-12T14:00').click();
  await outcome(page, 'held-summary', 'picker-message');
  const email = 'cal@example.com';
  const from = w.smtp.received.length;
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Name').fill('Cal Endar');
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await outcome(page, 'code-sent', 'code-error');
  await page.getByLabel('6-digit code').fill(await codeFor(w, email, from));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Confirm booking' }).click();
  await page.getByRole('heading', { name: 'Booked', exact: true }).waitFor();

  const booked = await w.t.db.query<{ id: string }>(
    `SELECT id FROM appointments WHERE store_id = $1 AND starts_at = '2027-03-12T14:00:00Z'`,
    [s.id],
  );
  assert.equal(booked.rows.length, 1);
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('ics-download').click()]);
  assert.equal(download.suggestedFilename(), 'booking.ics');
  const ics = fs.readFileSync((await download.path())!, 'utf8');
  const event = new ICAL.Event(new ICAL.Component(ICAL.parse(ics)).getFirstSubcomponent('vevent')!);
  assert.equal(event.uid, `${booked.rows[0].id}@${new URL(w.base).host}`);
  assert.equal(event.summary, 'Beard trim with Alex at Fade Barbers');
  assert.equal(event.startDate.toJSDate().toISOString(), '2027-03-12T14:00:00.000Z');
  assert.equal(event.endDate.toJSDate().toISOString(), '2027-03-12T14:20:00.000Z');
  assert.equal(event.location, '12 Market Street, Leeds LS1 6DT');
  assert.doesNotMatch(ics, /token/);

  const google = new URL((await page.getByTestId('google-calendar').getAttribute('href'))!);
  assert.equal(google.origin + google.pathname, 'https://calendar.google.com/calendar/render');
  assert.equal(google.searchParams.get('dates'), '20270312T140000Z/20270312T142000Z');
  assert.equal(google.searchParams.get('text'), 'Beard trim with Alex at Fade Barbers');
  assert.doesNotMatch(google.href, /token/);
  await axe(page, 'booked, add to calendar');
  // The booking is the shop's, as the diary shows it.
  const diary = await call(w.t.app, 'GET', '/api/v1/bookings/diary', {
    token: s.token,
    query: { store_id: s.id, from_date: '2027-03-12', to_date: '2027-03-12' },
  });
  assert.ok(diary.body.units.some((u: any) => u.appointments.some((a: any) => a.id === booked.rows[0].id)));
  await context.close();
});
