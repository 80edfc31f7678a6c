// The booking page's first screen formats dates, money and times without Intl (a first Intl
// formatter costs the page's longest task on a phone: booking-page/src/time.ts). These check that
// what it writes is what Intl's en-GB writes, so the page reads the same as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dayTitle, longDate, money, shortDate, slotOffset, zoneAt, setZoneNames } from '../../booking-page/src/time.ts';
import { zoneNames } from '../../src/booking-page/page-html.ts';

const intl = (date: string, o: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', ...o }).format(new Date(`${date}T12:00:00Z`));

test('dates are written as Intl en-GB writes them, every day of two years', () => {
  for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2028, 0, 1); t += 86_400_000) {
    const date = new Date(t).toISOString().slice(0, 10);
    assert.equal(shortDate(date), intl(date, { weekday: 'short', day: 'numeric', month: 'short' }));
    assert.equal(dayTitle(date), intl(date, { weekday: 'long', day: 'numeric', month: 'long' }));
    assert.equal(longDate(date), intl(date, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }));
  }
});

test('pounds and euros are written as Intl en-GB writes them; another currency through Intl', () => {
  for (const pence of [0, 5, 99, 100, 2500, 4050, 99_999, 100_000, 123_456_789, -1250]) {
    for (const currency of ['GBP', 'EUR', 'USD']) {
      assert.equal(
        money(pence, currency),
        new Intl.NumberFormat('en-GB', { style: 'currency', currency }).format(pence / 100),
        `${pence} ${currency}`,
      );
    }
  }
});

test("a slot's zone name comes from its offset and the names the server sends, across both clock changes", () => {
  setZoneNames(zoneNames('Europe/London', Date.parse('2027-01-01T00:00:00Z')));
  // 28 March 2027 (the clocks go forward at 01:00 GMT) and 31 October 2027 (01:30 happens twice).
  const cases = [
    ['2027-03-28', '00:30', '2027-03-28T00:30:00.000Z', 0, 'GMT'],
    ['2027-03-28', '02:30', '2027-03-28T01:30:00.000Z', 60, 'BST'],
    ['2027-10-31', '01:30', '2027-10-31T00:30:00.000Z', 60, 'BST'],
    ['2027-10-31', '01:30', '2027-10-31T01:30:00.000Z', 0, 'GMT'],
  ] as const;
  for (const [date, local, instant, offset, name] of cases) {
    assert.equal(slotOffset(date, local, instant), offset);
    assert.equal(zoneAt(offset, instant, 'Europe/London'), name);
  }
  // An offset the server did not send is named by Intl.
  setZoneNames({});
  assert.equal(zoneAt(60, '2027-07-01T09:00:00.000Z', 'Europe/London'), 'BST');
});

test('the server names each offset a zone takes over the coming year', () => {
  const at = Date.parse('2027-01-01T00:00:00Z');
  assert.deepEqual(zoneNames('Europe/London', at), { 0: 'GMT', 60: 'BST' });
  assert.deepEqual(zoneNames('Asia/Kolkata', at), { 330: 'GMT+5:30' });
  assert.deepEqual(Object.keys(zoneNames('America/New_York', at)).sort(), ['-240', '-300']);
});
