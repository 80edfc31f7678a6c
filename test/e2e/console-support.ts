// The console end-to-end tests' world: the app listening on a port, one store with three units,
// bookings, hours, time-off, a hold and two walk-ins on 2027-03-10, a Chromium, and the helpers the
// tests drive them with (console.e2e.ts).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import type { BrowserContext, Page } from 'playwright-core';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../support/app.ts';
import { call } from '../support/http.ts';
import { CONSOLE_DIST } from '../../src/console/console.routes.ts';
import { chromiumAvailable, launchBrowser } from './browser.ts';

export const skip = chromiumAvailable() ? false : 'Chromium is not installed (apt-get install -y chromium)';
export const DAY = '2027-03-10';
export const ARTIFACTS = process.env.E2E_ARTIFACTS ? path.resolve(process.env.E2E_ARTIFACTS) : null;
const axeSource: string = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export const at = (hhmm: string, date = DAY) => `${date}T${hhmm}:00.000Z`; // London is on GMT on these March days

export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const result: any = await page.evaluate(() => (window as any).axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v: any) => v.impact === 'serious' || v.impact === 'critical')
    .map((v: any) => `${v.id}: ${v.help} (${v.nodes.length})`);
}

export async function shot(page: Page, name: string) {
  if (ARTIFACTS) await page.screenshot({ path: path.join(ARTIFACTS, name) });
}

/** The diary as the docs show it: no dialog open, scrolled to the morning. */
export async function shotDiary(page: Page) {
  await page.keyboard.press('Escape');
  await page.locator('.grid-scroll').evaluate((el) => {
    el.scrollTop = 8 * 60 + 30;
  });
  await shot(page, 'diary.png');
}

/** The figures the tests measured: printed, and written to E2E_ARTIFACTS/metrics.json when set. */
export function reportMetrics(metrics: Record<string, unknown>) {
  console.log(`console e2e figures: ${JSON.stringify(metrics)}`);
  if (ARTIFACTS) fs.writeFileSync(path.join(ARTIFACTS, 'metrics.json'), `${JSON.stringify(metrics, null, 2)}\n`);
}

export async function openDiary(page: Page, date: string) {
  await page.evaluate((d) => {
    location.hash = `#/diary?date=${d}`;
  }, date);
  await page.reload();
  await page.waitForSelector('[data-testid="diary-meta"]:has-text("hours")');
}

export interface ConsoleWorld {
  t: TestApp;
  base: string;
  browser: Awaited<ReturnType<typeof launchBrowser>>;
  store: { id: string };
  token: string;
  units: Record<string, string>;
  appts: Record<string, string>;
  priya: string;
  book(
    unit: string,
    from: string,
    to: string,
    extra?: Record<string, unknown>,
    storeId?: string,
    tk?: string,
  ): Promise<string>;
  signedIn(context: BrowserContext, hash: string, tk?: string): Promise<Page>;
  /** Page coordinates of a store-local time in a unit's column (1 px per minute from the day's start). */
  pointIn(page: Page, unit: string, minutes: number): Promise<{ x: number; y: number }>;
}

