// Real server processes (`node src/server.ts`), as deployed: spawned on a free port against a
// given database, waited on until /readyz answers, and stopped by signal (SIGTERM or SIGKILL).
import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import {
  ADMIN_TOKEN,
  AUTH_SECRET,
  NODE_BIN,
  PREPARED_STATEMENTS,
  REPO_ROOT,
  SERVER_ENTRY,
  SERVER_START_MS,
  sleep,
} from './env.ts';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerOptions {
  databaseUrl: string;
  port?: number;
  env?: Record<string, string>;
  name?: string;
}

export class ServerProcess {
  readonly name: string;
  readonly port: number;
  readonly baseUrl: string;
  private readonly options: ServerOptions;
  private child: ChildProcess | null = null;
  private exited: Promise<number | null> = Promise.resolve(null);
  /** Last lines of stderr/stdout, shown when the process misbehaves. */
  output: string[] = [];

  constructor(options: ServerOptions & { port: number }) {
    this.options = options;
    this.port = options.port;
    this.name = options.name ?? `server:${options.port}`;
    this.baseUrl = `http://127.0.0.1:${options.port}`;
  }

  static async start(options: ServerOptions): Promise<ServerProcess> {
    const server = new ServerProcess({ ...options, port: options.port ?? (await freePort()) });
    await server.spawn();
    return server;
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get running(): boolean {
    return this.child !== null && this.child.exitCode === null && this.child.signalCode === null;
  }

  async spawn(timeoutMs = SERVER_START_MS): Promise<void> {
    const child = spawn(NODE_BIN, [SERVER_ENTRY], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        DATABASE_URL: this.options.databaseUrl,
        PORT: String(this.port),
        HOST: '127.0.0.1',
        AUTH_SECRET,
        ADMIN_TOKEN,
        LOG_LEVEL: 'warn',
        DB_POOL_SIZE: '8',
        DB_PREPARED_STATEMENTS: String(PREPARED_STATEMENTS),
        ...this.options.env,
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
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    await this.waitReady(timeoutMs);
  }

  async waitReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`${this.name} exited during start:\n${this.output.slice(-20).join('\n')}`);
      try {
        const res = await fetch(`${this.baseUrl}/readyz`, { signal: AbortSignal.timeout(2_000) });
        if (res.status === 200) return;
      } catch {
        /* not listening yet */
      }
      await sleep(100);
    }
    throw new Error(`${this.name} did not become ready in ${timeoutMs} ms:\n${this.output.slice(-20).join('\n')}`);
  }

  /** kill -9: no chance to finish anything. */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.child!.kill('SIGKILL');
    await this.exited;
  }

  /** SIGTERM: graceful shutdown; resolves with the exit code. */
  async terminate(timeoutMs = 25_000): Promise<number | null> {
    if (!this.running) return this.child?.exitCode ?? null;
    this.child!.kill('SIGTERM');
    const timer = sleep(timeoutMs).then(() => 'timeout' as const);
    const outcome = await Promise.race([this.exited, timer]);
    if (outcome === 'timeout') {
      this.child!.kill('SIGKILL');
      await this.exited;
      throw new Error(`${this.name} did not exit within ${timeoutMs} ms of SIGTERM`);
    }
    return outcome;
  }

  async restart(): Promise<void> {
    await this.kill();
    await this.spawn();
  }
}

/** Stops every server a proof started, whatever state they are in. */
export async function stopAll(servers: Array<ServerProcess | null | undefined>): Promise<void> {
  await Promise.all(servers.map((s) => s?.kill().catch(() => {})));
}
