// The console's Classes screen end to end (issue 44), in headless Chromium: the owner creates a class
// and schedules it from the timetable, sees each occurrence's seats and opens its roster (booked, the
// waitlist with positions), and cancels an occurrence; a front-desk member, signed in by password and
// working by keyboard alone, sees no timetable-shaping controls (src/staff/roles.ts), checks a person
// in, is refused a no-show before the start with the server's sentence, and cancels a seat, which
// promotes the first in line. axe-core finds no serious or critical violation on each view. With
// E2E_ARTIFACTS=<dir>, the screenshot classes.png is written there (docs/console/classes.png).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { startTestApp } from '../support/app.ts';
import { call } from '../support/http.ts';
import { CONSOLE_DIST } from '../../src/console/console.routes.ts';
import { newSecret, secretHash } from '../../src/staff/secrets.ts';
import { launchBrowser } from './browser.ts';
import { seriousViolations, shot, skip } from './console-support.ts';
import { tabTo } from './booking-page-support.ts';

const viewport = { width: 1280, height: 900 };
const PASSWORD = 'correct horse battery staple 44';

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const port = await freePort();
const base = `http://localhost:${port}`;
if (!skip && !fs.existsSync(path.join(CONSOLE_DIST, 'index.html'))) {
  assert.equal(spawnSync('npm', ['run', 'console:build'], { stdio: 'inherit' }).status, 0, 'the console build failed');
}
const t = skip ? null : await startTestApp({ now: '2027-03-10T08:00:00Z', env: { PUBLIC_URL: base } });
if (t) await t.app.listen({ port, host: 'localhost' });
const store = t ? await t.fx.store({ name: 'Fade Studio' }) : null;
const kim = t ? await t.fx.unit(store!.id, { display_name: 'Kim' }) : null;
const token = t ? await t.fx.merchantToken(store!.id, { staffName: 'Olive Owner' }) : '';
const browser = skip ? null : await launchBrowser();
after(async () => {
  await browser?.close();
});

const merchant = (method: string, url: string, body: Record<string, unknown> = {}) =>
  call(t!.app, method, url, { token, body: { store_id: store!.id, ...body } });
const statuses = async (occurrenceId: string) =>
  (
    await t!.db.query<{ guest_name: string; status: string; waitlist_position: number | null }>(
      'SELECT guest_name, status, waitlist_position FROM class_bookings WHERE occurrence_id = $1 ORDER BY guest_name',
      [occurrenceId],
    )
  ).rows.map((r) => [r.guest_name, r.status, r.waitlist_position]);
let spin: { occurrenceId: string } | null = null;

/** The roster's rows (who, status, place), sorted by who: seats booked in one frozen instant tie on their time. */
async function rosterRows(page: Page): Promise<string[][]> {
  return (
    await page
      .getByTestId('roster')
      .locator('tbody tr')
      .evaluateAll((rows) =>
        rows.map((r) =>
          Array.from(r.querySelectorAll('td'))
            .slice(0, 3)
            .map((c) => (c.textContent ?? '').trim()),
        ),
      )
  ).sort((a, b) => a[0].localeCompare(b[0]));
}

