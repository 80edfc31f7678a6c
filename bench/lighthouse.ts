// node bench/lighthouse.ts [-- --runs 1 --label NAME --only booking-mobile,booking-desktop,console-mobile]   (npm run bench:lighthouse; also run by npm run bench: --only lighthouse)
// Lighthouse (from npm) in Debian's Chromium against the demo shop as a newcomer starts it (issue 41):
// `npm run demo` on a fresh embedded DATA_DIR, the service as `npm start` starts it, then the booking
// page on mobile (Lighthouse's default: a Moto G Power screen, 4× CPU slowdown, simulated slow 4G) and
// desktop, and the console on mobile. Reported: the four category scores, cumulative layout shift,
// total blocking time, the back/forward cache audit and the page's own mark `bbo:times-painted`
// (booking-page/src/Picker.tsx) as Lighthouse's user timings saw it (observed, not simulated).
// Targets: performance ≥ 95, the others 100, CLS < 0.1, TBT < 200 ms, times painted < 2.5 s.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import * as chromeLauncher from 'chrome-launcher';
import { num, parseArgs, str } from './lib/args.ts';
import { npmStartFlags, startChild } from './harness/server.ts';
import { writeJson } from './harness/report.ts';
import { CHROMIUM, chromiumAvailable } from '../test/e2e/browser.ts';

const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

export interface LighthouseRun {
  target: 'booking page' | 'console';
  form: 'mobile' | 'desktop';
  url: string;
  scores: Record<(typeof CATEGORIES)[number], number | null>;
  cls: number | null;
  tbtMs: number | null;
  lcpMs: number | null;
  bfcache: string;
  timesPaintedMs: number | null;
  failing: string[];
  /** Long tasks as observed (not simulated): what total blocking time is made of. */
  longTasks: Array<{ url: string; startMs: number; durationMs: number }>;
  /** Main-thread time by kind (observed), and per script: evaluation, and parse/compile. */
  mainThreadMs: Record<string, number>;
  scripts: Array<{ url: string; totalMs: number; scriptingMs: number; parseMs: number }>;
  /** Bytes of script the page downloaded (transfer size, compressed) and how many files. */
  scriptBytes: number;
  scriptFiles: number;
}

export interface LighthouseReport {
  lighthouse: string;
  chromium: string;
  loadPerCoreBefore: number;
  runs: LighthouseRun[];
}

type Lhr = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

function summarise(lhr: Lhr, target: LighthouseRun['target'], form: LighthouseRun['form']): LighthouseRun {
  const audit = (id: string) => lhr.audits[id];
  const marks =
    (audit('user-timings')?.details as { items?: Array<{ name: string; startTime: number }> } | undefined)?.items ?? [];
  const painted = marks.find((m) => m.name === 'bbo:times-painted');
  const scores = Object.fromEntries(
    CATEGORIES.map((c) => [c, lhr.categories[c]?.score == null ? null : Math.round(lhr.categories[c].score! * 100)]),
  ) as LighthouseRun['scores'];
  // Audits that count towards a category and did not pass: what to look at first.
  const failing = CATEGORIES.flatMap((c) =>
    (lhr.categories[c]?.auditRefs ?? [])
      .filter((r) => r.weight > 0 && audit(r.id)?.score !== null && (audit(r.id)?.score ?? 1) < 0.9)
      .map((r) => `${c}:${r.id}`),
  );
  const bf = audit('bf-cache');
  type Items = Array<Record<string, unknown>>;
  const items = (id: string) => (audit(id)?.details as { items?: Items } | undefined)?.items ?? [];
  const ms = (v: unknown) => Math.round(Number(v ?? 0));
  const short = (u: unknown) => String(u ?? '').replace(/^https?:\/\/[^/]+/, '');
  const scriptRequests = items('network-requests').filter((r) => r.resourceType === 'Script');
  return {
    target,
    form,
    url: lhr.finalDisplayedUrl,
    scores,
    cls: audit('cumulative-layout-shift')?.numericValue ?? null,
    tbtMs:
      audit('total-blocking-time')?.numericValue == null
        ? null
        : Math.round(audit('total-blocking-time').numericValue!),
    lcpMs:
      audit('largest-contentful-paint')?.numericValue == null
        ? null
        : Math.round(audit('largest-contentful-paint').numericValue!),
    bfcache: bf ? (bf.score === 1 ? 'restored' : `refused: ${bf.displayValue ?? bf.title}`) : 'not audited',
    timesPaintedMs: painted ? Math.round(painted.startTime) : null,
    failing,
    longTasks: items('long-tasks').map((t) => ({
      url: short(t.url),
      startMs: ms(t.startTime),
      durationMs: ms(t.duration),
    })),
    mainThreadMs: Object.fromEntries(items('mainthread-work-breakdown').map((g) => [String(g.group), ms(g.duration)])),
    scripts: items('bootup-time').map((b) => ({
      url: short(b.url),
      totalMs: ms(b.total),
      scriptingMs: ms(b.scripting),
      parseMs: ms(b.scriptParseCompile),
    })),
    scriptBytes: scriptRequests.reduce((n, r) => n + Number(r.transferSize ?? 0), 0),
    scriptFiles: scriptRequests.length,
  };
}

