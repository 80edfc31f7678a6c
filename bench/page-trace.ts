// node bench/page-trace.ts URL [--runs 3 --cpu 4 --width 412 --height 823]
// A Chromium performance trace of one page load (playwright-core, Debian's Chromium) under a CPU
// slowdown like Lighthouse's mobile run, reduced to what total blocking time is made of: the main
// thread's tasks of 50 ms or more, each with the kinds of work inside it, and the main thread's total.
// Durations are observed on this host (load matters); compare old and new back to back.
import { chromium } from 'playwright-core';
import { CHROMIUM } from '../test/e2e/browser.ts';
import { num, parseArgs } from './lib/args.ts';

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  cat: string;
  args?: Record<string, unknown>;
}

const KINDS: Record<string, string> = {
  EvaluateScript: 'script',
  'v8.compile': 'compile',
  'v8.compileModule': 'compile',
  'v8.evaluateModule': 'script',
  FunctionCall: 'script',
  TimerFire: 'script',
  EventDispatch: 'script',
  FireAnimationFrame: 'script',
  'V8.GCScavenger': 'gc',
  MajorGC: 'gc',
  MinorGC: 'gc',
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  ParseHTML: 'parseHTML',
  ParseAuthorStyleSheet: 'parseCSS',
  Paint: 'paint',
  PrePaint: 'paint',
};

