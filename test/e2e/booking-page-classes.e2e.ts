// The shop's classes on its booking page end to end (issue 44), in headless Chromium against the app on
// a loopback port with a real SMTP server: a customer books the last seat after the email code (mouse),
// a second joins the waitlist when it is full (keyboard alone), the first cancels at the desk, and the
// second takes the offered seat from the link in the offer email in a fresh browser (signed in first as
// someone else, the offer is refused and nothing changes). Each step is checked
// in the database and the mail, and by axe-core (0 violations). With E2E_ARTIFACTS=<dir>, the classes
// view's screenshots are written there (docs/booking-page/classes.png, classes-offer.png).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import {
  axe,
  codeFor,
  mailTo,
  outcome,
  shop,
  skip,
  startWorld,
  tabTo,
  type PageWorld,
  type Shop,
} from './booking-page-support.ts';
import { call } from '../support/http.ts';

const ARTIFACTS = process.env.E2E_ARTIFACTS ? path.resolve(process.env.E2E_ARTIFACTS) : null;
const viewport = { width: 1024, height: 900 };
const local = { viewport, timezoneId: 'Europe/London' }; // the shop's zone: times shown once
let w: PageWorld;
let s: Shop;
let occurrenceId: string;

if (!skip) {
  w = await startWorld('2027-03-10T08:00:00Z'); // a Wednesday; London is on GMT
  s = await shop(w, 'fade-classes');
  const merchant = (method: string, url: string, body: unknown) =>
    call(w.t.app, method, url, { token: s.token, body: { store_id: s.id, ...(body as object) } });
  const c = await merchant('POST', '/api/v1/classes', {
    name: 'Spin',
    category: 'Cardio',
    duration_min: 45,
    capacity: 1,
    price_pence: 1200,
    instructor_unit_id: s.units.Sam,
    waitlist_mode: 'offer',
    offer_minutes: 60,
  });
  assert.equal(c.status, 200, JSON.stringify(c.body));
  const o = await merchant('POST', `/api/v1/classes/${c.body.class.id}/occurrences`, {
    starts_at: '2027-03-11T17:00:00.000Z',
  });
  assert.equal(o.status, 200, JSON.stringify(o.body));
  occurrenceId = o.body.occurrence.id;
}

