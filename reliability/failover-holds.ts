// Holds in the failover drill's storm (proofs/failover.ts): customers of the store race for the
// same starts at checkout, through the three server processes, while the primary is lost. Each
// group of three clients (one per process) asks for the same unit and start at once, so at most one
// wins and the others are refused (SLOT_TAKEN, or SLOT_UNAVAILABLE once the winner's hold is seen);
// the winner then confirms the hold into an appointment, lets it go, or leaves it to lapse. After
// the storm some of the holds left to lapse do lapse (expiry, on the new primary) and another
// customer takes their start. Every request goes through Storm.send: retried with its
// Idempotency-Key until definitive, every 503 checked for Retry-After, every answer tallied.
import type { Queryable } from '../src/platform/db/port.ts';
import { http, pool } from './client.ts';
import { sleep } from './env.ts';
import type { Storm } from './failover-storm.ts';
import type { ProofRun } from './proof.ts';
import { customerToken, insertMember, insertService } from './seed.ts';
import type { ServerProcess } from './server-process.ts';

const HOLDS = '/api/v1/bookings/holds';
/** A hold that lost its race: taken by the constraint, or no longer offered once the winner's hold is seen. */
const LOST_RACE = ['SLOT_TAKEN', 'SLOT_UNAVAILABLE'];
/** Clients that ask for the same start at once: one per server process. */
const GROUP = 3;
/** How many of the holds left to lapse are made to lapse after the storm (the rest stay live). */
const LAPSES = 4;

export type Fate = 'held' | 'confirmed' | 'released' | 'lapsed';

export interface AckedHold {
  id: string;
  unitId: string;
  startsAt: string;
  customer: { id: string; token: string };
  fate: Fate;
  /** The appointment its confirm answered with. */
  appointmentId?: string;
  /** Acknowledged before the bad day. */
  early: boolean;
}

export interface HoldShop {
  serviceId: string;
  units: string[];
  customers: Array<{ id: string; token: string }>;
}

