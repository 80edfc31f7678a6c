// The booking page's refusals, in headless Chromium (issue 26): an expired hold is refused with a
// message and books nothing; five wrong codes kill the code, and a code works once; a manage link
// acts on its own booking only and stops after it ends; only the shop's own sites can frame the page;
// a page switched off answers 404 with nothing about the store.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { axe, codeFor, pick, shop, skip, slot, startWorld, type PageWorld, type Shop } from './booking-page-support.ts';
import { manageLinks } from '../../src/booking-page/page-deps.ts';
import { call } from '../support/http.ts';

let w: PageWorld;
let s: Shop;
const sites: Record<'allowed' | 'other', string> = { allowed: '', other: '' };

/** A shop's own website on another loopback port: one line of embed script, as the console shows it. */
async function site(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    // /frame: the page in an iframe of its own; /, /button: the one-line embed script.
    const button = req.url?.includes('button') ? ' data-mode="button"' : '';
    const body = req.url?.startsWith('/frame')
      ? `<iframe src="${w.base}/book/${s.slug}?embed=1" title="Book" style="width:100%;height:600px;border:0"></iframe>`
      : `<script src="${w.base}/book/embed.js" data-slug="${s.slug}"${button}></script>`;
    res
      .writeHead(200, { 'content-type': 'text/html' })
      .end(
        `<!doctype html><html lang="en"><head><title>Shop site</title></head><body><h1>Our shop</h1>${body}</body></html>`,
      );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

let servers: Array<{ url: string; close(): Promise<void> }> = [];

if (!skip) {
  w = await startWorld('2027-03-10T08:00:00Z');
  servers = [await site(), await site()];
  sites.allowed = servers[0].url;
  sites.other = servers[1].url;
  s = await shop(w, 'guards', { cors_origins: [sites.allowed] });
}
after(async () => {
  for (const x of servers) await x.close();
});

const viewport = { width: 1024, height: 900 };

/** Holds a time on the page (Beard trim with Sam on the day), waiting for the hold or failing with the refusal. */
async function hold(page: Page, date: string, startsAt: string) {
  await page.goto(`${w.base}/book/${s.slug}`);
  await pick(page, 'Beard trim', 'Sam', date);
  await slot(page, startsAt).click();
  await page.locator('[data-testid="held-summary"], [data-testid="picker-message"]').first().waitFor();
  if (await page.getByTestId('picker-message').count())
    assert.fail(await page.getByTestId('picker-message').innerText());
}

async function sendCode(page: Page, email: string): Promise<string> {
  const from = w.smtp.received.length;
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await page.locator('[data-testid="code-sent"], [data-testid="code-error"]').first().waitFor();
  if (await page.getByTestId('code-error').count()) assert.fail(await page.getByTestId('code-error').innerText());
  return codeFor(w, email, from);
}

test("an expired hold is refused with the envelope's sentence, books nothing, and the customer can choose again", {
  skip,
}, async () => {
  const context = await w.browser.browser.newContext({ viewport });
  const page = await context.newPage();
  await hold(page, '2027-03-11', '2027-03-11T15:00');
  const code = await sendCode(page, 'exp@example.com');
  await page.getByLabel('6-digit code').fill(code);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Confirm booking' }).waitFor();
  w.t.clock.advance(11 * 60_000); // hold_minutes is 10
  await page.getByRole('button', { name: 'Confirm booking' }).click();
  await page.getByTestId('confirm-error').waitFor();
  const text = await page.getByTestId('confirm-error').innerText();
  assert.match(text, /(expired|ended|lapsed)/i, text);
  await axe(page, 'hold expired');
  const booked = await w.t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM appointments WHERE store_id = $1`, [
    s.id,
  ]);
  assert.equal(booked.rows[0].n, 0, 'nothing booked');
  await page.getByRole('button', { name: 'Choose another time', exact: true }).click();
  await page.locator('#pick-title:focus').waitFor();
  assert.match(await page.getByTestId('picker-message').innerText(), /Nothing was booked\. Choose a time again\./);
  await context.close();
});

test('five wrong codes kill the code; a new code works, once', { skip }, async () => {
  const context = await w.browser.browser.newContext({ viewport });
  const page = await context.newPage();
  await hold(page, '2027-03-11', '2027-03-11T16:00');
  const email = 'five@example.com';
  const code = await sendCode(page, email);
  const wrong = code === '000000' ? '111111' : '000000';
  for (let i = 0; i < 5; i++) {
    await page.getByLabel('6-digit code').fill(wrong);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('code-error').waitFor();
    await page.waitForFunction(() => !document.querySelector('.email-code button[type=submit][disabled]'));
  }
  const dead = await page.getByTestId('code-error').innerText();
  // The right code, after five wrong tries, no longer signs in.
  if (await page.getByLabel('6-digit code').count()) {
    await page.getByLabel('6-digit code').fill(code);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForFunction(() => !document.querySelector('.email-code button[type=submit][disabled]'));
  }
  assert.equal(await page.getByRole('button', { name: 'Confirm booking' }).count(), 0, `not signed in (${dead})`);
  const api = await call(w.t.app, 'POST', `/api/v1/book/${s.slug}/email-code/verify`, { body: { email, code } });
  assert.equal(api.status, 400);
  // A dead code answers as a wrong one does (verify never tells whether a code is pending).
  assert.equal(api.body.error.code, 'CODE_INVALID');
  await axe(page, 'code dead');

  // A new code signs in; the same code a second time is refused.
  if (await page.getByRole('button', { name: /Use another email/ }).count())
    await page.getByRole('button', { name: /Use another email/ }).click();
  const fresh = await sendCode(page, email);
  await page.getByLabel('6-digit code').fill(fresh);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Confirm booking' }).waitFor();
  const again = await call(w.t.app, 'POST', `/api/v1/book/${s.slug}/email-code/verify`, {
    body: { email, code: fresh },
  });
  assert.equal(again.status, 400);
  assert.equal(again.body.error.code, 'CODE_EXPIRED');
  await page.getByRole('button', { name: /^Back: choose another time/ }).click(); // lets the hold go
  await context.close();
});

test("a manage link acts on its own booking only, not on another store's page, and stops after the booking ends", {
  skip,
}, async () => {
  const customer = await w.t.fx.customer({ name: 'Mo Link', email: 'mo@example.com' });
  await w.t.fx.membership(s.id, customer.id);
  const book = async (startsAt: string, endsAt: string) => {
    const r = await call(w.t.app, 'POST', '/api/v1/bookings/appointments', {
      token: s.token,
      body: {
        store_id: s.id,
        unit_id: s.units.Alex,
        service_id: s.services['Beard trim'],
        starts_at: startsAt,
        ends_at: endsAt,
        customer_id: customer.id,
      },
    });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.appointment as { id: string; ends_at: string };
  };
  const a = await book('2027-03-12T09:00:00Z', '2027-03-12T09:20:00Z');
  const b = await book('2027-03-12T11:00:00Z', '2027-03-12T11:20:00Z');
  const link = manageLinks(w.t.config, w.t.clock);
  const linkA = await link({ appointmentId: a.id, storeId: s.id, slug: s.slug, endsAt: a.ends_at });
  const linkB = await link({ appointmentId: b.id, storeId: s.id, slug: s.slug, endsAt: b.ends_at });
  const context = await w.browser.browser.newContext({ viewport });
  const page = await context.newPage();

  // A's link shows A and cancels A; B stands.
  await page.goto(linkA);
  await page
    .getByTestId('managed')
    .getByText(/Friday, 12 March 2027, 09:00 GMT/)
    .waitFor();
  await page.getByRole('button', { name: 'Cancel this booking' }).click();
  await page.getByRole('button', { name: 'Yes, cancel it' }).click();
  await page.getByTestId('manage-done').waitFor();
  const rows = await w.t.db.query<{ id: string; status: string }>(
    'SELECT id, status FROM appointments WHERE id = ANY($1) ORDER BY starts_at',
    [[a.id, b.id]],
  );
  assert.deepEqual(
    rows.rows.map((r) => r.status),
    ['cancelled', 'confirmed'],
  );

  // B's token on another store's page is refused there, and changes nothing.
  const other = await w.t.fx.store({ name: 'Elsewhere Cuts' });
  const otherToken = await w.t.fx.merchantToken(other.id);
  assert.equal(
    (
      await call(w.t.app, 'PATCH', '/api/v1/bookings/settings', {
        token: otherToken,
        body: { store_id: other.id, booking_page_slug: 'elsewhere', booking_page_enabled: true },
      })
    ).status,
    200,
  );
  await page.goto(linkB.replace(`/book/${s.slug}/`, '/book/elsewhere/'));
  await page.getByTestId('manage-error').waitFor();
  assert.match(await page.getByTestId('manage-error').innerText(), /not valid|expired/);
  assert.equal(await page.getByRole('button', { name: 'Cancel this booking' }).count(), 0);
  await axe(page, 'manage link refused');

  // After B ends, its link no longer works.
  w.t.clock.set('2027-03-12T11:30:00Z');
  await page.goto(linkB);
  await page.getByTestId('manage-error').waitFor();
  assert.match(await page.getByTestId('manage-error').innerText(), /ended|expired/);
  assert.equal(
    (await w.t.db.query<{ status: string }>('SELECT status FROM appointments WHERE id = $1', [b.id])).rows[0].status,
    'confirmed',
  );
  w.t.clock.set('2027-03-10T08:00:00Z');
  await context.close();
});

test('a site in cors_origins can frame the page; another site cannot', { skip }, async () => {
  const context = await w.browser.browser.newContext({ viewport });
  const page = await context.newPage();
  await page.goto(`${sites.allowed}/frame`);
  const frame = page.frameLocator('iframe');
  await frame.getByTestId('store-name').waitFor();
  await frame.locator('.times button').first().waitFor();

  const blocked = await context.newPage();
  const refused: string[] = [];
  blocked.on('console', (m) => refused.push(m.text()));
  await blocked.goto(`${sites.other}/frame`);
  await blocked.locator('iframe').waitFor();
  await blocked.waitForTimeout(1500);
  const child = blocked.frames().find((f) => f !== blocked.mainFrame());
  const shown = child
    ? await child
        .locator('[data-testid="store-name"]')
        .count()
        .catch(() => 0)
    : 0;
  assert.equal(shown, 0, 'the page does not render inside a site that is not listed');
  assert.ok(
    refused.some((m) => /frame-ancestors/.test(m)),
    `Chromium reports the frame-ancestors refusal (${refused.join(' | ')})`,
  );
  await context.close();
});

// embed.js is loaded by another site, so its route answers Cross-Origin-Resource-Policy: cross-origin.
test('the one-line embed script frames the page, sized by postMessage, or behind a button', { skip }, async () => {
  const context = await w.browser.browser.newContext({ viewport });
  context.setDefaultTimeout(15_000);
  const page = await context.newPage();
  await page.goto(sites.allowed);
  const frame = page.frameLocator('iframe');
  await frame.getByTestId('store-name').waitFor();
  // The page told the parent its height, and embed.js sized the frame to it.
  await page.waitForFunction(() =>
    /^\d+px$/.test((document.querySelector('iframe') as HTMLIFrameElement).style.height),
  );
  const height = await page.evaluate(() =>
    parseInt((document.querySelector('iframe') as HTMLIFrameElement).style.height, 10),
  );
  assert.ok(height > 400, `frame height ${height}`);
  await page.goto(`${sites.allowed}/button`);
  await page.getByRole('button', { name: 'Book now' }).click();
  await page.frameLocator('dialog iframe').getByTestId('store-name').waitFor();
  await context.close();
});

test('a page switched off answers 404 with nothing about the store', { skip }, async () => {
  const off = await call(w.t.app, 'PATCH', '/api/v1/bookings/settings', {
    token: s.token,
    body: { store_id: s.id, booking_page_enabled: false },
  });
  assert.equal(off.status, 200, JSON.stringify(off.body));
  const context = await w.browser.browser.newContext({ viewport });
  const page = await context.newPage();
  const res = await page.goto(`${w.base}/book/${s.slug}`);
  assert.equal(res!.status(), 404);
  const body = await res!.text();
  assert.doesNotMatch(body, /Fade Barbers|Beard|Alex|Sam/);
  const unknown = await page.goto(`${w.base}/book/no-such-shop`);
  assert.equal(unknown!.status(), 404);
  assert.equal(await unknown!.text(), body, 'the same answer as an unknown address');
  const api = await call(w.t.app, 'GET', `/api/v1/book/${s.slug}`);
  assert.equal(api.status, 404);
  assert.doesNotMatch(JSON.stringify(api.body), /Fade Barbers/);
  await call(w.t.app, 'PATCH', '/api/v1/bookings/settings', {
    token: s.token,
    body: { store_id: s.id, booking_page_enabled: true },
  });
  await context.close();
});
