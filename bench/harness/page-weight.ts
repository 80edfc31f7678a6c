// The booking page's weight (issue 26: at most 60 kB of JavaScript, gzipped): every script the
// build emits (the entry, and the proof-of-work workers it starts), measured from booking-page/dist
// as the server sends them (gzip level 9 and brotli, as a browser that accepts them receives them).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawnSync } from 'node:child_process';

export const PAGE_JS_BUDGET_GZIP = 60 * 1024;
const DIST = path.resolve('booking-page/dist');

export interface PageWeight {
  files: Array<{ file: string; bytes: number; gzip: number; brotli: number }>;
  jsGzip: number;
  jsBrotli: number;
  cssGzip: number;
  budgetGzip: number;
  withinBudget: boolean;
}

export function measurePageWeight(dist = DIST): PageWeight {
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    const built = spawnSync('npm', ['run', 'booking-page:build'], { stdio: 'inherit' });
    if (built.status !== 0) throw new Error('the booking page build failed');
  }
  const assets = path.join(dist, 'assets');
  const files = fs
    .readdirSync(assets)
    .filter((f) => /\.(js|css)$/.test(f))
    .sort()
    .map((f) => {
      const body = fs.readFileSync(path.join(assets, f));
      return {
        file: f,
        bytes: body.length,
        gzip: zlib.gzipSync(body, { level: 9 }).length,
        brotli: zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
      };
    });
  const sum = (ext: string, k: 'gzip' | 'brotli') =>
    files.filter((f) => f.file.endsWith(ext)).reduce((a, f) => a + f[k], 0);
  const jsGzip = sum('.js', 'gzip');
  return {
    files,
    jsGzip,
    jsBrotli: sum('.js', 'brotli'),
    cssGzip: sum('.css', 'gzip'),
    budgetGzip: PAGE_JS_BUDGET_GZIP,
    withinBudget: jsGzip <= PAGE_JS_BUDGET_GZIP,
  };
}

/** Measures and prints the page's weight; returns it for the results file. */
export function reportPageWeight(): PageWeight | null {
  try {
    const w = measurePageWeight();
    const kb = (n: number) => `${(n / 1024).toFixed(1)} kB`;
    console.log(
      `booking page JavaScript: ${kb(w.jsGzip)} gzipped (${kb(w.jsBrotli)} brotli), budget ${kb(w.budgetGzip)}: ${w.withinBudget ? 'within' : 'OVER'}; CSS ${kb(w.cssGzip)} gzipped`,
    );
    for (const f of w.files) console.log(`  ${f.file}: ${kb(f.bytes)} raw, ${kb(f.gzip)} gzip, ${kb(f.brotli)} brotli`);
    return w;
  } catch (err) {
    console.log(`booking page weight: not measured (${(err as Error).message})`);
    return null;
  }
}