export type Which = 'booking-mobile' | 'booking-desktop' | 'console-mobile';
const ALL: Which[] = ['booking-mobile', 'booking-desktop', 'console-mobile'];

export async function measureLighthouse(runs = 1, which: Which[] = ALL): Promise<LighthouseReport | null> {
  if (!chromiumAvailable()) {
    console.log('lighthouse: Chromium is not installed (apt-get install -y chromium): not measured');
    return null;
  }
  const loadPerCoreBefore = Math.round((os.loadavg()[0] / os.cpus().length) * 10) / 10;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bbo-bench-lighthouse-'));
  fs.chmodSync(dataDir, 0o755); // PostgreSQL runs as the system user postgres when we are root
  const env = { DATABASE_URL: '', DATA_DIR: dataDir, AUTH_SECRET: randomBytes(32).toString('hex'), LOG_LEVEL: 'warn' };
  try {
    const seeded = spawnSync(process.execPath, ['scripts/demo.ts'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
    const slug = /\/book\/([a-z0-9-]+)/.exec(seeded.stdout ?? '')?.[1];
    if (seeded.status !== 0 || !slug) throw new Error(`npm run demo failed: ${seeded.stderr}`);
    const server = await startChild('src/server.ts', env, { nodeArgs: npmStartFlags(), readyPath: '/readyz' });
    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
    const out: LighthouseRun[] = [];
    let version = '';
    try {
      const named: Record<Which, [LighthouseRun['target'], LighthouseRun['form'], string]> = {
        'booking-mobile': ['booking page', 'mobile', `${server.url}/book/${slug}`],
        'booking-desktop': ['booking page', 'desktop', `${server.url}/book/${slug}`],
        'console-mobile': ['console', 'mobile', `${server.url}/console/`],
      };
      const targets = which.map((w) => named[w]);
      // One warm-up load: the service's first search compiles its plans; a customer's is not the first.
      await fetch(`${server.url}/book/${slug}`).then((r) => r.text());
      for (const [target, form, url] of targets) {
        for (let i = 0; i < runs; i++) {
          const result = await lighthouse(
            url,
            { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] },
            form === 'desktop' ? desktopConfig : undefined,
          );
          if (!result) throw new Error(`lighthouse gave no result for ${url}`);
          version = result.lhr.lighthouseVersion;
          out.push(summarise(result.lhr, target, form));
        }
      }
    } finally {
      await chrome.kill();
      await server.stop();
    }
    const chromium = spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8' }).stdout?.trim() ?? 'unknown';
    return { lighthouse: version, chromium, loadPerCoreBefore, runs: out };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

export function describeLighthouse(r: LighthouseReport | null): string {
  if (!r) return 'Lighthouse: not measured (no Chromium)';
  const lines = [
    `Lighthouse ${r.lighthouse}, ${r.chromium}, the demo shop on the embedded engine (load ${r.loadPerCoreBefore}/core before):`,
  ];
  for (const x of r.runs) {
    const s = x.scores;
    lines.push(
      `  ${x.target}, ${x.form}: performance ${s.performance}, accessibility ${s.accessibility}, best practices ${s['best-practices']}, SEO ${s.seo}; ` +
        `CLS ${x.cls?.toFixed(3)}, TBT ${x.tbtMs} ms, LCP ${x.lcpMs} ms, bfcache ${x.bfcache}${x.timesPaintedMs !== null ? `, bbo:times-painted ${x.timesPaintedMs} ms` : ''}`,
    );
    if (x.failing.length) lines.push(`    below 0.9: ${x.failing.join(', ')}`);
    lines.push(
      `    script ${x.scriptFiles} files ${(x.scriptBytes / 1024).toFixed(1)} kB transferred; main thread ${Object.values(x.mainThreadMs).reduce((a, b) => a + b, 0)} ms ` +
        `(${Object.entries(x.mainThreadMs)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}); long tasks ${x.longTasks.length}: ` +
        x.longTasks.map((t) => `${t.durationMs} ms at ${t.startMs} (${t.url || 'page'})`).join(', '),
    );
  }
  return lines.join('\n');
}

if (import.meta.main) {
  const args = parseArgs();
  // --only booking-mobile,console-mobile: a subset (each round of an old/new comparison stays short).
  const only = str(args, 'only')
    ?.split(',')
    .filter((w): w is Which => (ALL as string[]).includes(w));
  const report = await measureLighthouse(num(args, 'runs', 1), only?.length ? only : ALL);
  console.log(describeLighthouse(report));
  const dir = path.resolve(
    'bench/results',
    `${new Date().toISOString().slice(0, 10)}-${str(args, 'label') ?? 'lighthouse'}`,
  );
  fs.mkdirSync(dir, { recursive: true });
  writeJson(path.join(dir, 'lighthouse.json'), report);
}
