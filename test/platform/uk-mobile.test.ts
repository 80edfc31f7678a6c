import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ukMobileE164 } from '../../src/platform/uk-mobile.ts';

// National significant numbers of real-looking UK mobiles (never Ofcom's 07700 900xxx drama range).
const NATIONAL = ['7812345678', '7400123456', '7911123456', '7501234567', '7123456789', '7624123456'];

const spelling = fc
  .record({
    national: fc.constantFrom(...NATIONAL),
    prefix: fc.constantFrom('0', '+44', '44', '0044', '+44 (0)', '+44(0)', '+44 '),
    cuts: fc.uniqueArray(fc.integer({ min: 1, max: 9 }), { maxLength: 4 }),
    sep: fc.constantFrom(' ', '-', '.', ''),
    pad: fc.constantFrom('', ' ', '  '),
  })
  .map(({ national, prefix, cuts, sep, pad }) => {
    const at = [...cuts].sort((a, b) => a - b);
    let out = '';
    let from = 0;
    for (const c of at) {
      out += national.slice(from, c) + sep;
      from = c;
    }
    return { national, text: `${pad}${prefix}${out}${national.slice(from)}${pad}` };
  });

test('any spelling of a UK mobile normalises to the same E.164 number', () => {
  fc.assert(
    fc.property(spelling, ({ national, text }) => {
      assert.equal(ukMobileE164(text), `+44${national}`, text);
    }),
    { numRuns: 500 },
  );
});

test('the E.164 form is a fixed point', () => {
  for (const n of NATIONAL) assert.equal(ukMobileE164(`+44${n}`), `+44${n}`);
});

test('a UK mobile with a digit missing or extra is refused', () => {
  fc.assert(
    fc.property(fc.constantFrom(...NATIONAL), fc.integer({ min: 1, max: 9 }), fc.boolean(), (national, at, drop) => {
      const changed = drop
        ? national.slice(0, at) + national.slice(at + 1)
        : national.slice(0, at) + '5' + national.slice(at);
      assert.equal(ukMobileE164(`0${changed}`), null, changed);
    }),
  );
});

test('fixed lines, pagers, foreign mobiles and the drama range are not UK mobiles', () => {
  for (const s of [
    '020 7946 0000',
    '0161 496 0000',
    '07624 1234',
    '076 2312 3456',
    '+353 85 123 4567',
    '+1 202 555 0123',
    '07700 900123',
    '0800 123 4567',
    '',
  ]) {
    assert.equal(ukMobileE164(s), null, s);
  }
});
