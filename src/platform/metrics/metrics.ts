// The process's metrics, in one prom-client registry per app. Two kinds of facts:
// - pushed on the request path: one histogram observation per answered request (the only per-request
//   cost), labelled by route template and status class;
// - pulled at scrape time from sources the app (or another module) registers here: connection pools,
//   the read replica's router, the availability caches, and the database backlog (backlog.ts). A source
//   costs nothing between scrapes.
// Names follow Prometheus's conventions (base units, *_seconds, *_total); no label carries a store id,
// an address or anything else unbounded. README.md lists every metric and how to feed one.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** What pg.Pool exposes about itself (any object with these three counts will do). */
export interface PoolLike {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

/** What a pool has lived through (pg.adapter.ts's PoolHealth): cumulative counts since start. */
export interface PoolHealthLike {
  readonly opened: number;
  readonly connectFailures: number;
  readonly dropped: number;
  readonly unavailable: Readonly<Record<string, number>>;
}

/** The read replica's routing, as its router counts it (cumulative counts since start). */
export interface ReplicaFacts {
  up: boolean;
  /** null when unknown (never polled, or down). */
  lagSeconds: number | null;
  /** Requests whose reads went to the replica / stayed on the primary. */
  replicaReads: number;
  primaryReads: number;
}

/** One availability cache's counts (cumulative hits and misses, bytes kept now). */
export interface CacheFacts {
  hits: number;
  misses: number;
  bytes: number;
}

/** Facts read from the database at scrape time (backlog.ts), cached for a few seconds. */
export interface BacklogFacts {
  webhookDeliveries: { due: number; retrying: number; failed: number };
  messages: { due: number; retrying: number; failed: number };
  /** Per feed consumer: seconds the oldest event it has not yet passed has waited (0 when caught up). */
  eventLagSeconds: Record<string, number>;
}

const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;
/** A request that matched no route (404s of unknown paths) is labelled with this, never its URL. */
export const UNMATCHED_ROUTE = 'unmatched';

// From 1 ms (a kept availability answer) to 10 s (past every timeout a request may wait on).
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Metrics {
  readonly registry = new Registry();
  private readonly pools = new Map<string, PoolLike>();
  private readonly poolHealth = new Map<string, PoolHealthLike>();
  private readonly caches = new Set<() => CacheFacts | null>();
  private replica: (() => ReplicaFacts) | null = null;
  private backlog: (() => Promise<BacklogFacts>) | null = null;
  private readonly requests: Histogram<'method' | 'route' | 'status_class'>;

  constructor(options: { defaultMetrics?: boolean } = {}) {
    const registers = [this.registry];
    const self = this;
    if (options.defaultMetrics !== false) {
      collectDefaultMetrics({ register: this.registry });
      // Gauges whose names end in _total break Prometheus's naming rule (promtool check metrics says
      // so); each repeats the sum of its per-type gauge (nodejs_active_handles{type}, ...).
      for (const name of [
        'nodejs_active_handles_total',
        'nodejs_active_requests_total',
        'nodejs_active_resources_total',
      ]) {
        this.registry.removeSingleMetric(name);
      }
    }

    this.requests = new Histogram({
      name: 'bbo_http_request_duration_seconds',
      help: 'Time from receiving a request to answering it, by route template and status class (its _count is the request count).',
      labelNames: ['method', 'route', 'status_class'],
      buckets: LATENCY_BUCKETS,
      registers,
    });

    // One series a pool, read afresh at each scrape: reset, then each pool's value (inc from 0 sets it,
    // for a gauge and a counter alike: both take the same options and have reset and inc).
    const perPool =
      <T>(Kind: typeof Gauge | typeof Counter, pools: () => Iterable<[string, T]>) =>
      (name: string, help: string, read: (x: T) => number) =>
        new (Kind as typeof Gauge)({
          name,
          help,
          labelNames: ['pool'],
          registers,
          collect() {
            this.reset();
            for (const [pool, x] of pools()) this.inc({ pool }, read(x));
          },
        });
    const poolGauge = perPool<PoolLike>(Gauge, () => self.pools);
    poolGauge('bbo_db_pool_connections', 'Connections the pool holds (busy and idle).', (p) => p.totalCount);
    poolGauge('bbo_db_pool_idle_connections', 'Connections the pool holds that are idle.', (p) => p.idleCount);
    poolGauge('bbo_db_pool_waiting_requests', 'Callers waiting for a connection of the pool.', (p) => p.waitingCount);

    // A failover, as the service lives it: errors while there is no primary, connections dropped,
    // and as many opened again (the reconnects) once HAProxy sends them to the new one.
    const healthCounter = perPool<PoolHealthLike>(Counter, () => self.poolHealth);
    healthCounter(
      'bbo_db_connections_opened_total',
      'Connections the pool opened: the first ones and every reconnect after one was dropped.',
      (h) => h.opened,
    );
    healthCounter(
      'bbo_db_connect_failures_total',
      'Attempts to open a connection that failed (refused, reset, timed out, server starting).',
      (h) => h.connectFailures,
    );
    healthCounter(
      'bbo_db_connections_dropped_total',
      'Connections thrown away as broken: lost, timed out, or on a server no longer primary.',
      (h) => h.dropped,
    );
    new Counter({
      name: 'bbo_db_unavailable_errors_total',
      help: 'Statements or checkouts that failed because the database was unavailable, by reason (connection, shutdown, read_only, timeout, overloaded); requests answer 503 SERVICE_UNAVAILABLE.',
      labelNames: ['pool', 'reason'],
      registers,
      collect() {
        this.reset();
        for (const [pool, h] of self.poolHealth)
          for (const [reason, n] of Object.entries(h.unavailable)) this.inc({ pool, reason }, n);
      },
    });

    new Gauge({
      name: 'bbo_replica_up',
      help: '1 when the read replica (DATABASE_READ_URL) is in use, 0 when it is skipped or there is none.',
      registers,
      collect() {
        this.set(self.replica?.().up ? 1 : 0);
      },
    });
    new Gauge({
      name: 'bbo_replica_lag_seconds',
      help: "How far the read replica's replay is behind the primary, at its last poll (NaN when unknown or no replica).",
      registers,
      collect() {
        const lag = self.replica?.().lagSeconds;
        this.set(lag ?? Number.NaN);
      },
    });
    new Counter({
      name: 'bbo_read_requests_total',
      help: 'Requests that read through the read router, by where their reads were served (replica or primary). 0 without a replica.',
      labelNames: ['served'],
      registers,
      collect() {
        const facts = self.replica?.();
        this.reset();
        this.inc({ served: 'replica' }, facts?.replicaReads ?? 0);
        this.inc({ served: 'primary' }, facts?.primaryReads ?? 0);
      },
    });

    const cacheSum = (read: (c: CacheFacts) => number) => {
      let total = 0;
      for (const source of self.caches) {
        const facts = source();
        if (facts) total += read(facts);
      }
      return total;
    };
    new Counter({
      name: 'bbo_availability_cache_hits_total',
      help: 'Availability searches answered from a kept answer (or sharing one being computed).',
      registers,
      collect() {
        this.reset();
        this.inc(cacheSum((c) => c.hits));
      },
    });
    new Counter({
      name: 'bbo_availability_cache_misses_total',
      help: 'Availability searches that computed their answer.',
      registers,
      collect() {
        this.reset();
        this.inc(cacheSum((c) => c.misses));
      },
    });
    new Gauge({
      name: 'bbo_availability_cache_bytes',
      help: 'Bytes of availability answers kept (an estimate of their size).',
      registers,
      collect() {
        this.set(cacheSum((c) => c.bytes));
      },
    });

    const backlogGauge = (
      name: string,
      help: string,
      labelName: string,
      read: (b: BacklogFacts) => Record<string, number>,
    ) =>
      new Gauge({
        name,
        help,
        labelNames: [labelName],
        registers,
        async collect() {
          this.reset();
          if (!self.backlog) return;
          for (const [label, value] of Object.entries(read(await self.backlog())))
            this.set({ [labelName]: label }, value);
        },
      });
    backlogGauge(
      'bbo_webhook_deliveries',
      'Webhook deliveries by state: due now, retrying (pending after a failed attempt), failed (schedule exhausted or endpoint disabled).',
      'state',
      (b) => b.webhookDeliveries,
    );
    backlogGauge(
      'bbo_messages',
      'Customer messages by state: due now, retrying (pending after a failed attempt), failed (given up).',
      'state',
      (b) => b.messages,
    );
    backlogGauge(
      'bbo_event_feed_lag_seconds',
      'Per feed consumer: how long the oldest event it has not yet passed has waited (0 when it has passed every event).',
      'consumer',
      (b) => b.eventLagSeconds,
    );
  }

  /** One answered request. route is the route template (routeOptions.url), never the raw URL. */
  observeRequest(method: string, route: string | undefined, statusCode: number, seconds: number): void {
    const statusClass = STATUS_CLASSES[Math.floor(statusCode / 100) - 1] ?? '5xx';
    this.requests.observe({ method, route: route ?? UNMATCHED_ROUTE, status_class: statusClass }, seconds);
  }

  /** A connection pool to report as `pool="name"` (primary, replica, webhook_worker, ...). The last one of a name wins. */
  addPool(name: string, pool: PoolLike, health?: PoolHealthLike): void {
    this.pools.set(name, pool);
    if (health) this.poolHealth.set(name, health);
  }

  /** The read replica's router (read at each scrape). */
  setReplicaSource(source: () => ReplicaFacts): void {
    this.replica = source;
  }

  /** An availability cache (read at each scrape; all are summed). */
  addCacheSource(source: () => CacheFacts | null): void {
    this.caches.add(source);
  }

  /** The database backlog (read at each scrape; the source keeps its own short cache). */
  setBacklogSource(source: () => Promise<BacklogFacts>): void {
    this.backlog = source;
  }

  /** The exposition text and its content type. */
  async scrape(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
