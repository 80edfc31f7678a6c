// Every relative link in the docs resolves: README.md and docs/**/*.md (the decisions index
// included), to a file that exists and, for a link to a heading (#anchor) of a Markdown file, to a
// heading that exists. No database: it reads files only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

function markdownFiles(): string[] {
  const docs = fs.globSync('docs/**/*.md', { cwd: root });
  return ['README.md', ...docs].sort();
}

/** GitHub's anchor for a heading: lower-cased, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[`*_]/g, '')
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = fs.readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    out.add(n ? `${base}-${n}` : base);
    seen.set(base, n + 1);
  }
  return out;
}

/** [text](target) and [text]: target reference definitions, outside code blocks and code spans. */
function linksOf(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const inline = [...prose.matchAll(/\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  const refs = [...prose.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1]);
  return [...inline, ...refs];
}

test('every relative link in README.md and docs/ points at a file that exists, and at a heading it has', () => {
  const broken: string[] = [];
  let checked = 0;
  for (const rel of markdownFiles()) {
    const file = path.join(root, rel);
    for (const link of linksOf(fs.readFileSync(file, 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('//')) continue; // http:, mailto:, ...
      checked++;
      const [target, anchor] = link.split('#');
      const resolved = target ? path.resolve(path.dirname(file), decodeURIComponent(target)) : file;
      if (!fs.existsSync(resolved)) {
        broken.push(`${rel}: ${link} (no such file)`);
        continue;
      }
      if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor.toLowerCase())) {
        broken.push(`${rel}: ${link} (no such heading)`);
      }
    }
  }
  assert.deepEqual(broken, []);
  assert.ok(checked > 20, `only ${checked} links checked: the scan finds none`);
});

test('the scanner reads inline and reference links, never code, and slugs headings as GitHub does', () => {
  assert.deepEqual(linksOf('see [a](a.md#x) and `[b](b.md)`\n```\n[d](d.md)\n```\n[c]: c.md'), ['a.md#x', 'c.md']);
  assert.equal(slug('Write path: one statement (issue 18)'), 'write-path-one-statement-issue-18');
});
