// A real browser for the console's end-to-end tests: playwright-core driving Debian's Chromium
// (/usr/bin/chromium, or CHROMIUM_PATH), with the flags this closed network needs and a fresh profile.
import fs from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function chromiumAvailable(): boolean {
  return fs.existsSync(CHROMIUM);
}

// launch() gives Chromium a fresh temporary --user-data-dir of its own (and refuses one passed as an
// argument), removed when the browser closes; each newContext() is a further isolated profile.
export async function launchBrowser(): Promise<{ browser: Browser; close(): Promise<void> }> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
    },
  };
}