/** A service the customers can book online, every hour of every day open on the hold units, customers with tokens. */
export async function prepareHoldShop(
  db: Queryable,
  store: string,
  units: string[],
  clients: number,
  staffToken: string,
  server: ServerProcess,
): Promise<HoldShop> {
  // No notice, so a start the day after tomorrow is offered whatever the hour now.
  await db.query('UPDATE stores SET min_notice_min = 0 WHERE id = $1', [store]);
  const serviceId = await insertService(db, store, 'Checkout', 3000, 30);
  const all = Object.fromEntries(
    ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].map((d) => [
      d,
      [{ open: '00:00', close: '24:00' }],
    ]),
  );
  for (const unit of units) {
    // Retried through an outage (a primary lost while the drill sets up), as the checks' SQL is.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const r = await http(server.baseUrl, 'PUT', `/api/v1/bookings/units/${unit}/hours`, {
        token: staffToken,
        body: { week: all, exceptions: [] },
      });
      if (r.status === 200) break;
      if ((r.status !== 503 && r.status !== 0) || Date.now() > deadline)
        throw new Error(`hours for the hold units: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
      await sleep(250);
    }
  }
  const customers = [];
  for (let i = 0; i < clients + GROUP; i++) {
    const id = await insertMember(db, store, `Holder ${i}`);
    customers.push({ id, token: await customerToken(id) });
  }
  return { serviceId, units, customers };
}

export class HoldStorm {
  readonly holds: AckedHold[] = [];
  /** Races lost (the start was another client's). */
  refused = 0;
  /** Holds placed after the storm on the start of a lapsed one (the lapsed hold released as expired). */
  readonly retaken: string[] = [];
  /** Confirms of a lapsed hold, and how each answered (409 HOLD_EXPIRED is right). */
  readonly lateConfirms: number[] = [];
  private stopped = false;
  private running: Promise<void> | null = null;
  private early = true;
  private readonly storm: Storm;
  private readonly store: string;
  private readonly shop: HoldShop;

  constructor(storm: Storm, store: string, shop: HoldShop) {
    this.storm = storm;
    this.store = store;
    this.shop = shop;
  }

  /** Group g's r-th start: from 08:00 UTC two days on, every 30 minutes to 20:00, then the next day. */
  private startOf(r: number): string {
    const day = new Date();
    day.setUTCHours(8, 0, 0, 0);
    return new Date(day.getTime() + (2 + Math.floor(r / 24)) * 86_400_000 + (r % 24) * 30 * 60_000).toISOString();
  }

  private async client(c: number): Promise<void> {
    const group = Math.floor(c / GROUP);
    const unitId = this.shop.units[group % this.shop.units.length];
    const customer = this.shop.customers[c];
    for (let r = 0; !this.stopped; r++) {
      const startsAt = this.startOf(r);
      const body = { store_id: this.store, service_id: this.shop.serviceId, unit_id: unitId, starts_at: startsAt };
      const held = await this.storm.send(c, HOLDS, body, { token: customer.token, refusals: LOST_RACE });
      if (!held) continue;
      if (held.refused) {
        this.refused++;
        continue;
      }
      const hold: AckedHold = {
        id: held.answer.body.hold.id,
        unitId,
        startsAt,
        customer,
        fate: 'held',
        early: this.early,
      };
      this.holds.push(hold);
      // What the winner does next, in turn: book it, let it go, leave it.
      const next = this.holds.length % 3;
      if (next === 0) {
        const done = await this.storm.send(c, `${HOLDS}/${hold.id}/confirm`, {}, { token: customer.token });
        if (done) {
          hold.fate = 'confirmed';
          hold.appointmentId = done.answer.body.appointment.id;
        }
      } else if (next === 1) {
        const done = await this.storm.send(c, `${HOLDS}/${hold.id}`, undefined, {
          token: customer.token,
          method: 'DELETE',
        });
        if (done) hold.fate = 'released';
      }
    }
  }

  start(clients: number): void {
    this.stopped = false;
    this.running = Promise.all(Array.from({ length: clients }, (_, c) => this.client(c))).then(() => {});
  }

  /** From now on an acknowledged hold counts as placed after the bad day. */
  markEvent(): void {
    this.early = false;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  /**
   * Expiry on the new primary: some holds left live are made to lapse (their expires_at moved into
   * the past: the drill cannot wait hold_minutes, at least 1, for the clock to do it), then their
   * owner's confirm must answer 409 HOLD_EXPIRED and another customer's hold on the same start must
   * succeed, releasing the lapsed one as expired.
   */
  async lapse(db: Queryable): Promise<void> {
    const chosen = this.holds.filter((h) => h.fate === 'held').slice(0, LAPSES);
    if (!chosen.length) return;
    await db.query(`UPDATE holds SET expires_at = now() - interval '1 second' WHERE id = ANY($1::uuid[])`, [
      chosen.map((h) => h.id),
    ]);
    await pool(chosen, LAPSES, async (h, i) => {
      h.fate = 'lapsed';
      const late = await this.storm.send(
        i,
        `${HOLDS}/${h.id}/confirm`,
        {},
        { token: h.customer.token, refusals: ['HOLD_EXPIRED'] },
      );
      this.lateConfirms.push(late?.refused === 'HOLD_EXPIRED' ? 409 : (late?.answer.status ?? 0));
      const other = this.shop.customers[this.shop.customers.length - 1 - (i % GROUP)];
      const body = { store_id: this.store, service_id: this.shop.serviceId, unit_id: h.unitId, starts_at: h.startsAt };
      const again = await this.storm.send(i + 1, HOLDS, body, { token: other.token, refusals: LOST_RACE });
      if (again && !again.refused) this.retaken.push(again.answer.body.hold.id);
    });
  }
}

/** The holds as the new primary has them, against what was acknowledged. */
export async function checkHolds(
  p: ProofRun,
  db: Queryable,
  store: string,
  holds: HoldStorm,
  strict: boolean,
): Promise<void> {
  const acked = holds.holds;
  const rows = await db.query<{
    id: string;
    released_at: string | null;
    release_reason: string | null;
    appointment_id: string | null;
  }>('SELECT id, released_at, release_reason, appointment_id FROM holds WHERE id = ANY($1::uuid[])', [
    acked.map((h) => h.id),
  ]);
  const byId = new Map(rows.rows.map((r) => [r.id, r]));
  const lost = acked.filter((h) => !byId.has(h.id)).length;
  const count = (f: Fate) => acked.filter((h) => h.fate === f).length;
  p.figure(
    'holds acknowledged (before the event / in all): held / confirmed / released / lapsed; races lost',
    `${acked.filter((h) => h.early).length} / ${acked.length}: ${count('held')} / ${count('confirmed')} / ${count('released')} / ${count('lapsed')}; ${holds.refused}`,
  );
  // Each hold is in the state its last acknowledged action left it in.
  const wrong: string[] = [];
  for (const h of acked) {
    const r = byId.get(h.id);
    if (!r) continue;
    const ok =
      h.fate === 'held'
        ? r.released_at === null
        : h.fate === 'confirmed'
          ? r.release_reason === 'confirmed' && r.appointment_id === h.appointmentId
          : h.fate === 'released'
            ? r.release_reason === 'released'
            : r.release_reason === 'expired';
    if (!ok) wrong.push(`${h.fate} ${h.id}: ${r.release_reason ?? 'live'}`);
  }
  const expiredEvents = await db.query<{ n: number }>(
    `SELECT count(DISTINCT data->>'id')::int AS n FROM events WHERE store_id = $1 AND type = 'hold.expired' AND data->>'id' = ANY($2::text[])`,
    [store, acked.filter((h) => h.fate === 'lapsed').map((h) => h.id)],
  );
  const total = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM holds WHERE store_id = $1', [store]);
  const extra = total.rows[0].n - rows.rowCount - holds.retaken.length;
  p.figure(
    'holds lost / not in their acknowledged state / beyond those acknowledged',
    `${lost} / ${wrong.length} / ${extra}`,
  );
  p.figure(
    'lapsed holds: late confirms answering 409 HOLD_EXPIRED / starts taken again / hold.expired events',
    `${holds.lateConfirms.filter((s) => s === 409).length} of ${holds.lateConfirms.length} / ${holds.retaken.length} / ${expiredEvents.rows[0].n}`,
  );
  if (!strict) return;
  p.check(lost === 0, 'an acknowledged hold is missing on the new primary', `${lost} of ${acked.length}`);
  p.check(
    wrong.length === 0,
    'a hold is not in the state its last acknowledged action left it in',
    wrong.slice(0, 3).join('; '),
  );
  p.check(extra === 0, 'holds beyond those acknowledged (a retried key held twice)', String(extra));
  p.check(holds.holds.length > 0, 'no hold was acknowledged in the storm');
  const lapsed = count('lapsed');
  p.check(
    holds.lateConfirms.every((s) => s === 409),
    "a lapsed hold's confirm did not answer 409 HOLD_EXPIRED",
    JSON.stringify(holds.lateConfirms),
  );
  p.check(
    holds.retaken.length === lapsed,
    'the start of a lapsed hold could not be held again',
    `${holds.retaken.length} of ${lapsed}`,
  );
  p.check(
    expiredEvents.rows[0].n === lapsed,
    'a lapsed hold taken over has no hold.expired event',
    `${expiredEvents.rows[0].n} of ${lapsed}`,
  );
}
