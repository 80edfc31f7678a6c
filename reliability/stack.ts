// A proof's deployment: its own database and a few real server processes on it, plus the
// OpenAPI document those servers publish (which says which endpoints exist yet).
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
  /** Skips the proof cleanly when an endpoint it needs is not there yet. */
  require(method: string, path: string): void;
}

export async function startStack(
  p: ProofRun,
  label: string,
  options: { servers: number; env?: Record<string, string>; databaseUrl?: (db: OwnedDatabase) => string },
): Promise<Stack> {
  const database = await createDatabase(p.serverUrl, label);
  p.databases.push(database);
  const servers: ServerProcess[] = [];
  const url = options.databaseUrl ? options.databaseUrl(database) : database.url;
  // Started one after another: on two cores, parallel starts only slow each other down.
  for (let i = 0; i < options.servers; i++) {
    const s = await ServerProcess.start({ databaseUrl: url, env: options.env, name: `server${i + 1}` });
    servers.push(s);
    p.servers.push(s);
  }
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
      if (!has(method, path)) p.skip(`${method} ${path} is not there yet (404 ROUTE_NOT_FOUND)`);
    },
  };
}
