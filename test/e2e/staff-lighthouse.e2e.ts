// Lighthouse's accessibility audit of the console's sign-in page (issue 43 asks for 100): Debian's
// Chromium started by chrome-launcher (Lighthouse's own), against the app on a loopback port with
// OIDC on, so the page shows every way in.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import * as chromeLauncher from 'chrome-launcher';
import { startTestApp } from '../support/app.ts';
import { CONSOLE_DIST } from '../../src/console/console.routes.ts';
import { CHROMIUM } from './browser.ts';
import { skip } from './console-support.ts';

interface Lhr {
  finalDisplayedUrl: string;
  categories: { accessibility: { score: number | null } };
  audits: Record<string, { id: string; score: number | null; scoreDisplayMode: string }>;
}

test('the sign-in page scores 100 for accessibility in Lighthouse', { skip, timeout: 300_000 }, async () => {
  if (!fs.existsSync(path.join(CONSOLE_DIST, 'index.html'))) {
    assert.equal(
      spawnSync('npm', ['run', 'console:build'], { stdio: 'inherit' }).status,
      0,
      'the console build failed',
    );
  }
  const t = await startTestApp({
    env: {
      OIDC_ISSUER: 'https://idp.example.test',
      OIDC_CLIENT_ID: 'console',
      OIDC_CLIENT_SECRET: 'secret-0123456789',
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    // Imported by a computed name: Lighthouse's own type declarations clash with Fastify's logger types.
    const lighthouseModule = 'lighthouse';
    const { default: lighthouse } = (await import(lighthouseModule)) as {
      default: (url: string, flags: Record<string, unknown>) => Promise<{ lhr: Lhr } | undefined>;
    };
    const result = await lighthouse(`http://127.0.0.1:${port}/console/`, {
      port: chrome.port,
      onlyCategories: ['accessibility'],
      logLevel: 'error',
      output: 'json',
    });
    const lhr = result!.lhr;
    const failing = Object.values(lhr.audits)
      .filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary')
      .map((a) => a.id);
    assert.ok(lhr.finalDisplayedUrl.endsWith('/console/'), lhr.finalDisplayedUrl);
    // The audit saw the sign-in form (not the moment before it renders): its labels were checked.
    assert.equal(lhr.audits.label.scoreDisplayMode, 'binary');
    assert.equal(lhr.categories.accessibility.score, 1, `failing audits: ${failing.join(', ')}`);
  } finally {
    await chrome.kill();
  }
});
