// Settings shared by every proof: where the repository and its Node live, which PostgreSQL and
// Redis to use, and the secrets the spawned servers and the in-process app share.
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Node 24 from the `node` package: the machine's plain `node` may be too old to run .ts. */
export const NODE_BIN = process.execPath;
export const SERVER_ENTRY = path.join(REPO_ROOT, 'src/server.ts');

export const AUTH_SECRET = 'reliability-secret-0123456789-0123456789-abcdef';
export const ADMIN_TOKEN = 'reliability-admin-token-0123456789';

export const SERVER_URL = process.env.TEST_DATABASE_URL ?? process.env.RELIABILITY_DATABASE_URL ?? null;
export const REDIS_URL = process.env.REDIS_TEST_URL ?? null;
/** RELIABILITY_POOLED=true: SERVER_URL is PgBouncer in transaction mode, so no named prepared statements anywhere (scripts/reliability-pooled.ts). */
export const PREPARED_STATEMENTS = process.env.RELIABILITY_POOLED !== 'true';
/** How long a spawned server may take to answer /readyz (RELIABILITY_SERVER_START_MS; longer on a crowded machine). */
export const SERVER_START_MS = Number(process.env.RELIABILITY_SERVER_START_MS ?? 90_000);

/**
 * The whole suite must finish inside seven and a half minutes; each proof gets a share of this in
 * proportion to its own budgetMs (eleven proofs, 545 s of weights: each may take about 0.77 of its weight;
 * a normal CI run takes about 240 s in all).
 */
export const SUITE_BUDGET_MS = Number(process.env.RELIABILITY_BUDGET_MS ?? 420_000);

/** Deterministic seed for fast-check and every random choice, overridable to explore. */
export const SEED = Number(process.env.RELIABILITY_SEED ?? 20261122);

/** A small deterministic PRNG (mulberry32): the same seed gives the same storm, crash points, and inputs. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
