// The service under test as a child process (the real entry, src/server.ts), and a sampler of its
// resident memory from /proc. Also starts the bare Fastify route that gives the HTTP ceiling.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { freePort } from '../../reliability/server-process.ts';

export { freePort };

/** `npm start`'s node arguments, flags' values included (everything between `node` and the script). */
export function npmStartFlags(): string[] {
  return (JSON.parse(fs.readFileSync('package.json', 'utf8')).scripts.start as string).split(/\s+/).slice(1, -1);
}

export interface Child {
  proc: ChildProcess;
  pid: number;
  url: string;
  stop(): Promise<void>;
}

async function waitReady(url: string, proc: ChildProcess, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`server exited with code ${proc.exitCode} before it was ready`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server not ready at ${url} after ${timeoutMs} ms`);
}

export async function startChild(
  script: string,
  env: Record<string, string>,
  opts: { nodeArgs?: string[]; readyPath: string },
): Promise<Child> {
  const port = await freePort();
  const proc = spawn(process.execPath, [...(opts.nodeArgs ?? []), script], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  // Generous: the server applies any new migration at start, and an index over millions of rows takes a while.
  await waitReady(url + opts.readyPath, proc, 900_000);
  return {
    proc,
    pid: proc.pid!,
    url,
    async stop() {
      if (proc.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 25_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** kB figures from /proc/<pid>/status: VmRSS now and VmHWM, the peak since the process started. */
export function memoryOf(pid: number): { rssKb: number; hwmKb: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
    return { rssKb: field('VmRSS'), hwmKb: field('VmHWM') };
  } catch {
    return null;
  }
}

/** Samples VmRSS every 100 ms; peak() is the highest seen since the last reset(). */
export class RssSampler {
  private peakKb = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly pid: number;
  constructor(pid: number) {
    this.pid = pid;
    this.timer = setInterval(() => this.sample(), 100);
    this.timer.unref();
  }
  sample() {
    const m = memoryOf(this.pid);
    if (m && m.rssKb > this.peakKb) this.peakKb = m.rssKb;
  }
  reset() {
    this.peakKb = 0;
    this.sample();
  }
  peakMb(): number {
    this.sample();
    return Math.round(this.peakKb / 102.4) / 10;
  }
  stop() {
    clearInterval(this.timer);
  }
}
