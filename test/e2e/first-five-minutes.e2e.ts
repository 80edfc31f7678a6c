// The first five minutes (issue 41), as a newcomer runs them: on a fresh DATA_DIR with no SMTP_URL,
// `npm run demo`, then `npm start` (each its own process, the embedded PostgreSQL started by each),
// then a booking made on the printed page in Chromium with the code read from the console's
// development Mailbox. Then a production start with no sender: the page shows no sign-in step and the
// console's settings warn that online booking cannot confirm.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chromiumAvailable, launchBrowser } from './browser.ts';
import { seriousViolations, shot } from './console-support.ts';

const skip = chromiumAvailable() ? false : 'Chromium is not installed (apt-get install -y chromium)';
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bbo-first-five-'));
// Run as root, the embedded PostgreSQL runs as the system user postgres, who must enter DATA_DIR.
fs.chmodSync(dataDir, 0o755);
after(() => fs.rmSync(dataDir, { recursive: true, force: true }));
// What the demo printed (the first test's run; the second seeds again only if the first did not run).
let printed: { consoleToken: string; slug: string } | null = null;

function demo(port: number): { consoleToken: string; slug: string; stdout: string } {
  const run = spawnSync(process.execPath, ['scripts/demo.ts'], {
    env: freshEnv(port),
    encoding: 'utf8',
    timeout: 300_000,
  });
  assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
  // The merchant token the demo exports (its console link now signs in the demo owner with a password).
  const consoleToken = /^export TOKEN=(\S+)$/m.exec(run.stdout)?.[1];
  const slug = /\/book\/([a-z0-9-]+)\b/.exec(run.stdout)?.[1];
  assert.ok(consoleToken && slug, `the demo prints the console and page links:\n${run.stdout}`);
  return { consoleToken, slug, stdout: run.stdout };
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A newcomer's environment: nothing of this machine's configuration (no SMTP_URL, no DATABASE_URL). */
function freshEnv(port: number, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_LEVEL: 'info',
    ...extra,
  };
}

for (const dist of ['booking-page/dist/index.html', 'console/dist/index.html']) {
  if (!fs.existsSync(dist))
    assert.equal(
      spawnSync('npm', ['run', dist.startsWith('console') ? 'console:build' : 'booking-page:build'], {
        stdio: 'inherit',
      }).status,
      0,
    );
}

