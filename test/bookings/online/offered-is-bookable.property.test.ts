// Property: every offered slot can be held, a start that is not offered is refused by hold and by
// confirm, and no slot is ever an hour off; over generated stores in five zones on DST-change
// days and ordinary days, with split shifts, buffers, processing time, notice, horizon, existing
// bookings, holds and time-off.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startTestApp } from '../../support/app.ts';
import { call } from '../../support/http.ts';
import { confirm, hold, HOLDS, putHours, search, setService, setStore, type Shop } from './helpers.ts';

const t = await startTestApp({ now: '2027-01-01T00:00:00Z' });

// Each zone with a DST-change day (or, for Phoenix and Kolkata, a day others change on) and an ordinary day.
const ZONES: Record<string, string[]> = {
  'Europe/London': ['2027-03-28', '2027-10-31', '2027-06-15'],
  'America/New_York': ['2027-03-14', '2027-11-07', '2027-07-01'],
  'America/Phoenix': ['2027-03-14', '2027-11-07'],
  'Asia/Kolkata': ['2027-03-28', '2027-10-31'],
  'Australia/Lord_Howe': ['2027-04-04', '2027-10-03', '2027-01-20'],
};

const hhmm = (m: number) =>
  m === 1440 ? '24:00' : `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
const localParts = (instant: string | number, tz: string) => {
  const f = new Intl.DateTimeFormat('en-CA', {
    timeZone: tz,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  const p = Object.fromEntries(f.formatToParts(new Date(instant)).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
};

/** Up to three non-overlapping intervals from sorted cut points (minutes of the day, 30-minute grid). */
const shifts = fc
  .uniqueArray(fc.integer({ min: 0, max: 48 }), { minLength: 2, maxLength: 6 })
  .map((cuts) => cuts.sort((a, b) => a - b).map((c) => c * 30))
  .map((cuts) => {
    const out: Array<{ open: string; close: string }> = [];
    for (let i = 0; i + 1 < cuts.length; i += 2) out.push({ open: hhmm(cuts[i]), close: hhmm(cuts[i + 1]) });
    return out;
  });

const world = fc.record({
  zone: fc.constantFrom(...Object.keys(ZONES)),
  dayPick: fc.nat(),
  units: fc.array(shifts, { minLength: 1, maxLength: 2 }),
  // Night shifts on DST days: the change happens between 00:00 and 03:00 local.
  nightShift: fc.boolean(),
  step: fc.constantFrom(10, 15, 20, 30, 45, 60),
  notice: fc.constantFrom(0, 30, 90, 600),
  horizonDays: fc.integer({ min: 1, max: 5 }),
  // Now: 0 to 60 hours before the day starts.
  nowBefore: fc.integer({ min: 0, max: 60 }),
  duration: fc.integer({ min: 1, max: 18 }).map((n) => n * 5),
  bufferBefore: fc.constantFrom(0, 5, 15),
  bufferAfter: fc.constantFrom(0, 10),
  processing: fc.constantFrom(0, 15, 30),
  // Things already on the diary, as offsets (minutes) from 00:00 UTC on the date (the zones run from UTC-7 to UTC+11).
  bookings: fc.array(
    fc.record({
      at: fc.integer({ min: -720, max: 2100 }),
      len: fc.integer({ min: 10, max: 120 }),
      kind: fc.constantFrom('appointment', 'hold', 'lapsed_hold', 'time_off'),
    }),
    { maxLength: 4 },
  ),
  probes: fc.array(fc.integer({ min: -720, max: 2100 }), { minLength: 2, maxLength: 3 }),
  picks: fc.array(fc.nat(), { minLength: 1, maxLength: 2 }),
});

type Spec = typeof world extends fc.Arbitrary<infer T> ? T : never;

async function build(spec: Spec, _day: string, dayStart: number): Promise<Shop> {
  const s = await t.fx.store({ timezone: spec.zone });
  await setStore(t, s.id, {
    slot_step_min: spec.step,
    min_notice_min: spec.notice,
    booking_horizon_days: spec.horizonDays,
  });
  const merchant = await t.fx.merchantToken(s.id);
  const units: string[] = [];
  for (const [i, intervals] of spec.units.entries()) {
    const u = await t.fx.unit(s.id, { display_name: `U${i}`, sort: i });
    const week =
      spec.nightShift && i === 0
        ? [{ open: '00:00', close: '04:00' }, ...intervals.filter((iv: { open: string }) => iv.open >= '04:00')]
        : intervals;
    const weekday = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
    const res = await putHours(t, merchant, u.id, Object.fromEntries(weekday.map((d) => [d, week])));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    units.push(u.id);
  }
  const service = await t.fx.service(s.id);
  await setService(t, service.id, {
    duration_min: spec.duration,
    buffer_before_min: spec.bufferBefore,
    buffer_after_min: spec.bufferAfter,
    processing_min: spec.processing,
  });
  const c = await t.fx.customer({ name: 'Prop' });
  const customer = await t.fx.customerToken(c.id, ['customer:read', 'customer:write']);
  const now = t.clock.now().getTime();
  for (const [i, b] of spec.bookings.entries()) {
    const start = new Date(dayStart + b.at * 60_000).toISOString();
    const end = new Date(dayStart + (b.at + b.len) * 60_000).toISOString();
    const unit = units[i % units.length];
    try {
      if (b.kind === 'appointment') {
        await t.db.query(
          `INSERT INTO appointments (store_id, unit_id, starts_at, ends_at, block, status, currency) VALUES ($1, $2, $3, $4, tstzrange($3::timestamptz, $4::timestamptz), 'confirmed', 'GBP')`,
          [s.id, unit, start, end],
        );
      } else if (b.kind === 'time_off') {
        await t.db.query(
          `INSERT INTO time_off (store_id, unit_id, starts_at, ends_at, kind) VALUES ($1, $2, $3, $4, 'time_off')`,
          [s.id, unit, start, end],
        );
      } else {
        const expires = new Date(now + (b.kind === 'hold' ? 600_000 : -60_000)).toISOString();
        await t.db.query(
          `INSERT INTO holds (store_id, unit_id, starts_at, ends_at, expires_at) VALUES ($1, $2, $3, $4, $5)`,
          [s.id, unit, start, end, expires],
        );
      }
    } catch (err: any) {
      if (err.code !== '23P01') throw err; // overlapping generated occupancy: the database refuses it, as it should
    }
  }
  return { t, storeId: s.id, merchant, units, serviceId: service.id, customerId: c.id, customer };
}

test('every offered slot can be held; a start not offered is refused by hold and confirm; no slot is an hour off', async () => {
  // What the runs actually exercised: a run that offers nothing proves only the "not offered" half,
  // so most runs must offer slots, and every run that offers some must try to hold them.
  const tried = { runs: 0, runsWithSlots: 0, holds: 0, refusedProbes: 0 };
  const numRuns = Number(process.env.PROPERTY_RUNS ?? 40);
  await fc.assert(
    fc.asyncProperty(world, async (spec) => {
      tried.runs++;
      const days = ZONES[spec.zone];
      const day = days[spec.dayPick % days.length];
      const utcMidnight = Date.parse(`${day}T00:00:00Z`);
      t.clock.set(new Date(utcMidnight - spec.nowBefore * 3_600_000));
      const now = t.clock.now().getTime();
      const started = performance.now();
      const w = await build(spec, day, utcMidnight);
      const shift = (d: string, n: number) =>
        new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
      const res = await search(w, { from_date: shift(day, -1), to_date: shift(day, 1) });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const slots: Array<{ date: string; starts_at: string; ends_at: string; local_time: string; unit_ids: string[] }> =
        res.body.days.flatMap((d: any) => d.slots.map((s: any) => ({ ...s, date: d.date })));
      const offered = new Set(slots.map((s) => s.starts_at));
      assert.equal(offered.size, slots.length, 'each real instant is offered once');
      for (const s of slots) {
        const local = localParts(s.starts_at, spec.zone);
        assert.equal(local.time, s.local_time, `${s.starts_at} in ${spec.zone} is ${local.time}, not ${s.local_time}`);
        assert.equal(local.date, s.date);
        assert.equal(Date.parse(s.ends_at) - Date.parse(s.starts_at), spec.duration * 60_000);
        assert.ok(Date.parse(s.starts_at) >= now + spec.notice * 60_000, 'notice');
        assert.ok(Date.parse(s.starts_at) < now + spec.horizonDays * 86_400_000, 'horizon');
        assert.ok(s.unit_ids.length >= 1);
      }
      // Offered: each picked slot can be held (and released again), and the last one confirmed.
      if (slots.length) {
        tried.runsWithSlots++;
        const picked = [...new Set(spec.picks.map((p) => slots[p % slots.length]))];
        for (const [i, slot] of picked.entries()) {
          const h = await hold(w, { starts_at: slot.starts_at });
          tried.holds++;
          assert.equal(
            h.status,
            200,
            `offered ${slot.starts_at} (${slot.local_time}) refused: ${JSON.stringify(h.body)}`,
          );
          assert.ok(slot.unit_ids.includes(h.body.hold.unit_id));
          if (i === picked.length - 1) {
            assert.equal((await confirm(w, h.body.hold.id)).status, 200);
          } else {
            assert.equal(
              (await call(t.app, 'DELETE', `${HOLDS}/${h.body.hold.id}`, { token: w.customer })).status,
              200,
            );
          }
        }
      }
      // Not offered (before the hold above took one): refused by hold, and by confirm of a hold written behind the authority's back.
      for (const p of spec.probes) {
        // On the 5-minute grid (often off the store's step), sometimes a minute off it.
        const at = new Date(utcMidnight + Math.round(p / 5) * 300_000 + (p % 7 === 0 ? 60_000 : 0)).toISOString();
        if (offered.has(at)) continue;
        const h = await hold(w, { starts_at: at });
        assert.notEqual(h.status, 200, `not offered ${at} was held`);
        assert.ok(h.status === 409, JSON.stringify(h.body));
        tried.refusedProbes++;
        const sneaked = await t.db
          .query<{ id: string }>(
            `INSERT INTO holds (store_id, unit_id, customer_id, service_id, starts_at, ends_at, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6::timestamptz, $7, $8) ON CONFLICT DO NOTHING RETURNING id`,
            [
              w.storeId,
              w.units[0],
              w.customerId,
              w.serviceId,
              at,
              new Date(Date.parse(at) + spec.duration * 60_000).toISOString(),
              new Date(now + 600_000).toISOString(),
              new Date(now).toISOString(),
            ],
          )
          .catch((err) => {
            if (err.code === '23P01') return { rows: [] };
            throw err;
          });
        if (sneaked.rows[0]) {
          const c = await confirm(w, sneaked.rows[0].id);
          assert.notEqual(c.status, 200, `not offered ${at} was confirmed`);
          await t.db.query(`UPDATE holds SET released_at = $2 WHERE id = $1`, [
            sneaked.rows[0].id,
            new Date(now).toISOString(),
          ]);
        }
      }
      if (process.env.PROPERTY_TIMING)
        console.log(`${spec.zone} ${day}: ${slots.length} slots, ${(performance.now() - started).toFixed(0)} ms`);
    }),
    { numRuns, seed: Number(process.env.PROPERTY_SEED ?? 20271031) },
  );
  if (process.env.PROPERTY_TIMING) console.log(JSON.stringify(tried));
  assert.equal(tried.runs, numRuns);
  assert.ok(
    tried.runsWithSlots * 2 > tried.runs,
    `most runs must offer slots: ${tried.runsWithSlots} of ${tried.runs} did`,
  );
  assert.ok(
    tried.holds >= tried.runsWithSlots,
    `every run that offered slots tried a hold: ${tried.holds} holds in ${tried.runsWithSlots} runs`,
  );
  assert.ok(
    tried.refusedProbes >= tried.runs,
    `the "not offered" half ran: ${tried.refusedProbes} refused probes in ${tried.runs} runs`,
  );
});

// The case the property meets only on some seeds, pinned: a live hold is never offered, and a lapsed
// hold's time is offered and can be held (its row is released under the unit lock on the way).
test("a live hold's time is not offered and cannot be held; a lapsed hold's time is offered and can be held", async () => {
  const day = '2027-06-15'; // British Summer Time: 09:00-12:00 local is 08:00-11:00 UTC
  const utcMidnight = Date.parse(`${day}T00:00:00Z`);
  t.clock.set(new Date(utcMidnight - 10 * 3_600_000));
  const w = await build(
    {
      zone: 'Europe/London',
      dayPick: 2,
      units: [[{ open: '09:00', close: '12:00' }]],
      nightShift: false,
      step: 30,
      notice: 0,
      horizonDays: 5,
      nowBefore: 10,
      duration: 30,
      bufferBefore: 0,
      bufferAfter: 0,
      processing: 0,
      probes: [],
      picks: [0],
      bookings: [
        { at: 9 * 60, len: 30, kind: 'hold' },
        { at: 10 * 60, len: 30, kind: 'lapsed_hold' },
      ],
    },
    day,
    utcMidnight,
  );
  const res = await search(w, { from_date: day, to_date: day });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const offered = res.body.days.flatMap((d: any) => d.slots.map((s: any) => s.local_time));
  assert.deepEqual(
    offered,
    ['09:00', '09:30', '10:30', '11:00', '11:30'],
    "the live hold's 10:00 is left out; the lapsed hold's 11:00 is in",
  );
  const live = await hold(w, { starts_at: '2027-06-15T09:00:00.000Z' });
  assert.equal(live.status, 409, JSON.stringify(live.body));
  const lapsed = await hold(w, { starts_at: '2027-06-15T10:00:00.000Z' });
  assert.equal(lapsed.status, 200, JSON.stringify(lapsed.body));
  const released = await t.db.query(
    `SELECT release_reason FROM holds WHERE store_id = $1 AND starts_at = '2027-06-15T10:00:00Z' AND customer_id IS NULL`,
    [w.storeId],
  );
  assert.deepEqual(
    released.rows.map((r: any) => r.release_reason),
    ['expired'],
  );
});
