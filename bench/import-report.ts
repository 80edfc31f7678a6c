// node bench/import-report.ts [--customers 10000] [--appointments 2000] [--report-runs 20], or a phase of
// `npm run bench` (`--only import`: measureImportReport and describeImportReport below).
// Two phases of issue 45 on a store of their own (a fresh DATA_DIR on the embedded engine, or a
// scratch database on DATABASE_URL's server):
//   import: a customers CSV then an appointments CSV streamed over HTTP to the listening service:
//           seconds, rows a second, and the service process's peak RSS (sampled every 20 ms, and
//           the kernel's maxRSS); the engine's own memory is not in it;
//   report: a busy shop's year (about 30,000 appointments on 10 units with opening hours and
//           time-off) and GET /api/v1/reports/summary over the whole year by unit, service and day:
//           p50 and p99 of --report-runs calls each (target: under 200 ms).
// Results: a table on stdout and bench/results/<date>-import-report.json.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/platform/db/open.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { embeddedCluster } from '../src/platform/db/embedded-postgres.adapter.ts';
import { createTokenService } from '../src/platform/auth/tokens.ts';
import { withScratchDatabase } from './harness/scratch-database.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};

export interface ImportReportOptions {
  customers: number;
  appointments: number;
  /** Calls of the report per grouping, after two warm-up calls. */
  runs: number;
}

async function* customerCsv(n: number) {
  yield 'external_id,first name,last name,email,mobile,notes,marketing\n';
  for (let i = 0; i < n; i++) {
    // 07400 1xxxxx: valid UK mobiles, one per row.
    yield `C${i},Client,Number ${i},client${i}@bench.example,07400 ${String(100000 + i)},Imported,${i % 3 === 0 ? 'yes' : 'no'}\n`;
  }
}

async function* appointmentCsv(n: number, from: Date, customers: number) {
  yield 'external_id,unit,service,start,minutes,email\n';
  // 10 units, 18 half-hour slots a day (09:00-18:00), weekdays from `from` on.
  let made = 0;
  for (let day = 0; made < n; day++) {
    const d = new Date(from.getTime() + day * 86_400_000);
    if (d.getUTCDay() === 0) continue;
    const date = d.toISOString().slice(0, 10);
    for (let unit = 1; unit <= 10 && made < n; unit++) {
      for (let slot = 0; slot < 18 && made < n; slot++) {
        const hh = String(9 + Math.floor(slot / 2)).padStart(2, '0');
        const mm = slot % 2 ? '30' : '00';
        yield `A${made},Staff ${unit},Cut,${date} ${hh}:${mm},30,client${made % customers}@bench.example\n`;
        made++;
      }
    }
  }
}

function memorySampler() {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  return {
    stop: () => {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage().rss);
    },
  };
}

/** A fresh data directory the embedded engine's postgres user can enter (mkdtemp makes it 0700). */
function embeddedDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bbo-import-bench-'));
  fs.chmodSync(dir, 0o755);
  return dir;
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

