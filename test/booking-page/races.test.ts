// Races on the booking page, on both engines (the embedded one is real PostgreSQL too): two browsers holding one slot at once, through two app instances
// (each with its own pool, in this process; the reliability proofs race separate processes); a confirm
// sent twice at once. The exclusion constraints decide; nobody checks and then inserts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { call } from '../support/http.ts';
import { BOOK, pageHold, pageShop, signIn, solved } from './support.ts';

const T10 = '2026-06-02T10:00:00.000Z';

test('two browsers hold one slot at once (two app instances): exactly one gets it, the other holds nothing', async () => {
  const w = await pageShop();
  const other = await w.t.sibling();
  for (let round = 0; round < 5; round++) {
    const startsAt = new Date(Date.parse(T10) + round * 3_600_000).toISOString();
    const [a, b] = [await solved(w.t.app), await solved(w.t.app)];
    const results = await Promise.all([
      pageHold(w, startsAt, { altcha: a, unitId: w.units[0], ip: `10.0.${round}.1` }),
      pageHold(w, startsAt, { altcha: b, unitId: w.units[0], ip: `10.0.${round}.2`, app: other }),
    ]);
    const statuses = results.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 409], JSON.stringify(results.map((r) => r.body)));
    const live = await w.t.db.query(
      'SELECT count(*)::int AS n FROM holds WHERE starts_at = $1 AND released_at IS NULL',
      [startsAt],
    );
    assert.equal(live.rows[0].n, 1);
  }
});

test('one hold confirmed twice at once makes one appointment; both answers name it', async () => {
  const w = await pageShop();
  const held = await pageHold(w, T10);
  const me = await signIn(w, 'twice@example.com');
  const send = () =>
    call(w.t.app, 'POST', `${BOOK}/holds/${held.body.hold.id}/confirm`, {
      token: me.token,
      headers: { 'x-page-session': held.body.page_session },
      body: {},
    });
  const [x, y] = await Promise.all([send(), send()]);
  assert.equal(x.status, 200, JSON.stringify(x.body));
  assert.equal(y.status, 200, JSON.stringify(y.body));
  assert.equal(x.body.appointment.id, y.body.appointment.id);
  assert.deepEqual([x.body.reused, y.body.reused].sort(), [false, true]);
  assert.equal((await w.t.db.query('SELECT count(*)::int AS n FROM appointments')).rows[0].n, 1);
});
