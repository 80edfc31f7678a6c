// Staff sign-in end to end in headless Chromium against the app on a loopback port: accepting an
// invitation, password sign-in, adding a passkey and signing in with it (a CDP virtual
// authenticator), and signing in through an OpenID provider (oidc-provider on loopback). Keyboard
// and axe-core checks as console.e2e.ts does. With E2E_ARTIFACTS=<dir>, screenshots of the sign-in
// page and the Staff screen.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import type { BrowserContext, Page } from 'playwright-core';
import { startTestApp } from '../support/app.ts';
import { CONSOLE_DIST } from '../../src/console/console.routes.ts';
import { newSecret, secretHash } from '../../src/staff/secrets.ts';
import { firstRunSetupLink } from '../../src/staff/first-run.ts';
import { launchBrowser } from './browser.ts';
import { seriousViolations, shot, skip } from './console-support.ts';
import { CLIENT_ID, CLIENT_SECRET, startOidcProvider } from '../staff/oidc/oidc-provider-stub.ts';

const PASSWORD = 'correct horse battery staple 42';
const viewport = { width: 1024, height: 768 };

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// WebAuthn needs a domain for its RP ID (an IP address is not one): the console is opened at localhost.
const port = await freePort();
const base = `http://localhost:${port}`;
const provider = skip ? null : await startOidcProvider(`${base}/api/v1/auth/oidc/callback`);
if (!skip && !fs.existsSync(path.join(CONSOLE_DIST, 'index.html'))) {
  assert.equal(spawnSync('npm', ['run', 'console:build'], { stdio: 'inherit' }).status, 0, 'the console build failed');
}
const t = skip
  ? null
  : await startTestApp({
      env: {
        PUBLIC_URL: base,
        OIDC_ISSUER: provider!.issuer,
        OIDC_CLIENT_ID: CLIENT_ID,
        OIDC_CLIENT_SECRET: CLIENT_SECRET,
      },
    });
t?.onClose(() => provider!.close());
if (t) await t.app.listen({ port, host: 'localhost' });
const store = t ? await t.fx.store({ name: 'Fade Barbers' }) : null;
const browser = skip ? null : await launchBrowser();
after(async () => {
  await browser?.close();
});

/** An invitation whose token the test knows (the mail itself is the core's test). */
async function invitation(
  email: string,
  role: string,
  name: string | null = null,
  unitId: string | null = null,
): Promise<string> {
  const token = newSecret();
  await t!.db.query(
    `INSERT INTO staff_invitations (store_id, email, name, role, token_hash, expires_at, created_at, unit_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      store!.id,
      email,
      name,
      role,
      secretHash(token),
      new Date(t!.clock.now().getTime() + 72 * 3600_000),
      t!.clock.now(),
      unitId,
    ],
  );
  return token;
}

async function signInPage(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${base}/console/`);
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  return page;
}

async function signOut(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
}

test("first run: the one-time setup link opens the console's setup page, which makes the first owner and signs them in", {
  skip,
}, async () => {
  const link = await firstRunSetupLink(t!.db, t!.config, t!.clock);
  assert.ok(link?.startsWith(`${base}/console/#/setup#token=`), String(link));
  const context = await browser!.browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(link!);
  await page.getByRole('heading', { name: 'Set up the shop' }).waitFor();
  assert.ok(!page.url().includes('token='), 'the token leaves the address bar at once');
  assert.deepEqual(await seriousViolations(page), []);
  await page.getByLabel('Your email').fill('first@example.test');
  await page.getByLabel('Your name').fill('Fay First');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Accept and sign in' }).click();
  await page.waitForSelector('nav[aria-label="Main"]');
  assert.equal(await page.locator('.who span').innerText(), 'Fay First');
  await page.getByRole('link', { name: 'Staff' }).waitFor();
  // The link was single use.
  const again = await context.newPage();
  await again.goto(link!);
  await again.getByLabel('Your email').fill('second@example.test');
  await again.getByLabel('Your name').fill('Sid Second');
  await again.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await again.getByRole('button', { name: 'Accept and sign in' }).click();
  await again.getByRole('alert').waitFor();
  const owners = await t!.db.query(
    `SELECT p.email FROM staff_memberships m JOIN staff_people p ON p.id = m.staff_id WHERE m.role = 'owner'`,
  );
  assert.deepEqual(owners.rows, [{ email: 'first@example.test' }]);
  await context.close();
});

