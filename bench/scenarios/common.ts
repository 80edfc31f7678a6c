// The shape every scenario shares: how to build its i-th request (used by the HTTP load and by the
// direct, database-only load alike) and which service function serves it.
import type { Actor, MerchantActor } from '../../src/platform/auth/actor.ts';
import type { RequestContext } from '../../src/platform/context.ts';
import type { Database } from '../../src/platform/db/port.ts';
import type { Fixtures } from '../harness/fixtures.ts';
import { BENCH_USER } from '../harness/fixtures.ts';
import type { TokenMint } from '../harness/tokens.ts';

export interface Call {
  method: 'GET' | 'POST' | 'PATCH';
  route: string;
  query?: Record<string, string | number | boolean>;
  body?: Record<string, unknown>;
  actor: Actor;
  /** Writes carry an Idempotency-Key, unique per request. */
  idempotent: boolean;
  /**
   * A second request built from the first one's 200 answer (a hold, then its confirm): the HTTP load
   * sends both on one connection and times the pair; the SQL-only run's service does both itself.
   */
  then?: (answer: any) => Call;
}

export interface Env {
  db: Database;
  fx: Fixtures;
  mint: TokenMint;
}

export type ServiceFn = (ctx: RequestContext<any>, call: Call) => Promise<unknown>;

export interface Scenario {
  name: string;
  kind: 'read' | 'write';
  /** Outcomes ("409 SLOT_TAKEN") that are part of the scenario, not errors. */
  expected?: string[];
  /** Once: mint tokens, find the rows the scenario uses. */
  setup(env: Env): Promise<void>;
  /** Before every load phase: reset the pools a write consumes, find fresh time. */
  prepare?(env: Env): Promise<void>;
  call(i: number): Call;
  /** Concurrency of this scenario's HTTP and SQL-only phases where its target names one (--connections otherwise). */
  connections?: number;
  /** Imported lazily so a feature that has not landed makes its scenario "not available", not a crash. */
  service(): Promise<ServiceFn>;
}

export function merchant(storeId: string): MerchantActor {
  return {
    kind: 'merchant',
    storeId,
    userId: BENCH_USER,
    staffName: 'Bench Staff',
    scopes: ['merchant:read', 'merchant:write'],
    entitlements: ['can_use_bookings', 'classes'],
    permissions: ['can_process_payments'],
  };
}

export function urlOf(call: Call): string {
  if (!call.query) return call.route;
  const qs = new URLSearchParams(Object.entries(call.query).map(([k, v]) => [k, String(v)]));
  return `${call.route}?${qs}`;
}

/** Search needles people type: parts of first names, surnames and emails from the generator's lists. */
export const NEEDLES = [
  'smith',
  'olivia',
  'patel',
  'jack',
  'emma',
  'khan',
  'evans',
  'grace',
  'harris',
  'leo',
  'wood',
  'isla',
];

export const DAY_MS = 86_400_000;
export const MIN_MS = 60_000;
