// The console's Import and Reports screens and the calendar feed links, end to end in headless
// Chromium (the same world as console.e2e.ts: a store on 2027-03-10 with three units and bookings).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seriousViolations, skip, startConsoleWorld, type ConsoleWorld } from './console-support.ts';

const world = skip ? null : await startConsoleWorld();
const { t, browser, token, units, signedIn } = world ?? ({} as ConsoleWorld);
after(async () => {
  await browser?.close();
});
const viewport = { width: 1024, height: 768 };

test('import: the dry run reports errors by line and writes nothing; then Import writes the good rows', {
  skip,
}, async () => {
  const context = await browser!.browser.newContext({ viewport });
  const page = await signedIn(context, '#/import', token);
  await page.getByRole('heading', { name: 'Import', level: 1 }).waitFor();
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'import-')), 'clients.csv');
  fs.writeFileSync(file, 'name,email,mobile\nZara Zed,zara@example.com,07812 300001\nYan Bad,not-an-email,\n');
  await page.getByLabel(/CSV file/).setInputFiles(file);
  await page.getByRole('button', { name: 'Check the file' }).click();
  const report = page.getByTestId('import-report');
  await report.getByText('What an import would do').waitFor();
  await report.getByText('2 rows: 1 new, 0 updated, 0 unchanged, 1 with errors.').waitFor();
  await report.getByRole('cell', { name: '3', exact: true }).waitFor();
  const count = async () =>
    Number((await t.db.query("SELECT count(*) FROM customers WHERE email = 'zara@example.com'")).rows[0].count);
  assert.equal(await count(), 0);
  assert.deepEqual(await seriousViolations(page), []);
  await page.getByRole('button', { name: 'Import', exact: true }).click();
  await report.getByText('What the import did').waitFor();
  assert.equal(await count(), 1);
  await context.close();
});

test('reports: a chart of this week against the last, the table by unit, and the CSV download', { skip }, async () => {
  const context = await browser!.browser.newContext({ viewport, acceptDownloads: true });
  const page = await signedIn(context, '#/reports', token);
  await page.getByLabel('A day in the period').fill('2027-03-10');
  const table = page.getByTestId('report-table');
  await table.getByRole('rowheader', { name: 'Alex' }).waitFor();
  assert.equal(await page.getByTestId('report-chart').locator('rect').count(), 7);
  assert.deepEqual(await seriousViolations(page), []);
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  const csv = fs.readFileSync((await download.path())!, 'utf8');
  assert.match(csv, /^key,label,appointments,/);
  assert.match(csv, new RegExp(`${units.Alex},Alex,`));
  await context.close();
});

test("settings: each unit's calendar feed link, and rotate gives a new one", { skip }, async () => {
  const context = await browser!.browser.newContext({ viewport });
  const page = await signedIn(context, '#/settings', token);
  const link = page.getByLabel("Alex's calendar link");
  await page.waitForFunction(() =>
    (document.querySelector('[aria-label="Alex\'s calendar link"]') as HTMLInputElement | null)?.value.includes(
      '/feeds/',
    ),
  );
  const before = await link.inputValue();
  page.once('dialog', (d) => void d.accept());
  await page
    .getByTestId('calendar-feeds')
    .getByRole('listitem')
    .filter({ hasText: 'Alex' })
    .getByRole('button', { name: 'Rotate' })
    .click();
  await page.getByText('New link made').waitFor();
  const after = await link.inputValue();
  assert.notEqual(after, before);
  const old = await t.app.inject({ method: 'GET', url: new URL(before).pathname });
  assert.equal(old.statusCode, 404);
  assert.equal((await t.app.inject({ method: 'GET', url: new URL(after).pathname })).statusCode, 200);
  await context.close();
});
