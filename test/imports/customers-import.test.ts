import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../support/app.ts';
import { call, errorCode } from '../support/http.ts';

const t = await startTestApp({ now: '2026-06-01T09:00:00Z' });
const { app, db, fx } = t;

async function shop(name = 'Salon') {
  const store = await fx.store({ name });
  return { store, token: await fx.merchantToken(store.id) };
}

const upload = (token: string, csv: string | Buffer, query: Record<string, string> = {}, path = 'customers') =>
  call(app, 'POST', `/api/v1/imports/${path}`, { token, body: csv, query, headers: { 'content-type': 'text/csv' } });

const countCustomers = async (storeId: string) =>
  Number((await db.query('SELECT count(*) FROM store_customers WHERE store_id = $1', [storeId])).rows[0].count);

const file = (p: string) =>
  [
    'First Name,Last Name,Email,Mobile,Notes,Marketing',
    'Ann,Able,ann@example.com,07812 345601,Likes tea,yes',
    'Bob,Baker,BOB@Example.com,+44 7812 345602,,no',
    'Cat,Cole,not-an-email,07812 345603,,',
    'Dan,Dale,dan@example.com,020 7946 0000,,',
    'Eve,Ewe,ann@example.com,07812 345605,,',
    `${'X'.repeat(81)},,long@example.com,,,`,
    'Fay,Fox,,07812 345607,,',
  ]
    .join('\n')
    .replace(/@example\.com/gi, `@${p}.example.com`)
    .replaceAll('7812 3456', `7812 34${p}`);

test("a dry run answers the real run's report and writes nothing", async () => {
  const A = await shop();
  const FILE = file('10');
  const dry = await upload(A.token, FILE, { store_id: A.store.id, dry_run: 'true' });
  assert.equal(dry.status, 200, JSON.stringify(dry.body));
  assert.equal(await countCustomers(A.store.id), 0);
  const real = await upload(A.token, FILE, { store_id: A.store.id });
  assert.equal(real.status, 200);
  assert.deepEqual({ ...dry.body, dry_run: false }, real.body);
  assert.equal(dry.body.dry_run, true);
});

test('good rows are written, bad rows are reported by line with their field and code', async () => {
  const A = await shop();
  const res = await upload(A.token, file('20'), { store_id: A.store.id });
  assert.equal(res.status, 200);
  assert.deepEqual(
    {
      rows: res.body.rows,
      created: res.body.created,
      updated: res.body.updated,
      unchanged: res.body.unchanged,
      skipped: res.body.skipped,
    },
    { rows: 7, created: 3, updated: 0, unchanged: 0, skipped: 4 },
  );
  assert.deepEqual(
    res.body.errors.map((e: any) => [e.row, e.field, e.code]),
    [
      [4, 'email', 'INVALID_EMAIL'],
      [5, 'mobile', 'INVALID_PHONE'],
      [6, 'email', 'DUPLICATE_IN_FILE'],
      [7, 'name', 'NAME_TOO_LONG'],
    ],
  );
  const rows = (
    await db.query(
      `SELECT c.name, c.email, c.phone, sc.merchant_note, sc.marketing_opted_in FROM store_customers sc JOIN customers c ON c.id = sc.customer_id
      WHERE sc.store_id = $1 ORDER BY c.name`,
      [A.store.id],
    )
  ).rows;
  assert.deepEqual(rows, [
    {
      name: 'Ann Able',
      email: 'ann@20.example.com',
      phone: '+447812342001',
      merchant_note: 'Likes tea',
      marketing_opted_in: true,
    },
    {
      name: 'Bob Baker',
      email: 'bob@20.example.com',
      phone: '+447812342002',
      merchant_note: null,
      marketing_opted_in: false,
    },
    { name: 'Fay Fox', email: null, phone: '+447812342007', merchant_note: null, marketing_opted_in: false },
  ]);
  // Events say where the change came from; no message is planned for anyone.
  const events = (
    await db.query("SELECT type, data->>'source' AS source FROM events WHERE store_id = $1 ORDER BY seq", [A.store.id])
  ).rows;
  assert.deepEqual(
    events,
    [1, 2, 3].map(() => ({ type: 'customer.created', source: 'import' })),
  );
  assert.equal(
    Number((await db.query('SELECT count(*) FROM messages WHERE store_id = $1', [A.store.id])).rows[0].count),
    0,
  );
});

test('the same file again creates nothing: matched by external_id, else email, else mobile', async () => {
  const A = await shop();
  const file = 'id;name;email;phone\n1;Ann;ann2@example.com;07812 345611\n2;Bob;;07812 345612\n3;Cy;cy2@example.com;\n';
  const first = await upload(A.token, file, { store_id: A.store.id });
  assert.equal(first.body.created, 3, JSON.stringify(first.body));
  const again = await upload(A.token, file, { store_id: A.store.id });
  assert.deepEqual([again.body.created, again.body.updated, again.body.unchanged, again.body.skipped], [0, 0, 3, 0]);
  assert.equal(await countCustomers(A.store.id), 3);
  // Without the ids, email and then mobile find the same people.
  const noIds = await upload(A.token, 'name,email,mobile\nAnn,ann2@example.com,\nBob,,07812 345612\n', {
    store_id: A.store.id,
  });
  assert.deepEqual([noIds.body.created, noIds.body.unchanged], [0, 2]);
  assert.equal(await countCustomers(A.store.id), 3);
});

