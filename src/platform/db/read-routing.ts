// Reads from a streaming replica when that is safe, from the primary otherwise (GitLab's database
// load balancing, docs/decisions/pooler-and-replicas.md):
// - after a write, the primary's WAL position is remembered for the caller and the store
//   (write-positions.ts) and sent back in X-Read-After, which a client may send on later reads;
// - a read goes to the replica only when the replica's replay position, polled every pollMs and
//   only ever a lower bound of the real one, is at or past every position the read must see;
// - a replica that does not answer, is not a standby, or lags more than maxLagMs is skipped, and
//   used again once it answers (after a short hold-down);
// - a statement the replica fails to run (gone, or cancelled by a recovery conflict) runs again on
//   the primary: the client never sees the replica's trouble;
// - across a failover the server behind DATABASE_READ_URL changes (HAProxy's /replica check: the old
//   replica was promoted, the old primary rejoins after pg_rewind on a new timeline). A replay
//   position is a lower bound for one server only, so it is forgotten when the replica is lost and
//   when the poll answers from another server; a position remembered from the old timeline then only
//   keeps its reads on the primary (never waits) until the stickiness ends or the replica passes it.
import type { Database, QueryOptions } from './port.ts';
import { isRetryable, isUnavailable } from './pg-errors.ts';
import { maxLsn, parseLsn } from './wal-position.ts';
import type { WritePositions } from './write-positions.ts';

export const READ_AFTER_HEADER = 'x-read-after';

/** After the replica failed, it is used again only once it has answered for this long (a request's statements never go primary, then replica). */
const HOLD_DOWN_MS = 1_000;
/** A position no replica reaches: what a write whose position is unknown requires. */
const PIN_TO_PRIMARY = 0xffffffffffffffffn;

export interface ReplicaState {
  up: boolean;
  /** Replay position at the last successful poll (a lower bound of the real one). */
  replay: bigint | null;
  lagMs: number | null;
}

export interface ReadRoutingStats {
  replicaUp: boolean;
  replicaLagMs: number | null;
  /** Requests whose reads were sent to the replica / kept on the primary, since start. */
  replicaReads: number;
  primaryReads: number;
  /** Why reads stayed on the primary. */
  primaryBecause: { down: number; lagging: number; behindWrite: number; positionsUnknown: number };
  /** Statements the replica failed that ran again on the primary. */
  fallbacks: number;
}

export interface ReadRouterOptions {
  primary: Database;
  replica: Database;
  positions: WritePositions;
  maxLagMs: number;
  pollMs: number;
  onStateChange?: (state: ReplicaState, reason: string) => void;
  now?: () => number;
}

const POLL_SQL = `SELECT pg_is_in_recovery() AS standby,
  coalesce(host(inet_server_addr()), 'local') || ':' || coalesce(inet_server_port(), 0) || '@' || pg_postmaster_start_time() AS server,
  pg_last_wal_replay_lsn()::text AS replay,
  CASE WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() THEN 0
       ELSE (extract(epoch FROM clock_timestamp() - pg_last_xact_replay_timestamp()) * 1000)::float8 END AS lag_ms`;

export class ReadRouter {
  readonly state: ReplicaState = { up: false, replay: null, lagMs: null };
  /** The replica, with the primary behind it for any statement the replica cannot run. */
  readonly replicaReads: Database;
  private readonly o: ReadRouterOptions;
  private readonly now: () => number;
  private downSince = 0;
  /** Which server the last poll reached (address, port, start time): its replay position is only valid for it. */
  private server: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private readonly counts: ReadRoutingStats = {
    replicaUp: false,
    replicaLagMs: null,
    replicaReads: 0,
    primaryReads: 0,
    primaryBecause: { down: 0, lagging: 0, behindWrite: 0, positionsUnknown: 0 },
    fallbacks: 0,
  };

  constructor(options: ReadRouterOptions) {
    this.o = options;
    this.now = options.now ?? Date.now;
    this.downSince = this.now() - HOLD_DOWN_MS;
    const router = this;
    const { primary, replica } = options;
    this.replicaReads = {
      engine: 'pg',
      async query(sql: string, params?: readonly unknown[], queryOptions?: QueryOptions) {
        if (!router.state.up) return primary.query(sql, params, queryOptions);
        try {
          return await replica.query(sql, params, queryOptions);
        } catch (err) {
          // Gone: mark it down. Cancelled by a recovery conflict (40001): just this statement.
          if (!isUnavailable(err) && !isRetryable(err)) throw err;
          if (isUnavailable(err)) router.markDown('statement failed: ' + (err as Error).message);
          router.counts.fallbacks++;
          return primary.query(sql, params, queryOptions);
        }
      },
      // Reads never open transactions here; anything that does belongs on the primary.
      transaction: (fn) => primary.transaction(fn),
      exec: (sql) => primary.exec(sql),
      ping: () => replica.ping(),
      close: async () => {},
    } as Database;
  }