/** `npm start` as package.json runs it; resolves once it listens, with everything it printed so far. */
function start(env: NodeJS.ProcessEnv): {
  child: ChildProcess;
  output: () => string;
  listening: Promise<void>;
  exited: Promise<number | null>;
} {
  const child = spawn(
    process.execPath,
    ['--import', './src/tracing-preload.ts', '--max-semi-space-size=8', 'src/server.ts'],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout!.on('data', (c) => {
    out += c;
  });
  child.stderr!.on('data', (c) => {
    out += c;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const listening = new Promise<void>((resolve, reject) => {
    const t = setInterval(() => {
      if (/"msg":"listening"/.test(out)) {
        clearInterval(t);
        setTimeout(resolve, 300);
      }
    }, 100);
    void exited.then(() => {
      clearInterval(t);
      reject(new Error(`the service exited:\n${out}`));
    });
  });
  return { child, output: () => out, listening, exited };
}

async function stop(s: ReturnType<typeof start>): Promise<number> {
  const began = Date.now();
  s.child.kill('SIGTERM');
  await s.exited;
  return Date.now() - began;
}

test("fresh DATA_DIR, no SMTP_URL: demo, start, and a booking made on the page with the code from the console's Mailbox", {
  skip,
  timeout: 600_000,
}, async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const seeded = demo(port);
  printed = seeded;
  assert.match(seeded.stdout, /Mailbox/, 'the printed steps say where the code waits');

  const server = start(freshEnv(port));
  try {
    await server.listening;
    // npm start says where the development mailbox is.
    assert.ok(
      server.output().includes(`"mailbox":"http://localhost:${port}/console/#/mailbox"`) ||
        server.output().includes(`${base}/console/#/mailbox`),
      server.output(),
    );
    const browser = await launchBrowser();
    try {
      const context = await browser.browser.newContext({
        viewport: { width: 1024, height: 900 },
        timezoneId: 'Europe/London',
      });
      context.setDefaultTimeout(60_000);
      const page = await context.newPage();
      await page.goto(`${base}/book/${seeded.slug}`);
      await page.locator('.times button').first().click();
      await page.getByTestId('held-summary').waitFor();
      await page.getByLabel('Email').fill('newcomer@example.com');
      await page.getByLabel('Name').fill('New Comer');
      await page.getByRole('button', { name: 'Email me a code' }).click();
      await page.getByTestId('code-sent').waitFor();

      // The owner reads the code in the console's Mailbox (marked development only).
      const owner = await context.newPage();
      await owner.goto(`${base}/console/#token=${seeded.consoleToken}`);
      await owner.getByRole('link', { name: 'Mailbox' }).click();
      await owner.getByText('development only').waitFor();
      const kept = owner.locator('.mailbox li[data-kind="sign_in_code"]', { hasText: 'newcomer@example.com' });
      await kept.first().waitFor({ timeout: 30_000 });
      const code = /\b(\d{6})\b/.exec(await kept.first().locator('pre').innerText())?.[1];
      assert.ok(code, 'the Mailbox shows the code');

      await page.getByLabel('6-digit code').fill(code!);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('button', { name: 'Confirm booking' }).click();
      await page.getByRole('heading', { name: 'Booked', exact: true }).waitFor();
      // The page the README shows (E2E_ARTIFACTS=docs/booking-page: booked.png): the booking made, with Add to calendar.
      await page.getByTestId('add-to-calendar').waitFor();
      assert.deepEqual(await seriousViolations(page), []);
      await shot(page, 'booked.png');

      // The booking is the shop's: the console's Mailbox shows its confirmation once the worker has planned it.
      await owner.reload();
      await owner
        .locator('.mailbox li[data-kind="confirmation"]', { hasText: 'newcomer@example.com' })
        .first()
        .waitFor({ timeout: 60_000 });
      await context.close();
    } finally {
      await browser.close();
    }
    // The code never reached the log.
    assert.ok(!/newcomer@example\.com/.test(server.output()), 'no email in the log');
  } finally {
    const took = await stop(server);
    assert.ok(took < 15_000, `SIGTERM took ${took} ms`);
  }
});

test("production with no sender: the page shows no sign-in step and the console's settings warn that online booking cannot confirm", {
  skip,
  timeout: 600_000,
}, async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // The demo's data from the first test (or seeded now), started as production with no SMTP_URL.
  const { consoleToken, slug } = printed ?? demo(port);
  const server = start(
    freshEnv(port, { NODE_ENV: 'production', AUTH_SECRET: 'dev-only-secret-change-me-0123456789abcdef' }),
  );
  try {
    await server.listening;
    assert.match(server.output(), /online booking cannot confirm/);
    const browser = await launchBrowser();
    try {
      const context = await browser.browser.newContext({
        viewport: { width: 1024, height: 900 },
        timezoneId: 'Europe/London',
      });
      context.setDefaultTimeout(60_000);
      const page = await context.newPage();
      await page.goto(`${base}/book/${slug}`);
      await page.getByTestId('book-by-phone').waitFor();
      assert.equal(await page.getByRole('button', { name: 'Email me a code' }).count(), 0);
      assert.equal(await page.getByLabel('6-digit code').count(), 0);
      const owner = await context.newPage();
      await owner.goto(`${base}/console/#token=${consoleToken}`);
      await owner.goto(`${base}/console/#/settings`);
      await owner.getByTestId('cannot-confirm').waitFor();
      assert.match(await owner.getByTestId('cannot-confirm').innerText(), /Online booking cannot confirm/);
      assert.equal(
        await owner.getByRole('link', { name: 'Mailbox' }).count(),
        0,
        'no development mailbox in production',
      );
      await context.close();
    } finally {
      await browser.close();
    }
  } finally {
    await stop(server);
  }
});