test('the owner creates a class, schedules it, reads the roster and cancels an occurrence', { skip }, async () => {
  const context = await browser!.browser.newContext({ viewport, timezoneId: 'Europe/London' });
  const page = await context.newPage();
  await page.goto(`${base}/console/#token=${token}`);
  await page.waitForSelector('nav[aria-label="Main"]');
  await page.evaluate(() => {
    location.hash = '#/classes?week=2027-03-08';
  });
  await page.getByRole('heading', { name: 'Classes', level: 1 }).waitFor();

  const form = page.getByRole('form', { name: 'New class' });
  await form.getByLabel('Name').fill('Spin');
  await form.getByLabel('Seats').fill('2');
  await form.getByLabel('Instructor').selectOption({ label: 'Kim' });
  await form.getByLabel('Offered for').check();
  await form.getByLabel('Offer minutes').fill('30');
  await form.getByRole('button', { name: 'Create class' }).click();
  await page.getByRole('status').getByText('Class “Spin” created').waitFor();
  const schedule = page.getByRole('form', { name: 'Schedule a class' });
  await schedule.getByLabel('Class').selectOption({ label: 'Spin (2 seats)' });
  await schedule.getByLabel('Day').fill('2027-03-11');
  await schedule.getByLabel('Time (Europe/London)').fill('18:00');
  await schedule.getByRole('button', { name: 'Schedule' }).click();
  await page.getByRole('status').getByText('Class scheduled').waitFor();
  const rows = await t!.db.query<{
    id: string;
    starts_at: Date;
    instructor: string;
    waitlist_mode: string;
    offer_minutes: number;
  }>(
    `SELECT o.id, o.starts_at, coalesce(o.instructor_unit_id, c.instructor_unit_id) AS instructor, c.waitlist_mode, c.offer_minutes
       FROM class_occurrences o JOIN classes c ON c.id = o.class_id WHERE o.store_id = $1`,
    [store!.id],
  );
  assert.deepEqual(
    rows.rows.map((r) => [new Date(r.starts_at).toISOString(), r.instructor, r.waitlist_mode, r.offer_minutes]),
    [['2027-03-11T18:00:00.000Z', kim!.id, 'offer', 30]],
  );
  spin = { occurrenceId: rows.rows[0].id };

  for (const i of [1, 2, 3]) {
    const r = await merchant('POST', `/api/v1/classes/occurrences/${spin.occurrenceId}/bookings`, {
      guest_name: `Guest ${i}`,
      guest_email: `guest${i}@example.test`,
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
  }
  await page.reload();
  await page.getByRole('heading', { name: 'Classes', level: 1 }).waitFor();
  const row = page.locator(`tr[data-occurrence="${spin.occurrenceId}"]`);
  await row.getByTestId('seats').filter({ hasText: '2 of 2 booked · 0 left' }).waitFor();
  assert.match(await row.innerText(), /18:00–19:00\s+Spin\s+2 of 2 booked · 0 left\s+1 waiting/);
  await row.getByRole('button', { name: 'Roster of Spin at 18:00' }).click();
  await page.getByTestId('roster').waitFor();
  assert.deepEqual(await rosterRows(page), [
    ['Guest 1', 'Booked', ''],
    ['Guest 2', 'Booked', ''],
    ['Guest 3', 'Waiting', '#1'],
  ]);
  assert.deepEqual(await seriousViolations(page), []);
  await shot(page, 'classes.png');

  // A second occurrence, cancelled from the timetable: it says so, and the database agrees.
  const classId = (await t!.db.query<{ id: string }>('SELECT id FROM classes WHERE store_id = $1', [store!.id])).rows[0]
    .id;
  const other = await merchant('POST', `/api/v1/classes/${classId}/occurrences`, {
    starts_at: '2027-03-12T09:00:00.000Z',
  });
  assert.equal(other.status, 200, JSON.stringify(other.body));
  await page.getByRole('button', { name: 'Close roster' }).click();
  await page.getByRole('button', { name: 'Next week' }).click();
  await page.getByRole('button', { name: 'Previous week' }).click();
  const second = page.locator(`tr[data-occurrence="${other.body.occurrence.id}"]`);
  await second.getByRole('button', { name: 'Cancel class' }).click();
  await second.getByRole('button', { name: 'Yes, cancel it' }).click();
  await second.getByText('Cancelled', { exact: true }).waitFor();
  const cancelled = await t!.db.query('SELECT cancelled_at FROM class_occurrences WHERE id = $1', [
    other.body.occurrence.id,
  ]);
  assert.notEqual(cancelled.rows[0].cancelled_at, null);
  assert.deepEqual(await seriousViolations(page), []);
  await context.close();
});

test('the front desk, by keyboard alone: checks a person in, is refused a no-show before the start, cancels a seat, and takes the offer it makes for the first in line', {
  skip,
}, async () => {
  assert.ok(spin, 'the first test scheduled the class');
  const invite = newSecret();
  await t!.db.query(
    'INSERT INTO staff_invitations (store_id, email, name, role, token_hash, expires_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [
      store!.id,
      'desk@example.test',
      'Dee Desk',
      'front_desk',
      secretHash(invite),
      new Date(t!.clock.now().getTime() + 3600_000),
      t!.clock.now(),
    ],
  );
  const context = await browser!.browser.newContext({ viewport, timezoneId: 'Europe/London' });
  const page = await context.newPage();
  await page.goto(`${base}/console/#/accept#token=${invite}`);
  await page.getByLabel('Your name').fill('Dee Desk');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Accept and sign in' }).click();
  await page.waitForSelector('nav[aria-label="Main"]');
  await page.evaluate(() => {
    location.hash = '#/classes?week=2027-03-08';
  });
  await page.getByRole('heading', { name: 'Classes', level: 1 }).waitFor();
  await page.locator(`tr[data-occurrence="${spin!.occurrenceId}"]`).waitFor();
  // The role table: the desk works the roster; it neither creates nor cancels classes.
  assert.equal(await page.getByRole('form', { name: 'New class' }).count(), 0);
  assert.equal(await page.getByRole('button', { name: 'Cancel class' }).count(), 0);

  const label = (re: RegExp) => (el: { label: string; text: string }) => re.test(el.label || el.text);
  await tabTo(page, label(/^Roster of Spin at 18:00$/));
  await page.keyboard.press('Enter');
  await page.locator('#roster-title:focus').waitFor();
  await tabTo(page, label(/^Check in: Guest 1$/));
  await page.keyboard.press('Enter');
  await page.getByRole('status').getByText('Guest 1: check in done').waitFor();
  await page.locator('tr', { hasText: 'Guest 1' }).getByText('Checked in').waitFor();

  await tabTo(page, label(/^No-show: Guest 2$/));
  await page.keyboard.press('Enter');
  const refused = page.getByTestId('roster').getByRole('alert');
  await refused.waitFor();
  assert.equal(await refused.innerText(), 'A no-show cannot be marked before the class starts');
  assert.deepEqual(await statuses(spin!.occurrenceId), [
    ['Guest 1', 'attended', null],
    ['Guest 2', 'confirmed', null],
    ['Guest 3', 'waitlisted', 1],
  ]);

  await tabTo(page, label(/^Cancel: Guest 2$/));
  await page.keyboard.press('Enter');
  await page.getByRole('status').getByText('Guest 2: cancel done').waitFor();
  // The class offers a freed seat for 30 minutes: Guest 3 is offered it until 08:30 (the clock stands at 08:00 GMT).
  await page.locator('tr', { hasText: 'Guest 3' }).getByText('Offered until 08:30').waitFor();
  assert.deepEqual(await rosterRows(page), [
    ['Guest 1', 'Checked in', ''],
    ['Guest 2', 'Cancelled', ''],
    ['Guest 3', 'Offered until 08:30', ''],
  ]);
  assert.deepEqual(await statuses(spin!.occurrenceId), [
    ['Guest 1', 'attended', null],
    ['Guest 2', 'cancelled', null],
    ['Guest 3', 'promotion_pending', 1],
  ]);
  // Guest 3 rings the desk to take it.
  await tabTo(page, label(/^Accept offer: Guest 3$/));
  await page.keyboard.press('Enter');
  await page.getByRole('status').getByText('Guest 3: accept offer done').waitFor();
  await page.locator('tr', { hasText: 'Guest 3' }).getByText('Booked').waitFor();
  assert.deepEqual(await statuses(spin!.occurrenceId), [
    ['Guest 1', 'attended', null],
    ['Guest 2', 'cancelled', null],
    ['Guest 3', 'confirmed', 1],
  ]);
  assert.deepEqual(await seriousViolations(page), []);
  await context.close();
});
