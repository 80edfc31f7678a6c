// The byte-budgeted store of the availability cache (src/bookings/availability/byte-lru.ts): it keeps
// at most its budget, forgets the least recently used first, and never keeps one value too large.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ByteLru } from '../../../src/bookings/availability/byte-lru.ts';

test('past its budget the least recently used value goes first; a use counts as recent', () => {
  const lru = new ByteLru<string>(100);
  lru.set('a', 'A', 25);
  lru.set('b', 'B', 25);
  lru.set('c', 'C', 25);
  assert.equal(lru.get('a'), 'A'); // now b is the least recently used
  lru.set('d', 'D', 25);
  assert.deepEqual([lru.size, lru.bytes], [4, 100]);
  lru.set('e', 'E', 25);
  assert.equal(lru.get('b'), undefined, 'b went first');
  assert.deepEqual(
    ['a', 'c', 'd', 'e'].map((k) => lru.get(k)),
    ['A', 'C', 'D', 'E'],
  );
  assert.deepEqual([lru.size, lru.bytes], [4, 100]);
});

test('a value over a quarter of the budget is not kept, and replacing or deleting one keeps the count right', () => {
  const lru = new ByteLru<string>(100);
  lru.set('a', 'A', 20);
  lru.set('a', 'A2', 26);
  assert.deepEqual([lru.get('a'), lru.size, lru.bytes], [undefined, 0, 0], 'too large: the old value is gone too');
  lru.set('b', 'B', 10);
  lru.set('b', 'B2', 15);
  assert.deepEqual([lru.get('b'), lru.bytes], ['B2', 15]);
  lru.delete('b');
  lru.delete('missing');
  assert.deepEqual([lru.size, lru.bytes], [0, 0]);
});