export async function traceLoad(url: string, cpu = 4, size = { width: 412, height: 823 }) {
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
  try {
    const context = await browser.newContext({
      viewport: size,
      deviceScaleFactor: 1.75,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
    const events: TraceEvent[] = [];
    cdp.on('Tracing.dataCollected', (e) => {
      events.push(...(e.value as unknown as TraceEvent[]));
    });
    const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
    await cdp.send('Tracing.start', {
      categories: 'devtools.timeline,v8,v8.execute,disabled-by-default-devtools.timeline',
      transferMode: 'ReportEvents',
    });
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto(url, { waitUntil: 'load' });
    // A plain wait: polling from the test would put its own scripts on the page's main thread.
    await page.waitForTimeout(5000);
    const painted = await page.evaluate(() => performance.getEntriesByName('bbo:times-painted')[0]?.startTime ?? null);
    const { profile } = (await cdp.send('Profiler.stop')) as {
      profile: {
        nodes: Array<{
          id: number;
          callFrame: { functionName: string; url: string; lineNumber: number };
          children?: number[];
        }>;
        samples: number[];
        timeDeltas: number[];
      };
    };
    const self = new Map<number, number>();
    profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
    const byFn = new Map<string, number>();
    for (const n of profile.nodes) {
      const f = n.callFrame;
      const k = `${f.functionName || '(anon)'} ${f.url.replace(/^https?:\/\/[^/]+/, '')}:${f.lineNumber}`;
      byFn.set(k, (byFn.get(k) ?? 0) + (self.get(n.id) ?? 0));
    }
    const topFunctions = [...byFn]
      .filter(([k]) => !k.startsWith('(idle)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, 14)
      .map(([k, v]) => `${Math.round(v / 1000)} ms ${k}`);
    await cdp.send('Tracing.end');
    await done;
    // The renderer's main thread: the thread named CrRendererMain of the page's process.
    const path = new URL(url).pathname;
    const parse = events.find(
      (e) =>
        e.name === 'ParseHTML' && String((e.args?.beginData as { url?: string } | undefined)?.url ?? '').includes(path),
    );
    const main = parse && { pid: parse.pid, tid: parse.tid };
    const onMain = events.filter(
      (e) => main && e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur !== undefined,
    );
    const tasks = onMain.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');
    const start =
      events.find((e) => e.name === 'navigationStart' || e.name === 'TracingStartedInBrowser')?.ts ?? tasks[0]?.ts ?? 0;
    const long = tasks
      .filter((t) => t.dur! >= 50_000)
      .map((t) => {
        const inside = onMain.filter((e) => e !== t && e.ts >= t.ts && e.ts + e.dur! <= t.ts + t.dur!);
        const by: Record<string, number> = {};
        for (const e of inside) {
          const k = KINDS[e.name];
          if (
            k &&
            !inside.some(
              (o) =>
                o !== e && KINDS[o.name] === k && o.ts <= e.ts && o.ts + o.dur! >= e.ts + e.dur! && o.dur! > e.dur!,
            )
          )
            by[k] = (by[k] ?? 0) + e.dur! / 1000;
        }
        const urls = [
          ...new Set(inside.map((e) => (e.args?.data as { url?: string } | undefined)?.url).filter(Boolean)),
        ].map((u) => String(u).replace(/^https?:\/\/[^/]+/, ''));
        // The direct children by name (what the task was, when the kinds above do not say).
        const direct = inside.filter(
          (e) => !inside.some((o) => o !== e && o.ts <= e.ts && o.ts + o.dur! >= e.ts + e.dur! && o.dur! > e.dur!),
        );
        const names: Record<string, number> = {};
        for (const e of direct) names[e.name] = (names[e.name] ?? 0) + e.dur! / 1000;
        const all: Record<string, number> = {};
        for (const e of inside) all[e.name] = (all[e.name] ?? 0) + e.dur! / 1000;
        const nested = Object.entries(all)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 12)
          .map(([k, v]) => `${k} ${Math.round(v)}`);
        const top = Object.entries(names)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 4)
          .map(([k, v]) => `${k} ${Math.round(v)}`);
        return {
          atMs: Math.round((t.ts - start) / 1000),
          ms: Math.round(t.dur! / 1000),
          cpuMs: Math.round((t.tdur ?? 0) / 1000),
          top,
          nested,
          by: Object.fromEntries(Object.entries(by).map(([k, v]) => [k, Math.round(v)])),
          urls,
        };
      });
    const busyMs = Math.round(tasks.reduce((n, t) => n + t.dur!, 0) / 1000);
    // Thread time (CPU the main thread used, whatever the host's load): the figure to compare.
    const cpuMs = Math.round(tasks.reduce((n, t) => n + (t.tdur ?? 0), 0) / 1000);
    // The page's own script: thread time in the outermost script entries (module evaluation, callbacks,
    // microtasks, timers, idle callbacks, animation frames), nested ones not counted twice.
    const ENTRIES = new Set([
      'v8.evaluateModule',
      'EvaluateScript',
      'FunctionCall',
      'RunMicrotasks',
      'TimerFire',
      'FireIdleCallback',
      'FireAnimationFrame',
      'EventDispatch',
    ]);
    const entries = onMain.filter((e) => ENTRIES.has(e.name));
    const outer = entries.filter(
      (e) =>
        !entries.some(
          (o) => o !== e && o.ts <= e.ts && o.ts + o.dur! >= e.ts + e.dur! && (o.dur! > e.dur! || o.ts < e.ts),
        ),
    );
    const scriptCpuMs = Math.round(outer.reduce((n, e) => n + (e.tdur ?? 0), 0) / 1000);
    const longCpu = tasks.filter((t) => (t.tdur ?? 0) >= 50_000).map((t) => Math.round(t.tdur! / 1000));
    const blockingMs = long.reduce((n, t) => n + Math.max(0, t.ms - 50), 0);
    return {
      url,
      cpu,
      busyMs,
      cpuMs,
      scriptCpuMs,
      longCpu,
      blockingCpuMs: longCpu.reduce((n, t) => n + t - 50, 0),
      blockingMs,
      painted: painted === null ? null : Math.round(painted),
      long,
      topFunctions,
    };
  } finally {
    await browser.close();
  }
}

if (import.meta.main) {
  const args = parseArgs(process.argv.slice(3));
  const url = process.argv[2];
  for (let i = 0; i < num(args, 'runs', 1); i++) {
    const r = await traceLoad(url, num(args, 'cpu', 4), {
      width: num(args, 'width', 412),
      height: num(args, 'height', 823),
    });
    console.log(JSON.stringify(r));
  }
}
