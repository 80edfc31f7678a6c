// Random sequences of status operations against a small model of the spec's status table: after
// every call the answer and the database agree with the model, and the money invariants hold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { errorCode } from '../../support/http.ts';
import { booked, count, forceStatus, post, row, world } from './helpers.ts';

const w = await world({ now: '2026-06-01T09:00:00Z' });
const BEFORE_START = '2026-06-01T09:00:00Z';

type Status = 'pending_payment' | 'confirmed' | 'checked_in' | 'completed' | 'cancelled' | 'no_show';
type Op = 'check-in' | 'complete' | 'no-show' | 'cancel' | 'settle' | 'clock-past-start';
interface Model {
  status: Status;
  price: number;
  settled: number;
  due: boolean;
}
interface Expect {
  ok: boolean;
  code?: string;
  body?: Record<string, unknown>;
}

/** The spec's table (plus the recorded decisions for pending_payment and settle). */
function step(m: Model, op: Exclude<Op, 'clock-past-start'>): Expect {
  const s = m.status;
  const to = (status: Status, noop = false): Expect => {
    m.status = status;
    return { ok: true, body: { status, noop } };
  };
  switch (op) {
    case 'check-in':
      return s === 'checked_in'
        ? to(s, true)
        : s === 'confirmed'
          ? to('checked_in')
          : { ok: false, code: 'INVALID_TRANSITION' };
    case 'complete':
      if (s === 'completed') return to(s, true);
      return s === 'confirmed' || s === 'checked_in' ? to('completed') : { ok: false, code: 'INVALID_TRANSITION' };
    case 'no-show':
      if (s === 'no_show') return to(s, true);
      if (s === 'checked_in') return { ok: false, code: 'ALREADY_CHECKED_IN' };
      if (s === 'confirmed') return m.due ? to('no_show') : { ok: false, code: 'NOT_YET_DUE' };
      return { ok: false, code: 'INVALID_TRANSITION' };
    case 'cancel':
      if (s === 'cancelled') return { ok: true, body: { cancelled: true, noop: true } };
      if (s === 'completed') return { ok: true, body: { cancelled: false, noop: true } };
      if (s === 'no_show') return { ok: false, code: 'INVALID_TRANSITION' };
      m.status = 'cancelled';
      return { ok: true, body: { cancelled: true, noop: false } };
    case 'settle': {
      if (s === 'no_show') return { ok: false, code: 'NO_SHOW_NOT_SETTLEABLE' };
      if (s === 'cancelled' || s === 'pending_payment') return { ok: false, code: 'INVALID_TRANSITION' };
      const owed = m.price - m.settled;
      if (owed > 0) {
        m.settled += owed;
        m.status = 'completed';
        return {
          ok: true,
          body: { outcome: 'settled', collected_pence: owed, settled_total_pence: m.settled, status: 'completed' },
        };
      }
      return {
        ok: true,
        body: {
          outcome: m.settled > 0 ? 'already_settled' : 'nothing_owed',
          collected_pence: 0,
          settled_total_pence: m.settled,
          status: s,
        },
      };
    }
  }
}

const arbOps = fc.array(
  fc.constantFrom<Op>('check-in', 'complete', 'no-show', 'cancel', 'settle', 'clock-past-start'),
  { minLength: 1, maxLength: 10 },
);
const arbStart = fc.constantFrom<Status>('confirmed', 'confirmed', 'confirmed', 'pending_payment');
let day = 0;

test('every sequence of status operations follows the status table; settled_pence is the sum of settlements', async () => {
  await fc.assert(
    fc.asyncProperty(arbStart, fc.constantFrom(0, 2500), arbOps, async (start, price, ops) => {
      day++;
      w.t.clock.set(BEFORE_START);
      const startsAt = new Date(Date.parse('2026-06-02T10:00:00Z') + day * 86_400_000);
      const id = await booked(w, {
        starts_at: startsAt.toISOString(),
        ends_at: new Date(startsAt.getTime() + 3_600_000).toISOString(),
        price_pence: price,
      });
      if (start !== 'confirmed') await forceStatus(w, id, start);
      const m: Model = { status: start, price, settled: 0, due: false };
      for (const op of ops) {
        if (op === 'clock-past-start') {
          w.t.clock.set(new Date(startsAt.getTime() + 60_000));
          m.due = true;
          continue;
        }
        const expected = step(m, op);
        const res = await post(
          w,
          op,
          op === 'settle' ? { appointment_id: id, method: 'cash' } : { appointment_id: id },
        );
        if (expected.ok) {
          assert.equal(res.status, 200, `${op}: ${JSON.stringify(res.body)}`);
          for (const [k, v] of Object.entries(expected.body!)) assert.equal(res.body[k], v, `${op} ${k}`);
        } else {
          assert.equal(errorCode(res), expected.code, `${op} from ${JSON.stringify(m)}`);
        }
        const r = await row(w, id);
        assert.equal(r.status, m.status, `status after ${op}`);
        assert.equal(r.settled_pence, m.settled);
        assert.equal(
          await count(w, 'SELECT COALESCE(sum(amount_pence), 0) AS n FROM settlements WHERE appointment_id = $1', [id]),
          m.settled,
        );
      }
    }),
    { numRuns: 60 },
  );
  w.t.clock.set(BEFORE_START);
});