test('an invited owner accepts, signs out, and signs in again with email and password by keyboard alone', {
  skip,
}, async () => {
  const token = await invitation('olivia@example.test', 'owner');
  const context = await browser!.browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(`${base}/console/#/accept#token=${token}`);
  await page.getByRole('heading', { name: 'Join the shop' }).waitFor();
  assert.ok(!page.url().includes(token), 'the token leaves the address bar at once');
  assert.deepEqual(await seriousViolations(page), []);
  await page.getByLabel('Your name').fill('Olivia Owner');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Accept and sign in' }).click();
  await page.waitForSelector('nav[aria-label="Main"]');
  await page.getByRole('link', { name: 'Staff' }).waitFor();
  assert.equal(await page.locator('.who span').innerText(), 'Olivia Owner');
  await signOut(page);
  // The session ended on the server, not only in this tab.
  const live = await t!.db.query(
    `SELECT count(*)::int AS n FROM staff_sessions s JOIN staff_people p ON p.id = s.staff_id WHERE p.email = 'olivia@example.test' AND s.ended_at IS NULL`,
  );
  assert.equal(live.rows[0].n, 0);
  assert.deepEqual(await seriousViolations(page), []);
  await shot(page, 'sign-in.png');

  // Keyboard only: the email field, Tab to the password, Enter submits.
  await page.getByLabel('Email', { exact: true }).focus();
  await page.keyboard.type('olivia@example.test');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'password');
  await page.keyboard.type('not the password at all');
  await page.keyboard.press('Enter');
  await page
    .getByRole('alert')
    .getByText(/password is wrong|do not match/i)
    .waitFor();
  await page.getByLabel('Password', { exact: true }).fill('');
  await page.getByLabel('Password', { exact: true }).focus();
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await page.waitForSelector('nav[aria-label="Main"]');
  await context.close();
});

test('the Staff screen invites a person and changes a role; a front desk member sees neither it nor owner choices', {
  skip,
}, async () => {
  const context = await browser!.browser.newContext({ viewport });
  const page = await signInPage(context);
  await page.getByLabel('Email', { exact: true }).fill('olivia@example.test');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('link', { name: 'Staff' }).click();
  await page.getByRole('heading', { name: 'Staff' }).waitFor();
  const invite = page.getByRole('form', { name: 'Invite a person' });
  await invite.getByLabel('Email').fill('frank@example.test');
  await invite.getByLabel('Role').selectOption('front_desk');
  await invite.getByRole('button', { name: 'Invite' }).click();
  await page.getByRole('status').getByText('Invitation sent to frank@example.test').waitFor();
  const inv = await t!.db.query(
    `SELECT role FROM staff_invitations WHERE email = 'frank@example.test' AND accepted_at IS NULL`,
  );
  assert.deepEqual(inv.rows, [{ role: 'front_desk' }]);

  // Frank joins; the owner makes him a manager from the Staff screen.
  const frank = await invitation('frank2@example.test', 'front_desk', 'Frank Desk');
  const other = await browser!.browser.newContext({ viewport });
  const fp = await other.newPage();
  await fp.goto(`${base}/console/#/accept#token=${frank}`);
  await fp.getByLabel('Your name').fill('Frank Desk');
  await fp.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await fp.getByRole('button', { name: 'Accept and sign in' }).click();
  await fp.waitForSelector('nav[aria-label="Main"]');
  assert.equal(await fp.getByRole('link', { name: 'Staff' }).count(), 0, 'the front desk has no Staff screen');
  await fp.getByRole('link', { name: 'Settings' }).waitFor();

  await page.reload();
  await page.getByRole('heading', { name: 'Staff' }).waitFor();
  const role = page.getByLabel('Role for Frank Desk');
  await role.waitFor();
  await role.selectOption('manager');
  await page.getByRole('status').getByText('Frank Desk updated').waitFor();
  const member = await t!.db.query(
    `SELECT m.role FROM staff_memberships m JOIN staff_people p ON p.id = m.staff_id WHERE p.email = 'frank2@example.test'`,
  );
  assert.equal(member.rows[0].role, 'manager');
  assert.deepEqual(await seriousViolations(page), []);
  await shot(page, 'staff.png');

  // A role change applies from Frank's next request: now he has the Staff screen, without owner choices.
  await fp.reload();
  await fp.getByRole('link', { name: 'Staff' }).click();
  await fp.getByRole('heading', { name: 'Staff' }).waitFor();
  const choices = await fp
    .getByRole('form', { name: 'Invite a person' })
    .getByLabel('Role')
    .locator('option')
    .allTextContents();
  assert.deepEqual(choices, ['Manager', 'Front desk', 'Staff']);
  await other.close();
  await context.close();
});