async function open(context: BrowserContext, url = `/book/${s.slug}`): Promise<Page> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${w.base}${url}`);
  (page as any).errors = errors;
  return page;
}

const bookingOf = async (email: string) =>
  (
    await w.t.db.query<{ id: string; status: string; waitlist_position: number | null; source: string }>(
      `SELECT b.id, b.status, b.waitlist_position, b.booking_source AS source FROM class_bookings b JOIN customers c ON c.id = b.customer_id
    WHERE b.occurrence_id = $1 AND c.email = $2`,
      [occurrenceId, email],
    )
  ).rows;

test('a customer books the last seat after the email code; the class then shows full with its waitlist open', {
  skip,
}, async () => {
  const context = await w.browser.browser.newContext(local);
  const page = await open(context);
  const card = page.getByTestId('class-occurrence');
  await card.waitFor();
  assert.match(
    await card.innerText(),
    /Spin with Sam · £12\.00\nThursday, 11 March 2027, 17:00 GMT \(Europe\/London\)\n1 of 1 seat left/,
  );
  await axe(page, 'classes');
  if (ARTIFACTS) await page.getByTestId('classes').screenshot({ path: path.join(ARTIFACTS, 'classes.png') });

  await page.getByRole('button', { name: 'Book Spin' }).click();
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'join-title', 'the step heading takes the focus');
  const from = w.smtp.received.length;
  const join = page.locator('section.join');
  await join.getByLabel('Email').fill('ana@example.com');
  await join.getByLabel('Name').fill('Ana Seat');
  await join.getByRole('button', { name: 'Email me a code' }).click();
  await outcome(page, 'code-sent', 'code-error');
  await axe(page, 'class code');
  await join.getByLabel('6-digit code').fill(await codeFor(w, 'ana@example.com', from));
  await join.getByRole('button', { name: 'Sign in' }).click();
  await join.getByRole('button', { name: 'Book this class' }).click();
  await outcome(page, 'class-done', 'class-error');
  assert.match(await page.getByTestId('class-done').innerText(), /^Booked: your place in Spin is confirmed/);
  await axe(page, 'class booked');
  assert.deepEqual(
    (await bookingOf('ana@example.com')).map((b) => [b.status, b.source]),
    [['confirmed', 'app']],
  );
  // The list is read again: full now, the waitlist open.
  await page.getByTestId('class-seats').filter({ hasText: 'Full: 0 on the waitlist' }).waitFor();
  await mailTo(w, 'ana@example.com', from, (m) => /^Class booked: Spin/.test(m.mail.subject ?? ''));
  assert.deepEqual((page as any).errors, []);
  await context.close();
});

test("with the keyboard alone, a second customer joins the waitlist of the full class; the offer email's link then takes the seat", {
  skip,
}, async () => {
  const context = await w.browser.browser.newContext(local);
  const page = await open(context);
  await page.getByTestId('class-seats').filter({ hasText: /^Full/ }).waitFor();
  const label = (re: RegExp) => (el: { label: string; text: string }) => re.test(el.label || el.text);
  await tabTo(page, label(/^Join the waitlist for Spin$/), 200);
  await page.keyboard.press('Enter');
  await page.locator('#join-title:focus').waitFor();
  await tabTo(page, label(/^Email/));
  await page.keyboard.type('ben@example.com');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Ben Wait');
  let from = w.smtp.received.length;
  await tabTo(page, label(/^Email me a code$/));
  await page.keyboard.press('Enter');
  await outcome(page, 'code-sent', 'code-error');
  await page.locator('input[name="code"]:focus').waitFor();
  await page.keyboard.type(await codeFor(w, 'ben@example.com', from));
  await page.keyboard.press('Enter');
  await tabTo(page, label(/^Join the waitlist$/));
  await page.keyboard.press('Enter');
  await outcome(page, 'class-done', 'class-error');
  assert.match(await page.getByTestId('class-done').innerText(), /on the waitlist for Spin, place 1\./);
  await axe(page, 'waitlisted');
  const [ben] = await bookingOf('ben@example.com');
  assert.deepEqual([ben.status, ben.waitlist_position], ['waitlisted', 1]);
  await context.close();

  // Ana cancels at the desk: the seat is offered to Ben, by an email that links to the page.
  from = w.smtp.received.length;
  const [ana] = await bookingOf('ana@example.com');
  const cancel = await call(w.t.app, 'POST', `/api/v1/classes/bookings/${ana.id}/cancel`, {
    token: s.token,
    body: { store_id: s.id },
  });
  assert.equal(cancel.status, 200, JSON.stringify(cancel.body));
  const offer = await mailTo(w, 'ben@example.com', from, (m) => /^A seat is free: Spin/.test(m.mail.subject ?? ''));
  const link = /(https?:\/\/\S+\?offer=[0-9a-f-]{36})/.exec(offer.mail.text ?? '')?.[1];
  assert.equal(link, `${w.base}/book/${s.slug}?offer=${ben.id}`);

  // A fresh browser (no sign-in kept): the email code, then the seat.
  const fresh = await w.browser.browser.newContext(local);
  const offerPage = await open(fresh, link!.slice(w.base.length));
  const section = offerPage.getByTestId('class-offer');
  await section.waitFor();
  assert.equal(await offerPage.evaluate(() => document.activeElement?.id), 'offer-title');
  await axe(offerPage, 'offer');
  // Signed in as someone else (Ana), the offer is not theirs: refused, nothing changes, and another email can be used.
  from = w.smtp.received.length;
  await section.getByLabel('Email').fill('ana@example.com');
  await section.getByRole('button', { name: 'Email me a code' }).click();
  await outcome(offerPage, 'code-sent', 'code-error');
  await section.getByLabel('6-digit code').fill(await codeFor(w, 'ana@example.com', from));
  await section.getByRole('button', { name: 'Sign in' }).click();
  await section.getByTestId('offer-error').waitFor();
  assert.match(
    await section.getByTestId('offer-error').innerText(),
    /^This offer is not for the email you signed in with/,
  );
  assert.equal(await section.getByRole('button', { name: 'Take this seat' }).count(), 0);
  assert.deepEqual(
    (await bookingOf('ben@example.com')).map((b) => b.status),
    ['promotion_pending'],
  );
  await axe(offerPage, 'offer refused');
  await section.getByRole('button', { name: 'Sign in with another email' }).click();
  from = w.smtp.received.length;
  await section.getByLabel('Email').fill('ben@example.com');
  await section.getByRole('button', { name: 'Email me a code' }).click();
  await outcome(offerPage, 'code-sent', 'code-error');
  await section.getByLabel('6-digit code').fill(await codeFor(w, 'ben@example.com', from));
  await section.getByRole('button', { name: 'Sign in' }).click();
  await section.getByTestId('offer-until').waitFor();
  assert.match(
    await section.getByTestId('offer-until').innerText(),
    /^Held for you until Wednesday, 10 March 2027, 09:00 GMT/,
  );
  await axe(offerPage, 'offer signed in');
  if (ARTIFACTS) await section.screenshot({ path: path.join(ARTIFACTS, 'classes-offer.png') });
  await section.getByRole('button', { name: 'Take this seat' }).click();
  await outcome(offerPage, 'offer-accepted', 'offer-error');
  await axe(offerPage, 'offer accepted');
  assert.deepEqual(
    (await bookingOf('ben@example.com')).map((b) => b.status),
    ['confirmed'],
  );
  assert.deepEqual((offerPage as any).errors, []);
  await fresh.close();
});
