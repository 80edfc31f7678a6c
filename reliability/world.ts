// An in-process app (buildApp, driven through app.inject) on a database of its own, with two
// stores that each own one record of every kind. Fast enough for tens of thousands of requests;
// used by the fuzzer and the isolation matrix.
import { buildApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { ADMIN_TOKEN, AUTH_SECRET } from './env.ts';
import { createDatabase, type OwnedDatabase } from './db.ts';
import type { ProofRun } from './proof.ts';
import { operationsOf, type Operation } from './openapi.ts';
import {
  customerToken,
  insertAppointment,
  insertMember,
  insertQueueEntry,
  insertService,
  insertStore,
  insertUnits,
  merchantToken,
} from './seed.ts';

/** One record of every store-owned kind, named by the fields that carry such ids on the wire. */
export interface StoreRecords {
  store: string;
  unit: string;
  unit2: string;
  service: string;
  period: string;
  appointment: string;
  pastAppointment: string;
  queueEntry: string;
  customer: string;
  timeOff: string;
  hold: string;
  /** Text only this store may ever see (its private note on its customer). */
  secret: string;
  token: string;
  customerToken: string;
}

export interface World {
  app: App;
  database: OwnedDatabase;
  ops: Operation[];
  doc: any;
  a: StoreRecords;
  b: StoreRecords;
  close(): Promise<void>;
}

export async function seedStore(db: OwnedDatabase['db'], label: string): Promise<StoreRecords> {
  const store = await insertStore(db, `Store ${label}`);
  const [unit, unit2] = await insertUnits(db, store, 2);
  const service = await insertService(db, store, `Cut ${label}`, 2000, 30);
  const secret = `SECRET-NOTE-${label}-${store.slice(0, 8)}`;
  const customer = await insertMember(db, store, `Member ${label}`, secret);
  const period = (
    await db.query<{ id: string }>(
      `INSERT INTO service_periods (store_id, name, week) VALUES ($1, $2, '{"monday": {"open": "12:00", "close": "15:00"}}') RETURNING id`,
      [store, `Lunch ${label}`],
    )
  ).rows[0].id;
  const appointment = await insertAppointment(db, {
    storeId: store,
    unitId: unit,
    startsAt: new Date('2030-05-01T10:00:00Z'),
    minutes: 30,
    pricePence: 2000,
    guest: `Guest ${label}`,
  });
  const pastAppointment = await insertAppointment(db, {
    storeId: store,
    unitId: unit,
    startsAt: new Date('2025-05-01T10:00:00Z'),
    minutes: 30,
    pricePence: 2000,
    guest: `Guest ${label}`,
  });
  await db.query('UPDATE appointments SET customer_id = $2 WHERE id = $1', [appointment, customer]);
  const queueEntry = await insertQueueEntry(db, store, `Walk-in ${label}`);
  const timeOff = (
    await db.query<{ id: string }>(
      `INSERT INTO time_off (store_id, unit_id, starts_at, ends_at, kind, reason) VALUES ($1, $2, '2030-05-02T10:00:00Z', '2030-05-02T11:00:00Z', 'time_off', 'Dentist') RETURNING id`,
      [store, unit2],
    )
  ).rows[0].id;
  const hold = (
    await db.query<{ id: string }>(
      `INSERT INTO holds (store_id, unit_id, starts_at, ends_at, expires_at) VALUES ($1, $2, '2030-05-03T10:00:00Z', '2030-05-03T11:00:00Z', '2030-05-03T09:00:00Z') RETURNING id`,
      [store, unit2],
    )
  ).rows[0].id;
  await db.query(
    `INSERT INTO class_bookings (store_id, customer_id, status, class_name, created_at) VALUES ($1, $2, 'attended', $3, now())`,
    [store, customer, `Yoga ${label}`],
  );
  await db.query(
    `INSERT INTO notification_preferences (customer_id, store_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
    [customer, store],
  );
  return {
    store,
    unit,
    unit2,
    service,
    period,
    appointment,
    pastAppointment,
    queueEntry,
    customer,
    timeOff,
    hold,
    secret,
    token: await merchantToken(store),
    customerToken: await customerToken(customer),
  };
}

export async function buildWorld(p: ProofRun, label: string): Promise<World> {
  const database = await createDatabase(p.serverUrl, label);
  p.databases.push(database);
  const config = loadConfig({
    AUTH_SECRET,
    ADMIN_TOKEN,
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.url,
    RATE_LIMIT_GLOBAL_PER_MIN: '10000000',
    RATE_LIMIT_SEARCH_PER_MIN: '10000000',
    RATE_LIMIT_PREFERENCES_PER_MIN: '10000000',
  });
  const { openPg } = await import('../src/platform/db/pg.adapter.ts');
  const db = openPg({
    connectionString: database.url,
    poolSize: 10,
    prepare: (await import('./env.ts')).PREPARED_STATEMENTS,
  });
  const app = await buildApp({ config, db, logger: false });
  const a = await seedStore(database.db, 'A');
  const b = await seedStore(database.db, 'B');
  const res = await app.inject({ method: 'GET', url: '/openapi.json' });
  const doc = JSON.parse(res.body);
  return {
    app,
    database,
    ops: operationsOf(doc),
    doc,
    a,
    b,
    async close() {
      await app.close();
      await db.close();
    },
  };
}

/** The record kind an id-carrying field names, by its wire name. */
export function kindOfField(name: string): keyof StoreRecords | null {
  const n = name.toLowerCase().replace(/_/g, '');
  if (n === 'appointmentid') return 'appointment';
  if (n === 'unitid' || n === 'preferredunitid') return 'unit';
  if (n === 'entryid') return 'queueEntry';
  if (n === 'serviceid') return 'service';
  if (n === 'periodid') return 'period';
  if (n === 'customerid' || n === 'customerids') return 'customer';
  if (n === 'timeoffid') return 'timeOff';
  if (n === 'holdid') return 'hold';
  if (n === 'storeid') return 'store';
  return null;
}
