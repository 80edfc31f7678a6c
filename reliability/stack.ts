// A proof's deployment: its own database and a few real server processes on it, plus the
// OpenAPI document those servers publish (a proof checks that every operation it drives is there).
import { createDatabase, type OwnedDatabase } from './db.ts';
import { ServerProcess } from './server-process.ts';
import { http } from './client.ts';
import { findOperation, operationsOf, type Operation } from './openapi.ts';
import type { ProofRun } from './proof.ts';

export interface Stack {
  database: OwnedDatabase;
  servers: ServerProcess[];
  ops: Operation[];
  doc: any;
  has(method: string, path: string): boolean;
  /** Fails and stops the proof when an operation it drives is not in the document: every one is built. */
  require(method: string, path: string): void;
}

/** Starts a stack; with `shared`, proofs that only need the plain three-process deployment reuse one. */
export async function startStack(
  p: ProofRun,
  label: string,
  options: { servers: number; env?: Record<string, string>; databaseUrl?: (db: OwnedDatabase) => string },
  owner: { servers: ServerProcess[]; databases: OwnedDatabase[] } = p,
): Promise<Stack> {
  const database = await createDatabase(p.serverUrl, label);
  owner.databases.push(database);
  const servers: ServerProcess[] = [];
  const url = options.databaseUrl ? options.databaseUrl(database) : database.url;
  const started = await Promise.allSettled(
    Array.from({ length: options.servers }, (_, i) =>
      ServerProcess.start({ databaseUrl: url, env: options.env, name: `server${i + 1}` }),
    ),
  );
  for (const s of started) if (s.status === 'fulfilled') servers.push(s.value);
  owner.servers.push(...servers);
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  const res = await http(servers[0].baseUrl, 'GET', '/openapi.json');
  if (res.status !== 200) throw new Error(`GET /openapi.json answered ${res.status}`);
  const ops = operationsOf(res.body);
  const has = (method: string, path: string) => !!findOperation(ops, method, path);
  return {
    database,
    servers,
    ops,
    doc: res.body,
    has,
    require(method, path) {
      if (!has(method, path)) p.missing(`${method} ${path} is not in /openapi.json`);
    },
  };
}

let shared: { stack: Stack; databases: OwnedDatabase[]; servers: ServerProcess[] } | null = null;

/**
 * The plain deployment (three processes, one database, generous rate limits), started once and
 * shared by the proofs that only send requests to it: starting servers is the slowest part.
 * Each proof works in its own stores, so they do not see each other's data.
 */
export async function sharedStack(p: ProofRun): Promise<Stack> {
  if (!shared) {
    const holder = { servers: [] as ServerProcess[], databases: [] as OwnedDatabase[] };
    const env = {
      RATE_LIMIT_GLOBAL_PER_MIN: '10000000',
      RATE_LIMIT_SEARCH_PER_MIN: '10000000',
      RATE_LIMIT_PREFERENCES_PER_MIN: '10000000',
    };
    let stack: Stack;
    try {
      stack = await startStack(p, 'shared', { servers: 3, env }, holder);
    } catch (err) {
      await Promise.all(holder.servers.map((x) => x.kill().catch(() => {})));
      for (const d of holder.databases) await d.drop().catch(() => {});
      throw err;
    }
    shared = { stack, databases: holder.databases, servers: holder.servers };
  }
  for (const s of shared.servers)
    if (!s.running)
      throw new Error(`${s.name} of the shared deployment is not running:\n${s.output.slice(-10).join('\n')}`);
  const { stack } = shared;
  return {
    ...stack,
    require(method, path) {
      if (!stack.has(method, path)) p.missing(`${method} ${path} is not in /openapi.json`);
    },
  };
}

export async function stopShared(): Promise<void> {
  if (!shared) return;
  const s = shared;
  shared = null;
  await Promise.all(s.servers.map((x) => x.kill().catch(() => {})));
  for (const d of s.databases) await d.drop().catch(() => {});
}
