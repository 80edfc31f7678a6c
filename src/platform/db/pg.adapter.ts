// PostgreSQL server through node-postgres. Many processes may share one database.
import pg from 'pg';
import type { Database, QueryOptions, QueryResult, Row } from './port.ts';
import { valueParsers } from './value-parsers.ts';
import { isUnavailable, unavailableReason, type UnavailableReason } from './pg-errors.ts';

const types = {
  getTypeParser(oid: number, format?: string) {
    const parser = valueParsers[oid];
    if (parser && format !== 'binary') return parser;
    return pg.types.getTypeParser(oid, format as any);
  },
};

// Every session: UTC (the value parsers read that shape), and planner settings for an OLTP service
// whose data sits in memory or on SSD: random reads cost about as much as sequential ones (the default
// of 4 makes the planner read whole tables where an index walk is cheaper), and no parallel workers
// (a parallel plan takes the cores other requests need). See docs/performance.md.
// No JIT: the availability statement's row estimates (generate_series) put it over jit_above_cost,
// and compiling it took seconds on this machine for a query that runs in milliseconds.
export const SESSION_OPTIONS =
  '-c TimeZone=UTC -c random_page_cost=1.1 -c max_parallel_workers_per_gather=0 -c jit=off';

// Parameterised data statements are sent as named prepared statements: each connection parses (and,
// once PostgreSQL's plan cache judges it safe, plans) a statement once, and later executions send only
// the name and the values. A statement marked planPerCall goes unnamed, so it is planned for its
// values every time (a generic plan of a text search ran 85 ms where a plan for the pattern ran 11). Names are given per distinct text, up to a bound, so generated SQL with many
// shapes cannot grow the server's per-connection cache without limit; past it, statements go unnamed.
const MAX_NAMED = 1_000;
const names = new Map<string, string>();
const PREPARABLE = /^\s*(SELECT|INSERT|UPDATE|DELETE|WITH)\b/i;

function named(text: string, values: readonly unknown[] | undefined, options?: QueryOptions): pg.QueryConfig {
  if (!values?.length || options?.planPerCall) return unnamed(text, values);
  let name = names.get(text);
  if (name === undefined && names.size < MAX_NAMED && PREPARABLE.test(text)) {
    name = `s${names.size}`;
    names.set(text, name);
  }
  return name === undefined ? unnamed(text, values) : { name, text, values: values as any[] };
}

function unnamed(text: string, values: readonly unknown[] | undefined): pg.QueryConfig {
  return { text, values: values as any[] | undefined };
}

export interface PgOptions {
  connectionString: string;
  poolSize: number;
  /** Named prepared statements (default true); off behind a pooler that cannot keep them per session. */
  prepare?: boolean;
  onError?: (err: Error) => void;
  /** How long a statement may take before it fails as unavailable; 15 s unless a test says less. */
  queryTimeoutMs?: number;
  /** How long opening a connection may take before it fails as unavailable; 5 s unless a test says less. */
  connectTimeoutMs?: number;
}

/**
 * What a pool has lived through since start, for GET /metrics (cumulative counts). A failover reads
 * as a burst of unavailable errors, connections dropped, and as many opened again once a primary
 * answers: the pool reconnects by itself, on the next checkout.
 */
export interface PoolHealth {
  /** Connections opened (the first ones, and every reconnect after one was dropped). */
  opened: number;
  /** Attempts to open a connection that failed (refused, reset, timed out, the server starting). */
  connectFailures: number;
  /** Connections thrown away because they were lost, timed out or reached a server no longer primary. */
  dropped: number;
  /** Statements (or checkouts) that failed because the database was unavailable, by reason. */
  unavailable: Record<UnavailableReason, number>;
}

export const newPoolHealth = (): PoolHealth => ({
  opened: 0,
  connectFailures: 0,
  dropped: 0,
  unavailable: { connection: 0, shutdown: 0, read_only: 0, timeout: 0, overloaded: 0 },
});

function noteUnavailable(health: PoolHealth, err: unknown): boolean {
  const reason = unavailableReason(err);
  if (reason) health.unavailable[reason]++;
  return reason !== null;
}

/**
 * Checks a client out with its 'error' listener attached at the instant pg-pool hands it over. pg-pool
 * takes its own (idle) listener off just before it calls back, and `await pool.connect()` would resume
 * only a microtask later: a new connection whose ReadyForQuery and a FATAL (57P01 when the primary's
 * backends are terminated, or outlive their killed postmaster) arrive in one socket read emits 'error'
 * in between, with no listener, and that ends the process. The callback form runs synchronously in
 * that hand-over, so nothing is unheard.
 */
function checkout(pool: pg.Pool, onError: (err: Error) => void): Promise<pg.PoolClient> {
  return new Promise((resolve, reject) => {
    pool.connect((err, client) => {
      if (err || !client) return reject(err ?? new Error('Connection terminated: no client'));
      client.on('error', onError);
      resolve(client);
    });
  });
}

