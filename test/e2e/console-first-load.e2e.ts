// The console's first load on a browser that never signed in (issue 41, docs/decisions/page-first-load.md):
// the sign-in page comes with one script file (every other screen is a chunk fetched when opened),
// asks nothing that fails (no 401 from /api/v1/auth/me: an error in the browser's console), and is
// usable with the keyboard and clean under axe. Once signed in here, a reload keeps the session (the
// console asks who is signed in again), and after signing out it does not ask.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import type { Page } from 'playwright-core';
import { startTestApp } from '../support/app.ts';
import { call } from '../support/http.ts';
import { CONSOLE_DIST } from '../../src/console/console.routes.ts';
import { newSecret, secretHash } from '../../src/staff/secrets.ts';
import { launchBrowser } from './browser.ts';
import { seriousViolations, shot, skip } from './console-support.ts';

const PASSWORD = 'correct horse battery staple 42';
if (!skip && !fs.existsSync(path.join(CONSOLE_DIST, 'index.html'))) {
  assert.equal(spawnSync('npm', ['run', 'console:build'], { stdio: 'inherit' }).status, 0, 'the console build failed');
}
const t = skip ? null : await startTestApp();
const base = t ? await t.app.listen({ port: 0, host: '127.0.0.1' }) : '';
const browser = skip ? null : await launchBrowser();
after(async () => {
  await browser?.close();
});

/** What one page asked for and complained about. */
function watch(page: Page) {
  const seen = { errors: [] as string[], requests: [] as string[] };
  page.on('console', (m) => {
    if (m.type() === 'error') seen.errors.push(m.text());
  });
  page.on('pageerror', (e) => seen.errors.push(e.message));
  page.on('request', (r) => seen.requests.push(new URL(r.url()).pathname));
  return seen;
}
const scripts = (paths: string[]) => paths.filter((p) => p.startsWith('/console/assets/') && p.endsWith('.js'));

test('a first visit: the sign-in page in one script file, no failing request, keyboard and axe; a reload keeps a session made here, and a sign-out forgets it', {
  skip,
}, async () => {
  const store = await t!.fx.store({ name: 'Fade Barbers' });
  const token = newSecret();
  await t!.db.query(
    `INSERT INTO staff_invitations (store_id, email, name, role, token_hash, expires_at, created_at) VALUES ($1, 'olive@shop.test', NULL, 'owner', $2, $3, $4)`,
    [store.id, secretHash(token), new Date(t!.clock.now().getTime() + 3_600_000), t!.clock.now()],
  );
  const accepted = await call(t!.app, 'POST', '/api/v1/auth/invitations/accept', {
    body: { token, name: 'Olive Owner', password: PASSWORD },
  });
  assert.equal(accepted.status, 200, JSON.stringify(accepted.body));

  const context = await browser!.browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const page = await context.newPage();
  const seen = watch(page);
  await page.goto(`${base}/console/`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.waitForLoadState('networkidle');
  assert.deepEqual(seen.errors, [], "nothing in the browser's console");
  assert.ok(!seen.requests.includes('/api/v1/auth/me'), 'a browser that never signed in is not asked about');
  assert.equal(scripts(seen.requests).length, 1, `one script file: ${scripts(seen.requests).join(', ')}`);
  assert.deepEqual(await seriousViolations(page), []);

  // The keyboard alone: the email field, the password, Enter.
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'email');
  await page.keyboard.type('olive@shop.test');
  await page.keyboard.press('Tab');
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).waitFor();
  assert.ok(
    scripts(seen.requests).some((p) => /\/Diary-[\w-]+\.js$/.test(p)),
    "the diary's chunk fetched once it opens",
  );

  // A reload asks who is signed in (a sign-in happened here) and stays signed in.
  seen.requests.length = 0;
  await page.reload();
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).waitFor();
  assert.ok(seen.requests.includes('/api/v1/auth/me'));

  // On a 390 px screen the navigation wraps and leaves the button uncovered: what lies at its centre is
  // the button itself (it used to be a link of the navigation, laid over it), and no link overlaps it.
  const signOut = page.getByRole('banner').getByRole('button', { name: 'Sign out' });
  const covered = await signOut.evaluate((button) => {
    const box = button.getBoundingClientRect();
    const atCentre = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    const overlaps = [...document.querySelectorAll('header nav a')].filter((a) => {
      const r = a.getBoundingClientRect();
      return r.left < box.right && box.left < r.right && r.top < box.bottom && box.top < r.bottom;
    });
    return { atCentre: atCentre === button, overlaps: overlaps.map((a) => a.textContent), right: box.right };
  });
  assert.deepEqual(covered, { atCentre: true, overlaps: [], right: covered.right });
  assert.ok(covered.right <= 390, 'the button is inside the screen');
  await shot(page, 'phone.png');

  // Signed out with a tap: the next load shows sign-in without asking.
  await signOut.tap();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  seen.requests.length = 0;
  seen.errors.length = 0;
  await page.reload();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.waitForLoadState('networkidle');
  assert.ok(!seen.requests.includes('/api/v1/auth/me'));
  assert.deepEqual(seen.errors, []);
  await context.close();
});
