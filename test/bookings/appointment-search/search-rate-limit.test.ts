import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../../support/app.ts';
import { call, errorCode } from '../../support/http.ts';

const t = await startTestApp({ env: { RATE_LIMIT_SEARCH_PER_MIN: '2' } });
const store = await t.fx.store();
const token = await t.fx.merchantToken(store.id);

test('appointment search is rate limited: past the limit it answers 429 RATE_LIMITED in the envelope', async () => {
  const search = () =>
    call(t.app, 'GET', '/api/v1/bookings/appointments/search', { token, query: { store_id: store.id, q: 'alice' } });
  assert.equal((await search()).status, 200);
  assert.equal((await search()).status, 200);
  const limited = await search();
  assert.equal(limited.status, 429);
  assert.equal(errorCode(limited), 'RATE_LIMITED');
  assert.ok(limited.headers['retry-after']);
  // The diary is not under the search limit.
  const diary = await call(t.app, 'GET', '/api/v1/bookings/diary', {
    token,
    query: { store_id: store.id, from_date: '2026-06-01', to_date: '2026-06-01' },
  });
  assert.equal(diary.status, 200);
});