test('a passkey added from Your account (virtual authenticator) signs in without a password', { skip }, async () => {
  const context = await browser!.browser.newContext({ viewport });
  const page = await signInPage(context);
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  await page.getByLabel('Email', { exact: true }).fill('olivia@example.test');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('link', { name: 'Your account' }).click();
  await page.getByRole('heading', { name: 'Your sessions' }).waitFor();
  await page.getByLabel('Passkey name').fill('Test laptop');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await page.getByRole('status').getByText('Passkey added').waitFor();
  await page.getByText('Test laptop').waitFor();
  const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
  assert.equal(credentials.length, 1);
  assert.equal(credentials[0].isResidentCredential, true);
  const stored = await t!.db.query(
    `SELECT k.credential_id FROM staff_passkeys k JOIN staff_people p ON p.id = k.staff_id WHERE p.email = 'olivia@example.test'`,
  );
  assert.deepEqual(
    stored.rows.map((r) => r.credential_id),
    [Buffer.from(credentials[0].credentialId, 'base64').toString('base64url')],
  );
  assert.deepEqual(await seriousViolations(page), []);

  await signOut(page);
  // Tab reaches the passkey button and Enter presses it: no email, no password.
  await page.getByLabel('Password', { exact: true }).focus();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Sign in with a passkey');
  await page.keyboard.press('Enter');
  await page.waitForSelector('nav[aria-label="Main"]');
  assert.equal(await page.locator('.who span').innerText(), 'Olivia Owner');
  const used = await t!.db.query(`SELECT counter, last_used_at FROM staff_passkeys WHERE credential_id = $1`, [
    stored.rows[0].credential_id,
  ]);
  assert.ok(used.rows[0].last_used_at, "the passkey's use is recorded");
  await context.close();
});

test("signing in through the shop's identity provider lands in the console; an unknown email is told why", {
  skip,
}, async () => {
  const context = await browser!.browser.newContext({ viewport });
  provider!.user = { sub: 'olivia', email: 'olivia@example.test', email_verified: true, name: 'Olivia Owner' };
  const page = await signInPage(context);
  const button = page.getByRole('link', { name: 'Sign in with your organisation' });
  await button.click();
  await page.waitForSelector('nav[aria-label="Main"]');
  assert.equal(new URL(page.url()).origin, base);
  assert.equal(await page.locator('.who span').innerText(), 'Olivia Owner');
  await signOut(page);
  await context.close();

  // Another browser (the provider remembers who signed in at it in this one).
  const second = await browser!.browser.newContext({ viewport });
  provider!.user = { sub: 'nobody', email: 'nobody@example.test', email_verified: true, name: 'No Body' };
  const other = await signInPage(second);
  await other.getByRole('link', { name: 'Sign in with your organisation' }).click();
  await other
    .getByRole('alert')
    .getByText(/no staff account or invitation for that email/)
    .waitFor();
  assert.ok(!other.url().includes('oidc_error'), 'the reason leaves the address bar');
  assert.deepEqual(await seriousViolations(other), []);
  await second.close();
});

test('a staff member finds their own calendar feed link under Your account, copies and rotates it (issue 45)', {
  skip,
}, async () => {
  const unit = await t!.fx.unit(store!.id, { display_name: 'Sam' });
  const token = await invitation('sam@example.test', 'staff', 'Sam Staff', unit.id);
  const context = await browser!.browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(`${base}/console/#/accept#token=${token}`);
  await page.getByLabel('Your name').fill('Sam Staff');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Accept and sign in' }).click();
  await page.waitForSelector('nav[aria-label="Main"]');
  await page.getByRole('link', { name: 'Your account' }).click();
  await page.getByRole('heading', { name: 'Your calendar' }).waitFor();
  const link = page.getByLabel("Sam Staff's calendar link");
  await page.waitForFunction(() =>
    (document.querySelector('input[aria-label$="calendar link"]') as HTMLInputElement | null)?.value.includes(
      '/feeds/',
    ),
  );
  const first = await link.inputValue();
  assert.match(first, /\/feeds\/[A-Za-z0-9_-]{43}\.ics$/);
  assert.deepEqual(await seriousViolations(page), []);
  await shot(page, 'account-calendar-feed.png');
  // Rotate by keyboard: the confirmation accepted, a new link, the old one gone at once.
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Rotate' }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('status').getByText('New link made').waitFor();
  const second = await link.inputValue();
  assert.notEqual(second, first);
  assert.equal((await fetch(first)).status, 404);
  assert.equal((await fetch(second)).status, 200);
  await context.close();
});