/** Set up at the top level of the test file: startTestApp registers its own after() for the file. */
export async function startConsoleWorld(): Promise<ConsoleWorld> {
  if (!fs.existsSync(path.join(CONSOLE_DIST, 'index.html'))) {
    const built = spawnSync('npm', ['run', 'console:build'], { stdio: 'inherit' });
    assert.equal(built.status, 0, 'the console build failed');
  }
  const t = await startTestApp({ now: '2027-03-10T08:00:00Z' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address() as { port: number };
  const base = `http://127.0.0.1:${address.port}`;

  const store = await t.fx.store({ name: 'Fade Barbers' });
  const token = await t.fx.merchantToken(store.id, { staffName: 'Sam Front' });
  const units: Record<string, string> = {};
  const appts: Record<string, string> = {};
  const book = async (
    unit: string,
    from: string,
    to: string,
    extra: Record<string, unknown> = {},
    storeId = store.id,
    tk = token,
  ) => {
    const res = await call(t.app, 'POST', '/api/v1/bookings/appointments', {
      token: tk,
      body: {
        store_id: storeId,
        unit_id: unit,
        starts_at: from,
        ends_at: to,
        guest_email: 'guest@example.com',
        ...extra,
      },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.appointment.id as string;
  };
  const signedIn = async (context: BrowserContext, hash: string, tk = token): Promise<Page> => {
    const page = await context.newPage();
    await page.goto(`${base}/console/#token=${tk}`);
    await page.waitForSelector('nav[aria-label="Main"]');
    await page.evaluate((h) => {
      location.hash = h;
    }, hash);
    return page;
  };
  const pointIn = async (page: Page, unit: string, minutes: number) => {
    const box = (await page.locator(`[data-unit-column="${units[unit]}"]`).boundingBox())!;
    return { x: box.x + box.width / 2, y: box.y + minutes };
  };
  for (const [i, [name, colour]] of [
    ['Alex', '#2f6fde'],
    ['Sam', '#c2410c'],
    ['Chair 3', '#15803d'],
  ].entries()) {
    units[name] = (await t.fx.unit(store.id, { display_name: name, sort: i })).id;
    await t.db.query('UPDATE units SET colour = $1 WHERE id = $2', [colour, units[name]]);
  }
  const haircut = await t.fx.service(store.id, { name: 'Haircut', duration_min: 45, price_pence: 3000 });
  const priya = (await t.fx.customer({ name: 'Priya Shah', email: 'priya@example.com', phone: '+447812345678' })).id;
  await t.fx.membership(store.id, priya);
  appts.move = await book(units.Alex, at('11:00'), at('11:45'), { guest_name: 'Dana Move', service_id: haircut.id });
  appts.refused = await book(units.Alex, at('14:00'), at('14:30'), { guest_name: 'Rita Refused' });
  appts.taken = await book(units.Sam, at('14:00'), at('14:30'), { guest_name: 'Tess Taken' });
  appts.settle = await book(units['Chair 3'], at('09:00'), at('09:45'), {
    guest_name: 'Cleo Settle',
    service_id: haircut.id,
    price_pence: 3000,
  });
  await book(units.Sam, at('09:30'), at('10:15'), {
    customer_id: priya,
    service_id: haircut.id,
    guest_email: undefined,
  });
  for (const unit of Object.values(units)) {
    const hours = await call(t.app, 'PUT', `/api/v1/bookings/units/${unit}/hours`, {
      token,
      body: {
        store_id: store.id,
        week: { wednesday: [{ open: '09:00', close: '18:00' }], thursday: [{ open: '09:00', close: '18:00' }] },
      },
    });
    assert.equal(hours.status, 200, JSON.stringify(hours.body));
  }
  const off = await call(t.app, 'POST', '/api/v1/bookings/time-off', {
    token,
    body: {
      store_id: store.id,
      unit_id: units.Alex,
      starts_at: at('16:00'),
      ends_at: at('17:00'),
      kind: 'block',
      reason: 'Lunch',
    },
  });
  assert.equal(off.status, 200, JSON.stringify(off.body));
  const hold = await call(t.app, 'POST', `/admin/v1/stores/${store.id}/holds`, {
    token: ADMIN_TOKEN,
    body: {
      unit_id: units['Chair 3'],
      starts_at: at('15:00'),
      ends_at: at('15:30'),
      expires_at: '2027-03-10T12:00:00.000Z',
    },
  });
  assert.equal(hold.status, 200, JSON.stringify(hold.body));
  for (const name of ['Jo Walkin', 'Max Walkin']) {
    const res = await call(t.app, 'POST', '/api/v1/bookings/queue/join', {
      token,
      body: { store_id: store.id, guest_name: name },
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
  if (ARTIFACTS) fs.mkdirSync(ARTIFACTS, { recursive: true });
  const browser = await launchBrowser();
  return { t, base, browser, store, token, units, appts, priya, book, signedIn, pointIn };
}
