// A webhook worker process (`node src/worker.ts`, what `npm run worker` runs) against a given
// database: spawned, waited on until it logs that it started, and stopped by signal.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { AUTH_SECRET, NODE_BIN, PREPARED_STATEMENTS, REPO_ROOT, sleep } from './env.ts';

export class WorkerProcess {
  readonly name: string;
  private readonly databaseUrl: string;
  private readonly env: Record<string, string>;
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  output: string[] = [];

  constructor(databaseUrl: string, env: Record<string, string> = {}, name = 'worker') {
    this.databaseUrl = databaseUrl;
    this.env = env;
    this.name = name;
  }

  static async start(databaseUrl: string, env: Record<string, string> = {}, name?: string): Promise<WorkerProcess> {
    const w = new WorkerProcess(databaseUrl, env, name);
    await w.spawn();
    return w;
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  async spawn(timeoutMs = 60_000): Promise<void> {
    this.output = [];
    const child = spawn(NODE_BIN, [path.join(REPO_ROOT, 'src/worker.ts')], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: this.databaseUrl,
        AUTH_SECRET,
        LOG_LEVEL: 'info',
        DB_POOL_SIZE: '4',
        DB_PREPARED_STATEMENTS: String(PREPARED_STATEMENTS),
        ...this.env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    const keep = (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) if (line.trim()) this.output.push(line.slice(0, 500));
      if (this.output.length > 200) this.output.splice(0, this.output.length - 200);
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    const deadline = Date.now() + timeoutMs;
    while (!this.output.some((l) => l.includes('webhook worker started'))) {
      if (!this.running) throw new Error(`${this.name} exited during start:\n${this.output.slice(-20).join('\n')}`);
      if (Date.now() > deadline) throw new Error(`${this.name} did not start in ${timeoutMs} ms`);
      await sleep(50);
    }
  }

  /** kill -9. */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.child!.kill('SIGKILL');
    await this.exited;
  }

  async terminate(): Promise<void> {
    if (!this.running) return;
    this.child!.kill('SIGTERM');
    await Promise.race([this.exited, sleep(25_000)]);
    await this.kill();
  }
}
