// The import graph of src/, shared by the cycle check (import-cycles.test.ts) and the layer check
// (layers.test.ts). Reads source text only: no module is loaded.
import path from 'node:path';

/** Each src/ file and the src/ files it imports (static, re-exports and dynamic import()). */
export function importGraph(files: string[], read: (file: string) => string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = read(file);
    const specifiers = [
      ...text.matchAll(/^\s*(?:import|export)\s[^;'"]*?from\s+['"]([^'"]+)['"]/gm),
      ...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm),
      ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
    ].map((m) => m[1]);
    graph.set(
      file,
      specifiers
        .filter((s) => s.startsWith('.'))
        .map((s) => path.posix.normalize(path.posix.join(path.posix.dirname(file), s))),
    );
  }
  return graph;
}
