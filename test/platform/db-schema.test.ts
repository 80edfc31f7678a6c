// db/schema.sql is the schema a fresh migration produces, as db/functions/ is the functions' text
// (db-functions.test.ts): a migration added without regenerating it fails here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { openTestDatabase } from '../support/engine.ts';
import { normaliseDump, pgDump, SCHEMA_FILE } from '../../scripts/db-schema/dump.ts';

test('db/schema.sql is the schema of a freshly migrated database (regenerate it with npm run db:schema)', async (t) => {
  const fresh = await openTestDatabase();
  t.after(() => fresh.close());
  const expected = normaliseDump(pgDump(fresh.url));
  const committed = fs.readFileSync(SCHEMA_FILE, 'utf8');
  if (committed !== expected) {
    const a = committed.split('\n');
    const b = expected.split('\n');
    const line = a.findIndex((l, i) => l !== b[i]);
    assert.fail(
      `${SCHEMA_FILE} is stale: run \`npm run db:schema\` and commit the file.\n` +
        `First difference at line ${line + 1}:\n  committed: ${a[line] ?? '(end)'}\n  migrated:  ${b[line] ?? '(end)'}`,
    );
  }
});

test("the normalised dump keeps tables, indexes and triggers and leaves out functions and pg_dump's settings", () => {
  const schema = fs.readFileSync(SCHEMA_FILE, 'utf8');
  assert.match(schema, /^-- table: appointments\nCREATE TABLE public\.appointments \(/m);
  assert.match(schema, /CREATE TRIGGER appointments_occupancy AFTER INSERT ON public\.appointments/);
  assert.doesNotMatch(schema, /CREATE FUNCTION|^SET |set_config|Dumped from/m);
  const dump =
    '--\n-- Name: f(); Type: FUNCTION; Schema: public; Owner: -\n--\n\nCREATE FUNCTION public.f() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;\n\n' +
    "--\n-- Name: t; Type: TABLE; Schema: public; Owner: -\n--\n\nCREATE TABLE public.t (\n    id int\n);\n\nSET default_tablespace = '';\n";
  assert.equal(
    normaliseDump(dump).split('\n\n').slice(1).join('\n\n'),
    '-- table: t\nCREATE TABLE public.t (\n    id int\n);\n',
  );
});