test('a person known elsewhere joins the store with blanks filled, never overwritten', async () => {
  const A = await shop();
  const known = await fx.customer({ name: 'Known Name', email: 'known@example.com', phone: null });
  const res = await upload(A.token, 'name,email,mobile,notes\nOther Name,known@example.com,07812 345621,VIP\n', {
    store_id: A.store.id,
  });
  assert.deepEqual([res.body.created, res.body.updated], [0, 1]);
  const row = (
    await db.query(
      'SELECT c.name, c.phone, sc.merchant_note FROM customers c JOIN store_customers sc ON sc.customer_id = c.id WHERE c.id = $1 AND sc.store_id = $2',
      [known.id, A.store.id],
    )
  ).rows[0];
  assert.deepEqual(row, { name: 'Known Name', phone: '+447812345621', merchant_note: 'VIP' });
  const ev = (await db.query("SELECT data FROM events WHERE store_id = $1 AND type = 'customer.updated'", [A.store.id]))
    .rows[0].data;
  assert.equal(ev.source, 'import');
  assert.deepEqual(ev.changed_fields, ['phone', 'relationship']);
});

test('a BOM, CRLF line ends and a mapping for unknown columns are accepted', async () => {
  const A = await shop();
  const csv = '\uFEFFClient Ref,Full Name,E-mail,Birthday\r\nR1,Gail Green,gail@example.com,1990-01-01\r\n';
  const refused = await upload(A.token, csv, { store_id: A.store.id });
  assert.equal(refused.status, 400);
  assert.equal(errorCode(refused), 'UNKNOWN_COLUMN');
  assert.match(refused.body.error.message, /Client Ref/);
  const res = await upload(A.token, csv, {
    store_id: A.store.id,
    mapping: JSON.stringify({ 'Client Ref': 'external_id', Birthday: null }),
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.created, 1);
  const row = (
    await db.query(
      'SELECT c.name, sc.external_id FROM store_customers sc JOIN customers c ON c.id = sc.customer_id WHERE sc.store_id = $1',
      [A.store.id],
    )
  ).rows;
  assert.deepEqual(row, [{ name: 'Gail Green', external_id: 'R1' }]);
});

test('bad files answer 4xx in the envelope and change nothing', async () => {
  const A = await shop();
  const cases: Array<[string | Buffer, number, string, Record<string, string>?]> = [
    ['', 400, 'IMPORT_EMPTY'],
    ['name,email\n', 400, 'IMPORT_EMPTY'],
    ['name,email,favourite colour\nAnn,a@example.com,red\n', 400, 'UNKNOWN_COLUMN'],
    [Buffer.from('name,email\nJos\xe9,jose@example.com\n', 'latin1'), 400, 'INVALID_ENCODING'],
    [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0]), 400, 'INVALID_ENCODING'],
    ['name,email\n"Ann,ann@example.com\n', 400, 'INVALID_CSV'],
    ['name,email\nAnn,ann3@example.com\n', 400, 'VALIDATION_FAILED', { mapping: '{not json' }],
  ];
  for (const [body, status, code, extra] of cases) {
    const res = await upload(A.token, body, { store_id: A.store.id, ...extra });
    assert.equal(res.status, status, `${code}: ${JSON.stringify(res.body)}`);
    assert.equal(errorCode(res), code);
  }
  // A file refused late (a bad byte after many good rows) rolls back the rows before it.
  const good = Array.from({ length: 600 }, (_, i) => `Person ${i},p${i}@example.com`).join('\n');
  const late = await upload(
    A.token,
    Buffer.concat([Buffer.from(`name,email\n${good}\n`), Buffer.from('Jos\xe9,late@example.com\n', 'latin1')]),
    { store_id: A.store.id },
  );
  assert.equal(errorCode(late), 'INVALID_ENCODING');
  assert.equal(await countCustomers(A.store.id), 0);
  // JSON is not accepted here.
  const json = await call(app, 'POST', '/api/v1/imports/customers', {
    token: A.token,
    body: { name: 'x' },
    query: { store_id: A.store.id },
  });
  assert.equal(json.status, 415);
  assert.equal(errorCode(json), 'UNSUPPORTED_MEDIA_TYPE');
});

test('the file has its own size limit, not BODY_LIMIT_BYTES', async () => {
  const A = await shop();
  // Far above the default 256 KiB body limit.
  const rows = Array.from({ length: 6000 }, (_, i) => `Person ${i} ${'x'.repeat(20)},big${i}@example.com`).join('\n');
  const res = await upload(A.token, `name,email\n${rows}\n`, { store_id: A.store.id, dry_run: 'true' });
  assert.equal(res.status, 200, JSON.stringify(res.body).slice(0, 300));
  assert.equal(res.body.created, 6000);
  const small = await startTestApp({ env: { IMPORT_LIMIT_BYTES: '2048' } });
  const store = await small.fx.store();
  const over = await call(small.app, 'POST', '/api/v1/imports/customers', {
    token: await small.fx.merchantToken(store.id),
    body: `name,email\n${rows}\n`,
    headers: { 'content-type': 'text/csv' },
  });
  assert.equal(over.status, 413);
  assert.equal(errorCode(over), 'IMPORT_TOO_LARGE');
});

test('a token without merchant:write cannot import', async () => {
  const store = await fx.store();
  const token = await fx.merchantToken(store.id, { scopes: ['merchant:read'] });
  const res = await upload(token, 'name,email\nA,a9@example.com\n');
  assert.equal(res.status, 403);
  assert.equal(errorCode(res), 'INSUFFICIENT_SCOPE');
});
