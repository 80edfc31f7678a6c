// GET /api/v1/customers/search
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call } from '../../support/http.ts';
import { feed } from '../activity/feed.ts';

const { app, db, fx } = await startTestApp({ now: '2026-06-01T09:00:00Z' });

async function setup() {
  const store = await fx.store();
  const token = await fx.merchantToken(store.id, { entitlements: [] });
  const search = async (q?: string, storeId = store.id) => {
    const res = await call(app, 'GET', '/api/v1/customers/search', { token, query: { store_id: storeId, q } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.customers as Array<{
      id: string;
      name: string | null;
      phone: string | null;
      email: string | null;
      last_seen: string | null;
    }>;
  };
  return { store, token, search };
}

describe('customer search', () => {
  it('a term of 2 or more characters filters by name, phone and email', async () => {
    const { store, search } = await setup();
    const ada = await fx.customer({ name: 'Ada Lovelace', email: 'ada@analytical.org', phone: '+447700900123' });
    const grace = await fx.customer({ name: 'Grace Hopper', email: 'grace@navy.mil', phone: '+447700900456' });
    await feed(app, store.id, { kind: 'stamp', customer_id: ada.id, created_at: '2026-05-30T10:00:00Z' });
    await feed(app, store.id, {
      kind: 'order',
      customer_id: grace.id,
      amount_pence: 100,
      created_at: '2026-05-31T10:00:00Z',
    });
    assert.deepEqual(await search('love'), [
      {
        id: ada.id,
        name: 'Ada Lovelace',
        phone: '+447700900123',
        email: 'ada@analytical.org',
        last_seen: '2026-05-30T10:00:00.000Z',
      },
    ]);
    assert.deepEqual(
      (await search('NAVY')).map((r) => r.id),
      [grace.id],
    );
    assert.deepEqual(
      (await search('ho')).map((r) => r.id),
      [grace.id],
    );
    assert.deepEqual(
      (await search('07700')).map((r) => r.id),
      [grace.id, ada.id],
      'most recently seen first',
    );
    assert.deepEqual(await search('nobody'), []);
  });

  it('a phone typed in any spelling finds the E.164 number', async () => {
    const { store, search } = await setup();
    const c = await fx.customer({ name: 'Phone Person', phone: '+447700900321' });
    const decoy = await fx.customer({ name: 'Decoy', phone: '+447700900999' });
    await fx.membership(store.id, c.id);
    await fx.membership(store.id, decoy.id);
    for (const spelling of [
      '07700 900321',
      '07700900321',
      '+44 7700 900321',
      '+447700900321',
      '447700900321',
      '(07700) 900-321',
      '0044 7700 900 321',
      '7700-900-321',
      '900 321',
    ]) {
      assert.deepEqual(
        (await search(spelling)).map((r) => r.id),
        [c.id],
        spelling,
      );
    }
  });

  it('a shorter or empty term returns the 20 most recently seen customers', async () => {
    const { store, search } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) {
      const c = await fx.customer({ name: `Zed ${i}` });
      await feed(app, store.id, {
        kind: 'stamp',
        customer_id: c.id,
        created_at: new Date(Date.parse('2026-05-01T10:00:00Z') + i * 3_600_000).toISOString(),
      });
      ids.unshift(c.id);
    }
    for (const q of [undefined, '', 'Z', ' ', ' Z ']) {
      const rows = await search(q);
      assert.deepEqual(
        rows.map((r) => r.id),
        ids.slice(0, 20),
        JSON.stringify(q),
      );
    }
    assert.equal((await search('Zed')).length, 20, 'a filtering term is capped at 20 rows too');
  });

  it("archived, erased and other stores' customers are never found", async () => {
    const { store, search } = await setup();
    const other = await fx.store();
    const kept = await fx.customer({ name: 'Sam Kept' });
    const archived = await fx.customer({ name: 'Sam Archived' });
    const erased = await fx.customer({ name: 'Sam Erased' });
    const theirs = await fx.customer({ name: 'Sam Theirs' });
    for (const c of [kept, archived, erased]) await feed(app, store.id, { kind: 'stamp', customer_id: c.id });
    await feed(app, other.id, { kind: 'stamp', customer_id: theirs.id });
    await db.query('UPDATE store_customers SET archived = true WHERE store_id = $1 AND customer_id = $2', [
      store.id,
      archived.id,
    ]);
    await db.query('UPDATE customers SET erased_at = now() WHERE id = $1', [erased.id]);
    assert.deepEqual(
      (await search('Sam')).map((r) => r.name),
      ['Sam Kept'],
    );
    assert.deepEqual(
      (await search()).map((r) => r.name),
      ['Sam Kept'],
    );
    assert.deepEqual(
      (await search('Sam', other.id)).map((r) => r.name),
      ['Sam Kept'],
      "the token's store wins",
    );
  });

  it('refuses unknown parameters and a missing store_id', async () => {
    const { store, token } = await setup();
    for (const query of [{ store_id: store.id, term: 'x' }, { q: 'ab' }, { store_id: store.id, q: 'x'.repeat(201) }]) {
      const res = await call(app, 'GET', '/api/v1/customers/search', { token, query });
      assert.equal(res.status, 400, JSON.stringify(query));
    }
  });
});
