// What a proof is and what it reports: figures (the numbers) and failures (guarantees violated).
// A part of the product the proof needs that is missing is a failure (Missing), never a skip; a
// skip is left only for a service the run was not given at all (no REDIS_TEST_URL).
import type { ServerProcess } from './server-process.ts';
import type { OwnedDatabase } from './db.ts';

export class Skip extends Error {}

/** Thrown after recording a failure when the proof cannot go on (a documented operation is missing). */
export class Missing extends Error {}

export class ProofRun {
  readonly name: string;
  readonly deadline: number;
  readonly serverUrl: string;
  readonly redisUrl: string | null;
  figures: Array<[string, string | number]> = [];
  failures: string[] = [];
  notes: string[] = [];
  private failureCounts = new Map<string, number>();
  servers: ServerProcess[] = [];
  databases: OwnedDatabase[] = [];

  constructor(name: string, budgetMs: number, serverUrl: string, redisUrl: string | null) {
    this.name = name;
    this.deadline = Date.now() + budgetMs;
    this.serverUrl = serverUrl;
    this.redisUrl = redisUrl;
  }

  timeLeft(): number {
    return this.deadline - Date.now();
  }

  figure(label: string, value: string | number) {
    this.figures.push([label, value]);
  }

  note(text: string) {
    this.notes.push(text);
  }

  /** Records a violated guarantee; the same kind of failure is listed a few times, then counted. */
  fail(kind: string, detail = '') {
    const n = (this.failureCounts.get(kind) ?? 0) + 1;
    this.failureCounts.set(kind, n);
    if (n <= 3) this.failures.push(detail ? `${kind}: ${detail}` : kind);
    else if (n === 4) this.failures.push(`${kind}: (further occurrences counted, not listed)`);
  }

  check(ok: boolean, kind: string, detail = ''): boolean {
    if (!ok) this.fail(kind, detail);
    return ok;
  }

  failureCount(): number {
    let n = 0;
    for (const v of this.failureCounts.values()) n += v;
    return n;
  }

  skip(reason: string): never {
    throw new Skip(reason);
  }

  /** Records the missing part as a failure and stops the proof: it cannot prove anything without it. */
  missing(what: string): never {
    this.fail('a part of the proof is missing', what);
    throw new Missing(what);
  }
}

export interface Proof {
  name: string;
  title: string;
  /** Share of the suite's time; the proof scales its rounds to fit. */
  budgetMs: number;
  /** Uses the shared three-process deployment (stopped once no later proof needs it). */
  usesShared?: boolean;
  run(p: ProofRun): Promise<void>;
}

/** Compact text for an HTTP answer in a failure message. */
export function describe(r: { status: number; body: any; error?: string | null }): string {
  if (r.status === 0) return `no answer (${r.error})`;
  const text = typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
  return `${r.status} ${text?.slice(0, 300)}`;
}
