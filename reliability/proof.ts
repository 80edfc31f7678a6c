// What a proof is and what it reports: figures (the numbers), failures (guarantees violated),
// or a clean skip when what it needs is not there yet (an endpoint not built, no Redis).
import type { ServerProcess } from './server-process.ts';
import type { OwnedDatabase } from './db.ts';

export class Skip extends Error {}

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
