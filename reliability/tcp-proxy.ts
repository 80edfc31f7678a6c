// A small TCP proxy between the service and PostgreSQL, so a proof can take the database away
// and give it back: cut() resets every open connection and refuses new ones (the database is
// gone); restore() accepts again on the same port. stall() is the nastier partition: nothing is
// refused or reset, bytes simply stop flowing (and new connections hang) until resume().
import net from 'node:net';

export class TcpProxy {
  private readonly targetHost: string;
  private readonly targetPort: number;
  private server: net.Server | null = null;
  private readonly sockets = new Set<net.Socket>();
  private stalled = false;
  private pending: net.Socket[] = [];
  port = 0;
  connections = 0;

  constructor(targetHost: string, targetPort: number) {
    this.targetHost = targetHost;
    this.targetPort = targetPort;
  }

  async start(port = 0): Promise<number> {
    const server = net.createServer((client) => {
      this.connections++;
      if (this.stalled) {
        client.pause();
        client.on('error', () => {});
        this.pending.push(client);
        return;
      }
      this.pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.port = (server.address() as net.AddressInfo).port;
    return this.port;
  }

  private pipe(client: net.Socket) {
    // A directory as the host is PostgreSQL's Unix socket there (the embedded engine listens only on one).
    const upstream = this.targetHost.startsWith('/')
      ? net.connect(`${this.targetHost}/.s.PGSQL.${this.targetPort}`)
      : net.connect(this.targetPort, this.targetHost);
    for (const s of [client, upstream]) {
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
      s.on('error', () => {});
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  }

  /** A partition: connections stay open but carry nothing; new ones are accepted and left hanging. */
  stall() {
    this.stalled = true;
    for (const s of this.sockets) s.pause();
  }

  resume() {
    this.stalled = false;
    for (const s of this.sockets) s.resume();
    const waiting = this.pending;
    this.pending = [];
    for (const c of waiting) {
      if (c.destroyed) continue;
      this.pipe(c);
      c.resume();
    }
  }

  /** The database goes away: open connections are reset, new ones refused. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = null;
    // A reset where there is TCP; a Unix socket (the upstream of the embedded engine) cannot be reset, only closed.
    for (const s of this.sockets) s.remoteAddress ? s.resetAndDestroy() : s.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The database comes back on the same address. */
  async restore(): Promise<void> {
    if (!this.server) await this.start(this.port);
  }

  async stop(): Promise<void> {
    for (const c of this.pending) c.destroy();
    this.pending = [];
    await this.cut();
  }
}