async function run(env: NodeJS.ProcessEnv, o: ImportReportOptions) {
  const config = loadConfig({
    ...env,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    WORKER_ENABLED: 'false',
    MESSAGES_WORKER: 'false',
  });
  const db = await openDatabase(config);
  await migrate(db);
  const tokens = createTokenService(config);
  const app = await buildApp({ config, db, tokens, logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  try {
    const store = (
      await db.query<{ id: string }>(
        `INSERT INTO stores (name, timezone, currency) VALUES ('Import Bench', 'Europe/London', 'GBP') RETURNING id`,
      )
    ).rows[0].id;
    const units = (
      await db.query<{ id: string }>(
        `INSERT INTO units (store_id, display_name, kind, sort) SELECT $1, 'Staff ' || i, 'staff', i FROM generate_series(1, 10) i RETURNING id`,
        [store],
      )
    ).rows;
    await db.query(
      `INSERT INTO services (store_id, name, duration_min, price_pence, currency) VALUES ($1, 'Cut', 30, 2500, 'GBP')`,
      [store],
    );
    await db.query(
      `INSERT INTO unit_hours (store_id, unit_id, weekday, opens, closes)
       SELECT $1, u.id, d, '09:00', '18:00' FROM units u, generate_series(1, 6) d WHERE u.store_id = $1`,
      [store],
    );
    const { token } = await tokens.sign(
      {
        kind: 'merchant',
        store_id: store,
        user_id: 'bench',
        staff_name: 'Bench',
        scopes: ['merchant:read', 'merchant:write'],
        entitlements: ['can_use_bookings'],
        permissions: [],
      } as any,
      3600,
    );
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'text/csv' };

    const upload = async (what: string, body: AsyncIterable<string>) => {
      const mem = memorySampler();
      const t0 = performance.now();
      const res = await fetch(`${base}/api/v1/imports/${what}?store_id=${store}`, {
        method: 'POST',
        headers,
        body: Readable.toWeb(Readable.from(body)) as ReadableStream,
        duplex: 'half',
      } as RequestInit);
      const report = (await res.json()) as { rows: number; created: number; skipped: number };
      const seconds = (performance.now() - t0) / 1000;
      const peak = mem.stop();
      if (res.status !== 200)
        throw new Error(`${what} import answered ${res.status}: ${JSON.stringify(report).slice(0, 300)}`);
      return {
        rows: report.rows,
        created: report.created,
        skipped: report.skipped,
        seconds: +seconds.toFixed(2),
        rows_per_s: Math.round(report.rows / seconds),
        peak_rss_mb: +(peak / 2 ** 20).toFixed(1),
      };
    };
    const rssBefore = +(process.memoryUsage().rss / 2 ** 20).toFixed(1);
    const customers = await upload('customers', customerCsv(o.customers));
    const appointments = await upload(
      'appointments',
      appointmentCsv(o.appointments, new Date(Date.now() + 2 * 86_400_000), o.customers),
    );
    const maxRss = +(process.resourceUsage().maxRSS / 1024).toFixed(1);

    // A busy shop's year: 10 units, 10 appointments a unit each working day, statuses mixed, set-based.
    const year = new Date(Date.UTC(new Date().getUTCFullYear() - 1, 0, 1)).toISOString().slice(0, 10);
    // Seeded with the triggers off (session_replication_role, this database is the bench's own): the
    // occupancy and availability bookkeeping of 30,000 rows in one statement is not what is measured.
    await db.transaction(async (tx) => {
      await tx.query('SET LOCAL session_replication_role = replica');
      await tx.query(
        `INSERT INTO appointments (store_id, unit_id, customer_id, starts_at, ends_at, block, status, price_pence, settled_pence, payment_status, currency, cancelled_by)
       SELECT $1, u.id, c.id, t, t + interval '30 minutes', tstzrange(t, t + interval '30 minutes'),
              CASE WHEN n % 17 = 0 THEN 'cancelled' WHEN n % 23 = 0 THEN 'no_show' ELSE 'completed' END, 2500,
              CASE WHEN n % 17 = 0 OR n % 23 = 0 THEN 0 ELSE 2500 END, CASE WHEN n % 17 = 0 OR n % 23 = 0 THEN 'none' ELSE 'paid' END, 'GBP',
              CASE WHEN n % 17 = 0 THEN CASE WHEN n % 2 = 0 THEN 'customer' ELSE 'merchant' END END
         FROM (SELECT u.id, row_number() OVER (ORDER BY u.id) AS k FROM units u WHERE u.store_id = $1) u
        CROSS JOIN generate_series(0, 300) d
        CROSS JOIN generate_series(0, 9) s
        CROSS JOIN LATERAL (SELECT (($2::date + d) + time '09:00' + s * interval '45 minutes') AT TIME ZONE 'Europe/London' AS t,
                                   (d * 100 + s * 10 + u.k)::int AS n) x
        LEFT JOIN LATERAL (SELECT sc.customer_id AS id FROM store_customers sc WHERE sc.store_id = $1 AND sc.external_id = 'C' || (x.n % ${o.customers})) c ON true
        WHERE extract(dow FROM $2::date + d) <> 0`,
        [store, year],
      );
    });
    await db.query(
      `INSERT INTO time_off (store_id, unit_id, starts_at, ends_at, kind)
       SELECT $1, u.id, ($2::date + w * 7) + time '12:00', ($2::date + w * 7) + time '13:00', 'time_off' FROM units u, generate_series(0, 51) w WHERE u.store_id = $1`,
      [store, year],
    );
    await db.query('ANALYZE');
    const count = Number(
      (await db.query('SELECT count(*) FROM appointments WHERE store_id = $1', [store])).rows[0].count,
    );
    const to = new Date(new Date(`${year}T00:00:00Z`).getTime() + 364 * 86_400_000).toISOString().slice(0, 10);
    const report: Record<string, { p50_ms: number; p99_ms: number; groups: number }> = {};
    for (const groupBy of ['unit', 'service', 'day']) {
      const times: number[] = [];
      let groups = 0;
      for (let i = 0; i < o.runs + 2; i++) {
        const t0 = performance.now();
        const res = await fetch(
          `${base}/api/v1/reports/summary?store_id=${store}&from=${year}&to=${to}&group_by=${groupBy}`,
          { headers: { authorization: headers.authorization } },
        );
        const body = (await res.json()) as { groups: unknown[] };
        if (res.status !== 200) throw new Error(`report answered ${res.status}`);
        if (i >= 2) times.push(performance.now() - t0); // two warm-up calls
        groups = body.groups.length;
      }
      report[groupBy] = { p50_ms: +pct(times, 0.5).toFixed(1), p99_ms: +pct(times, 0.99).toFixed(1), groups };
    }
    void units;
    return {
      engine: config.databaseUrl ? 'PostgreSQL server' : 'embedded PostgreSQL',
      rss_before_mb: rssBefore,
      customers,
      appointments,
      max_rss_mb: maxRss,
      year_appointments: count,
      report,
    };
  } finally {
    await app.close();
    await db.close();
    // The embedded engine this process started (none on the server): stopped, so the bench can end.
    if (!config.databaseUrl) await (await embeddedCluster())?.stop();
  }
}

export type ImportReport = Awaited<ReturnType<typeof run>> & {
  started: string;
  host: string;
  load_average: number[];
  runs: number;
};

/** Both phases on a store and database of their own: DATABASE_URL's server when set, else a fresh embedded DATA_DIR. */
export async function measureImportReport(
  o: ImportReportOptions,
  databaseUrl = process.env.DATABASE_URL,
): Promise<ImportReport> {
  const started = new Date();
  const result = databaseUrl
    ? await withScratchDatabase(databaseUrl, 'bbo_w45_import_report', (url) =>
        run({ ...process.env, DATABASE_URL: url }, o),
      )
    : await run({ ...process.env, DATABASE_URL: '', DATA_DIR: embeddedDir() }, o);
  return {
    started: started.toISOString(),
    host: `${os.cpus().length} cores (shared)`,
    load_average: os.loadavg().map((x) => +x.toFixed(1)),
    runs: o.runs,
    ...result,
  };
}

export function describeImportReport(out: ImportReport | null): string {
  if (!out) return 'import and report: not measured';
  const lines = [
    `import and report (${out.engine}, load average ${out.load_average.join(' ')}):`,
    '| phase | rows | seconds | rows/s | peak RSS (service process) |',
    '|---|---|---|---|---|',
  ];
  for (const k of ['customers', 'appointments'] as const) {
    const r = out[k];
    lines.push(
      `| import ${k} | ${r.rows} (${r.created} created, ${r.skipped} skipped) | ${r.seconds} | ${r.rows_per_s} | ${r.peak_rss_mb} MB (before ${out.rss_before_mb} MB) |`,
    );
  }
  lines.push(
    `import total ${(out.customers.seconds + out.appointments.seconds).toFixed(2)} s (target: under 30 s on the embedded engine)`,
  );
  lines.push(
    `report over a year of ${out.year_appointments} appointments (${out.runs} calls each; target: under 200 ms):`,
  );
  for (const [k, r] of Object.entries(out.report))
    lines.push(`  by ${k}: p50 ${r.p50_ms} ms, p99 ${r.p99_ms} ms (${r.groups} groups)`);
  return lines.join('\n');
}

if (import.meta.main) {
  const out = await measureImportReport({
    customers: arg('customers', 10_000),
    appointments: arg('appointments', 2_000),
    runs: arg('report-runs', 20),
  });
  console.log(describeImportReport(out));
  fs.mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true });
  const file = path.join(
    import.meta.dirname,
    'results',
    `${out.started.slice(0, 10)}-import-report${out.engine === 'PostgreSQL server' ? '-server' : ''}.json`,
  );
  fs.writeFileSync(file, `${JSON.stringify(out, null, 2)}\n`);
  process.exit(0);
}
