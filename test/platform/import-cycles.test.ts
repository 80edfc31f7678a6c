// No import cycle among src/ files: every module's imports (type-only ones included, since they
// tie the two files' definitions together just the same) run one way. Reads files only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { importGraph } from './import-graph.ts';

const root = path.resolve(import.meta.dirname, '../..');

/** The cycles of a graph, each as its files (strongly connected components of two or more, or a self-import). */
export function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || graph.get(v)!.includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

test('no two src/ files import each other, directly or through others', () => {
  const files = fs.globSync('src/**/*.ts', { cwd: root }).map((f) => f.split(path.sep).join('/'));
  assert.ok(files.length > 100);
  const graph = importGraph(files, (f) => fs.readFileSync(path.join(root, f), 'utf8'));
  assert.deepEqual(cycles(graph), []);
});

test('the check sees a cycle through a type-only import', () => {
  const sources: Record<string, string> = {
    'src/a.ts': "import { b } from './b.ts';",
    'src/b.ts': "import type { C } from './c/c.ts';",
    'src/c/c.ts': "export type { A } from '../a.ts';",
    'src/d.ts': "import { a } from './a.ts';",
  };
  const graph = importGraph(Object.keys(sources), (f) => sources[f]);
  assert.deepEqual(cycles(graph), [['src/a.ts', 'src/b.ts', 'src/c/c.ts']]);
});
