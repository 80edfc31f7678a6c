// Layers point one way (docs/architecture.md, "Layers"): a src/ file imports only from its own layer
// folder, a lower layer, or a same-level folder this file names. Type-only imports count, as in the
// cycle check (import-cycles.test.ts), whose import graph this reuses. Reads files only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { importGraph } from './import-graph.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** Lowest first. A name is a folder under src/ or a file directly in src/ (without .ts). */
export const LAYERS: readonly (readonly string[])[] = [
  ['platform'],
  // src/config.ts and every src/**/*.config.ts: a feature's section parser sits in the config layer
  // (it reads the environment record config.ts hands over and imports nothing but platform).
  ['config'],
  ['events'],
  ['notifications', 'webhooks', 'console'],
  ['customers', 'staff'],
  ['bookings'],
  ['classes', 'imports', 'reports', 'booking-page', 'admin'],
  ['routes'],
  ['app', 'worker'],
  ['server', 'tracing-preload'],
];

/** Same-level imports that are declared, as "from -> to" between folders. */
const SAME_LEVEL = new Set<string>([]);

/** The layer unit of a src/ file: "config" for a feature's config file, else its folder or its own name. */
export function unitOf(file: string): string {
  if (file === 'src/config.ts' || (file.endsWith('.config.ts') && !file.startsWith('src/platform/'))) return 'config';
  const parts = file.split('/');
  return parts.length > 2 ? parts[1] : parts[1].replace(/\.ts$/, '');
}

function levelOf(unit: string): number {
  const level = LAYERS.findIndex((names) => names.includes(unit));
  if (level < 0) throw new Error(`src unit ${unit} has no layer: add it to LAYERS and docs/architecture.md`);
  return level;
}

/** Every import of the graph that points up a layer or sideways without a declaration. */
export function upArrows(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [file, imports] of graph) {
    const from = unitOf(file);
    for (const target of imports) {
      if (!target.startsWith('src/')) continue;
      const to = unitOf(target);
      if (from === to) continue;
      const up = levelOf(to) > levelOf(from);
      const sideways = levelOf(to) === levelOf(from) && !SAME_LEVEL.has(`${from} -> ${to}`);
      if (up || sideways) found.push(`${file} -> ${target}`);
    }
  }
  return [...new Set(found)].sort();
}

test('no src/ file imports a layer above its own', () => {
  const files = fs.globSync('src/**/*.ts', { cwd: root }).map((f) => f.split(path.sep).join('/'));
  assert.ok(files.length > 100);
  const arrows = upArrows(importGraph(files, (f) => fs.readFileSync(path.join(root, f), 'utf8')));
  assert.deepEqual(arrows, [], `up-arrows (${arrows.length}):\n  ${arrows.join('\n  ')}`);
});

test('the check sees an up-arrow, a sideways arrow and a type-only one, and passes a config parser', () => {
  const sources: Record<string, string> = {
    'src/platform/a.ts': "import type { C } from '../customers/c.ts';",
    'src/customers/c.ts': "import { s } from '../staff/s.ts'; import { p } from '../platform/a.ts';",
    'src/staff/s.ts': "import { b } from '../bookings/b.ts';",
    'src/bookings/b.ts': "import { c } from '../customers/c.ts'; import { k } from './k.ts';",
    'src/bookings/k.ts': '',
    'src/config.ts': "import { x } from './staff/staff.config.ts';",
    'src/staff/staff.config.ts': '',
  };
  const graph = importGraph(Object.keys(sources), (f) => sources[f]);
  assert.deepEqual(upArrows(graph), [
    'src/customers/c.ts -> src/staff/s.ts',
    'src/platform/a.ts -> src/customers/c.ts',
    'src/staff/s.ts -> src/bookings/b.ts',
  ]);
});