  /** Starts polling the replica; the first poll is awaited so a healthy replica is used from the first request. */
  async start(): Promise<this> {
    await this.poll();
    this.timer = setInterval(() => void this.poll(), this.o.pollMs);
    this.timer.unref();
    return this;
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.polling;
  }

  /** Asks the replica where it is. One poll at a time: a slow replica does not pile up checks. */
  poll(): Promise<void> {
    this.polling ??= this.pollOnce().finally(() => {
      this.polling = null;
    });
    return this.polling;
  }

  private async pollOnce(): Promise<void> {
    try {
      const { rows } = await this.o.replica.query<{
        standby: boolean;
        server?: string;
        replay: string | null;
        lag_ms: number | null;
      }>(POLL_SQL);
      const row = rows[0];
      const replay = parseLsn(row.replay);
      if (!row.standby || replay === null) return this.markDown('not a standby (pg_last_wal_replay_lsn() is null)');
      const server = row.server ?? null;
      // Another server answers now (a failover moved the replica): its own position, not the larger one.
      if (server !== this.server) this.state.replay = null;
      this.server = server;
      this.state.replay = replay > (this.state.replay ?? 0n) ? replay : this.state.replay;
      this.state.lagMs = row.lag_ms === null ? null : Math.max(0, Number(row.lag_ms));
      if (!this.state.up && this.now() - this.downSince >= HOLD_DOWN_MS) {
        this.state.up = true;
        this.o.onStateChange?.(this.state, 'answering');
      }
    } catch (err) {
      this.markDown('poll failed: ' + (err as Error).message);
    }
  }

  private markDown(reason: string): void {
    this.downSince = this.now();
    // Whatever answers next may be another server (after a failover): start its position afresh.
    this.state.replay = null;
    if (!this.state.up) return;
    this.state.up = false;
    this.o.onStateChange?.(this.state, reason);
  }

  /**
   * The handle one request reads through: the replica when it has replayed past every position
   * the read must see (the client's X-Read-After, and the last write of each key within the
   * stickiness), the primary otherwise. Decided once per request.
   */
  async readsFor(keys: readonly string[], clientPosition: bigint | null): Promise<Database> {
    const c = this.counts.primaryBecause;
    const choose = (replica: boolean, reason?: keyof typeof c) => {
      if (replica) this.counts.replicaReads++;
      else {
        this.counts.primaryReads++;
        c[reason!]++;
      }
      return replica ? this.replicaReads : this.o.primary;
    };
    if (!this.state.up) return choose(false, 'down');
    if (this.state.lagMs === null || this.state.lagMs > this.o.maxLagMs) return choose(false, 'lagging');
    const known = await this.o.positions.required(keys);
    if (known === 'unknown') return choose(false, 'positionsUnknown');
    const required = maxLsn(known, clientPosition);
    if (required !== null && (this.state.replay === null || this.state.replay < required))
      return choose(false, 'behindWrite');
    return choose(true);
  }

  /**
   * Called once a write has committed: the primary's insert position now is at or past the end of
   * its commit record, so a replica that has replayed to it shows the write. Remembered for keys.
   * If the position cannot be read, keys are pinned to the primary for the stickiness instead
   * (null is returned): a write whose position is unknown is treated as newer than any replica.
   */
  async afterWrite(keys: readonly string[]): Promise<bigint | null> {
    let lsn: bigint | null = null;
    try {
      const { rows } = await this.o.primary.query<{ lsn: string }>('SELECT pg_current_wal_insert_lsn()::text AS lsn');
      lsn = parseLsn(rows[0].lsn);
    } catch {
      lsn = null;
    }
    await this.o.positions.remember(keys, lsn ?? PIN_TO_PRIMARY);
    return lsn;
  }

  stats(): ReadRoutingStats {
    return {
      ...this.counts,
      primaryBecause: { ...this.counts.primaryBecause },
      replicaUp: this.state.up,
      replicaLagMs: this.state.lagMs,
    };
  }
}
