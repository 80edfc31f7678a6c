// Reads db/functions/ for test/platform/write-functions.test.ts: every write function (the
// one-statement convention's `(claim jsonb, actor jsonb, at timestamptz, req jsonb)`) and the keys of
// `req` it reads, following `req` when it is passed whole to another function.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const DIR = join(import.meta.dirname, '../../db/functions');
export const WRITE_SIGNATURE = /^\s*claim jsonb, actor jsonb, at timestamptz, req jsonb\s*$/;
/** A write called inside its caller's transaction, with no claim and a bare answer (bbo_import_appointments). */
export const IN_TRANSACTION_SIGNATURE = /^\s*actor jsonb, at timestamptz, req jsonb\s*$/;

export interface SqlFunction {
  name: string;
  params: string;
  /** The body with its `--` comments removed. */
  body: string;
  file: string;
}

export function sqlFunctions(): Map<string, SqlFunction> {
  const all = new Map<string, SqlFunction>();
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.sql'))) {
    const text = readFileSync(join(DIR, file), 'utf8');
    for (const m of text.matchAll(/CREATE OR REPLACE FUNCTION (\w+)\(([^)]*)\)[\s\S]*?\$\$([\s\S]*?)\$\$/g)) {
      all.set(m[1], { name: m[1], params: m[2], body: m[3].replace(/--[^\n]*/g, ''), file });
    }
  }
  return all;
}

/** The function whose argument list the text just before `at` is inside, e.g. `bbo_x(a, ` gives bbo_x. */
function enclosingCall(body: string, at: number): string | null {
  let depth = 0;
  for (let i = at - 1; i >= 0; i--) {
    if (body[i] === ')') depth++;
    else if (body[i] === '(') {
      if (depth === 0) return /(\w+)\s*$/.exec(body.slice(0, i))?.[1] ?? null;
      depth--;
    }
  }
  return null;
}

/**
 * The keys of `req` the function reads: `req->>'k'` and `req->'k'`, and, where `req` is passed
 * whole to another function (`bbo_f(..., req || jsonb_build_object('k', v))`), what that function
 * reads of its own `req`, less the keys the caller sets itself. Anything else done with `req` whole
 * throws, so this never under-reports silently.
 */
export function requestKeys(all: Map<string, SqlFunction>, name: string): Set<string> {
  const fn = all.get(name);
  if (!fn) throw new Error(`no function ${name} in db/functions/`);
  const keys = new Set([...fn.body.matchAll(/(?<![\w.])req\s*->>?\s*'(\w+)'/g)].map((m) => m[1]));
  for (const m of fn.body.matchAll(/(?<![\w.'])req\b(?!\s*->)/g)) {
    const callee = enclosingCall(fn.body, m.index);
    const target = callee ? all.get(callee) : undefined;
    if (!target || !/(^|,)\s*req jsonb\b/.test(target.params)) {
      throw new Error(`${name} passes req whole to ${callee ?? 'something'}, which this reader does not follow`);
    }
    const set = /^req\s*\|\|\s*jsonb_build_object\(([^)]*)\)/.exec(fn.body.slice(m.index))?.[1] ?? '';
    const own = new Set([...set.matchAll(/'(\w+)'\s*,/g)].map((k) => k[1]));
    for (const k of requestKeys(all, callee as string)) if (!own.has(k)) keys.add(k);
  }
  return keys;
}

/**
 * The keys of each element of the array `req->'field'` the function reads: the columns of every
 * `jsonb_to_recordset(req->'field') AS x(col type, ...)`, and `x->>'k'` where x is an alias of
 * `jsonb_array_elements(req->'field') x` (anywhere in the body, so it
 * may over-report). Any other read of the array is not seen: the test requires some keys found.
 */
export function elementKeys(all: Map<string, SqlFunction>, name: string, field: string): Set<string> {
  const fn = all.get(name);
  if (!fn) throw new Error(`no function ${name} in db/functions/`);
  const keys = new Set<string>();
  const from = `\\(\\s*req\\s*->\\s*'${field}'\\s*\\)`;
  for (const m of fn.body.matchAll(new RegExp(`jsonb_to_recordset${from}\\s+AS\\s+\\w+\\s*\\(([^)]*)\\)`, 'gi'))) {
    for (const col of m[1].split(',')) keys.add(col.trim().split(/\s+/)[0]);
  }
  for (const m of fn.body.matchAll(new RegExp(`jsonb_array_elements${from}\\s+(?:AS\\s+)?(\\w+)`, 'gi'))) {
    for (const k of fn.body.matchAll(new RegExp(`(?<![\\w.])${m[1]}\\s*->>?\\s*'(\\w+)'`, 'g'))) keys.add(k[1]);
  }
  return keys;
}