/**
 * Runs fn on a checked-out client and gives the client back. Not pool.query: that destroys the
 * connection after ANY failed statement, so every refusal (a write function's BB001, a 23P01 slot
 * collision, a unique violation) would cost a new session: a backend fork, and every cached plan and
 * compiled function of the old one thrown away. A statement that fails is an answer; only a lost or
 * timed-out connection (or one whose rollback failed) is dropped. A checked-out client whose
 * connection drops emits 'error' (the pool listens only to idle clients); unheard, that event would
 * crash the process, so it is heard from checkout on (see checkout) and the client dropped.
 */
async function withClient<T>(
  pool: pg.Pool,
  health: PoolHealth,
  fn: (client: pg.PoolClient, drop: (err: Error) => void) => Promise<T>,
): Promise<T> {
  let broken: Error | undefined;
  const onError = (err: Error) => {
    broken ??= err;
  };
  let client: pg.PoolClient;
  try {
    client = await checkout(pool, onError);
  } catch (err) {
    // No primary behind the address (refused, reset by HAProxy, 57P03 while a node starts) or no
    // answer within the connect timeout: the caller answers 503, the next checkout tries again.
    if (noteUnavailable(health, err)) health.connectFailures++;
    throw err;
  }
  try {
    // Lost between the hand-over and here: fail with the server's own reason (57P01), not pg's
    // "not queryable".
    if (broken) throw broken;
    return await fn(client, onError);
  } catch (err) {
    if (noteUnavailable(health, err) && !broken) broken = err as Error;
    throw err;
  } finally {
    client.removeListener('error', onError);
    if (broken) health.dropped++;
    client.release(broken);
  }
}

// A statement that hangs (a lost database) must not hold a request forever: after this long it fails
// as unavailable ('Query read timeout', the words pg uses), and withClient drops its connection.
const QUERY_TIMEOUT_MS = 15_000;

/**
 * One statement on a checked-out client, through pg's callback form, with the adapter's own read
 * timeout. pg's promise form and its query_timeout option each keep a finished result reachable a
 * little longer, long enough for a large one (a diary answer is 60 KB of text) to be promoted into
 * V8's old generation: at 50 diary requests/s that meant a full mark-compact every 1-2 s and a p99
 * twice the p50's neighbours (docs/performance/history/round-6.md). This timer holds no reference to the
 * result.
 */
function run(client: pg.PoolClient, config: pg.QueryConfig | string, timeoutMs: number): Promise<pg.QueryResult> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Query read timeout')), timeoutMs);
    client.query(config as pg.QueryConfig, (err: Error | null, result: pg.QueryResult) => {
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(result);
    });
  });
}

export function openPg(options: PgOptions): Database & { pool: pg.Pool; health: PoolHealth } {
  const statement = options.prepare === false ? unnamed : named;
  const timeoutMs = options.queryTimeoutMs ?? QUERY_TIMEOUT_MS;
  const health = newPoolHealth();
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize,
    types: types as any,
    options: SESSION_OPTIONS,
    // Also bounds the wait for a free connection of the pool: a request never queues without end.
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    idleTimeoutMillis: 30_000,
    // A machine that vanishes sends no reset: TCP keepalive lets the kernel notice a dead idle peer.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  });
  pool.on('connect', () => {
    health.opened++;
  });
  // An idle client losing its connection must not crash the process; the pool removes it and the
  // next checkout reconnects (through HAProxy: to whichever node is primary by then).
  pool.on('error', (err) => {
    health.dropped++;
    noteUnavailable(health, err);
    options.onError?.(err);
  });

  const wrap = (result: pg.QueryResult): QueryResult<any> => ({
    rows: result.rows as Row[],
    rowCount: result.rowCount ?? result.rows.length,
  });

  return {
    engine: 'pg',
    pool,
    health,
    async query(sql, params, options) {
      return withClient(pool, health, (client) =>
        run(client, statement(sql, params, options), options?.readTimeoutMs ?? timeoutMs).then(wrap),
      );
    },
    async transaction(fn) {
      return withClient(pool, health, async (client, drop) => {
        await run(client, 'BEGIN', timeoutMs);
        try {
          const result = await fn({
            query: async (sql, params, options) =>
              wrap(await run(client, statement(sql, params, options), options?.readTimeoutMs ?? timeoutMs)),
          });
          await run(client, 'COMMIT', timeoutMs);
          return result;
        } catch (err) {
          // A connection that is gone or timed out cannot roll back (a stalled one would make the
          // ROLLBACK wait out a second statement timeout): withClient drops it instead, which ends
          // the server's transaction. Otherwise roll back; a session whose rollback fails is in an
          // unknown state and is dropped too. Either way the caller sees the first error.
          if (!isUnavailable(err)) await run(client, 'ROLLBACK', timeoutMs).catch(drop);
          throw err;
        }
      });
    },
    async exec(sql) {
      await withClient(pool, health, (client) => run(client, sql, timeoutMs));
    },
    async ping() {
      await withClient(pool, health, (client) => run(client, 'SELECT 1', timeoutMs));
    },
    async close() {
      await pool.end();
    },
  };
}
