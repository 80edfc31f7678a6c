// The role table the docs show (docs/roles.md, written by npm run docs:roles) is the one the guard enforces.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ROLE_TABLE, ROLES, recordRuleFor, roleMay } from '../../src/staff/roles.ts';

test('docs/roles.md shows exactly src/staff/roles.ts, row for row (npm run docs:roles rewrites it)', () => {
  const doc = readFileSync(new URL('../../docs/roles.md', import.meta.url), 'utf8');
  const rows = [...doc.matchAll(/^\| `(\w+)` \| (.+) \|$/gm)].map(
    (m) => [m[1], m[2].split(' | ').map((c) => c.trim())] as const,
  );
  assert.deepEqual(rows.map(([op]) => op).sort(), Object.keys(ROLE_TABLE).sort());
  for (const [op, cells] of rows) {
    // Allowed or not, then narrowed to the person's own records or not.
    const roles = [...ROLES, null];
    assert.deepEqual(
      cells.map((c) => c !== '-'),
      roles.map((r) => roleMay(op, r)),
      op,
    );
    assert.deepEqual(
      cells.map((c) => c !== '-' && c !== 'yes'),
      roles.map((r) => roleMay(op, r) && !!recordRuleFor(op, r)),
      op,
    );
  }
});
