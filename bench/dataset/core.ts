// Stores, units, services, customers and their relationships, written with set operations.
// Randomness is pg_temp.rnd(key, salt): a hash of (key, salt, seed) mapped to [0, 1), so the same
// seed always produces the same rows. Ids are md5-derived uuids (pg_temp.uid), reproducible too.
import type { Plan } from './plan.ts';

export const FIRST = [
  'Olivia',
  'Amelia',
  'Isla',
  'Ava',
  'Ivy',
  'Freya',
  'Lily',
  'Florence',
  'Mia',
  'Willow',
  'Rosie',
  'Sophia',
  'Isabella',
  'Grace',
  'Daisy',
  'Sienna',
  'Poppy',
  'Elsie',
  'Emily',
  'Ella',
  'Evelyn',
  'Phoebe',
  'Sofia',
  'Evie',
  'Charlotte',
  'Harper',
  'Matilda',
  'Ruby',
  'Emma',
  'Hannah',
  'Noah',
  'Oliver',
  'George',
  'Arthur',
  'Muhammad',
  'Leo',
  'Harry',
  'Oscar',
  'Archie',
  'Henry',
  'Theodore',
  'Freddie',
  'Jack',
  'Charlie',
  'Theo',
  'Alfie',
  'Jacob',
  'Thomas',
  'Finley',
  'Arlo',
  'William',
  'Lucas',
  'Roman',
  'Tommy',
  'Isaac',
  'Teddy',
  'Alexander',
  'Luca',
  'Edward',
  'James',
  'Joshua',
  'Albie',
  'Elijah',
  'Max',
];
export const LAST = [
  'Smith',
  'Jones',
  'Taylor',
  'Brown',
  'Williams',
  'Wilson',
  'Johnson',
  'Davies',
  'Patel',
  'Robinson',
  'Wright',
  'Thompson',
  'Evans',
  'Walker',
  'White',
  'Roberts',
  'Green',
  'Hall',
  'Thomas',
  'Clarke',
  'Jackson',
  'Wood',
  'Harris',
  'Edwards',
  'Turner',
  'Martin',
  'Cooper',
  'Hill',
  'Ward',
  'Hughes',
  'Moore',
  'Clark',
  'King',
  'Harrison',
  'Lewis',
  'Baker',
  'Lee',
  'Allen',
  'Morris',
  'Khan',
  'Scott',
  'Watson',
  'Davis',
  'Parker',
  'James',
  'Bennett',
  'Young',
  'Phillips',
  'Richardson',
  'Mitchell',
  'Bailey',
  'Carter',
  'Cook',
  'Singh',
  'Shaw',
  'Bell',
  'Collins',
  'Morgan',
  'Kelly',
  'Begum',
  'Miller',
  'Cox',
  'Hussain',
  'Marshall',
  'Simpson',
  'Price',
  'Anderson',
  'Adams',
  'Wilkinson',
  'Ali',
  'Ahmed',
  'Foster',
  'Ellis',
  'Murphy',
  'Chapman',
];

/** The long tail of surnames: 30 x 20 = 600 rarer names, each about 0.12% of people. */
export const TAIL_PRE = [
  'Ash',
  'Black',
  'Brad',
  'Brook',
  'Cald',
  'Craw',
  'Dal',
  'Elling',
  'Fair',
  'Fen',
  'Glad',
  'Hart',
  'Hol',
  'Kings',
  'Lang',
  'Mar',
  'Nor',
  'Pen',
  'Ram',
  'Red',
  'Ros',
  'Stan',
  'Thorn',
  'Wal',
  'Wes',
  'Whit',
  'Win',
  'All',
  'Bar',
  'Cal',
];
export const TAIL_SUF = [
  'by',
  'croft',
  'den',
  'ford',
  'field',
  'ham',
  'hurst',
  'ley',
  'low',
  'more',
  'ridge',
  'ton',
  'well',
  'wick',
  'worth',
  'land',
  'stone',
  'bury',
  'combe',
  'dale',
];

export const sqlArray = (items: readonly (string | number)[]) =>
  `ARRAY[${items.map((x) => (typeof x === 'number' ? String(x) : `'${x.replace(/'/g, "''")}'`)).join(',')}]`;
export const ts = (d: Date) => `'${d.toISOString()}'::timestamptz`;
const days = (n: number) => `make_interval(days => ${n})`;

/** Picks from a SQL array with a [0,1) expression. */
export const pick = (array: string, r: string) => `(${array})[1 + floor((${r}) * array_length(${array}, 1))::int]`;

export function functions(p: Plan): string[] {
  return [
    `CREATE OR REPLACE FUNCTION pg_temp.rnd(k bigint, salt int) RETURNS float8 LANGUAGE sql IMMUTABLE AS
     $$ SELECT (hashint8extended(k, salt::bigint * 7919 + ${p.seed}) & 9007199254740991)::float8 / 9007199254740992.0 $$`,
    `CREATE OR REPLACE FUNCTION pg_temp.uid(kind text, k bigint) RETURNS uuid LANGUAGE sql IMMUTABLE AS
     $$ SELECT md5(kind || ':' || ${p.seed} || ':' || k)::uuid $$`,
    // Names as a real platform has them: first names skewed towards the popular ones; surnames 30% from
    // LAST (ordered by frequency) with a power curve, so index 0 (Smith) is (1/75)^(2/3) x 0.3 = 1.7%
    // of people and Jones 1%, and 70% from the 600-name tail.
    `CREATE OR REPLACE FUNCTION pg_temp.forename(k bigint, salt int) RETURNS text LANGUAGE sql IMMUTABLE AS
     $$ SELECT (${sqlArray(FIRST)})[1 + floor(power(pg_temp.rnd(k, salt), 1.3) * ${FIRST.length})::int] $$`,
    `CREATE OR REPLACE FUNCTION pg_temp.surname(k bigint, salt int) RETURNS text LANGUAGE sql IMMUTABLE AS
     $$ SELECT CASE WHEN pg_temp.rnd(k, salt) < 0.3
                    THEN (${sqlArray(LAST)})[1 + floor(power(pg_temp.rnd(k, salt + 1000), 1.5) * ${LAST.length})::int]
                    ELSE (${sqlArray(TAIL_PRE)})[1 + floor(pg_temp.rnd(k, salt + 2000) * ${TAIL_PRE.length})::int]
                      || (${sqlArray(TAIL_SUF)})[1 + floor(pg_temp.rnd(k, salt + 3000) * ${TAIL_SUF.length})::int] END $$`,
  ];
}

/** Which customer ordinal the k-th relationship of store s is (the flagship, s = 0, has the first ones). */
export function customerOf(p: Plan, s: string, k: string): string {
  const stride = Math.floor(p.customers / p.stores);
  return `(CASE WHEN ${s} = 0 THEN ${k} ELSE (${s}::bigint * ${stride} + ${k}) % ${p.customers} END)`;
}
/** How many relationships store s has (plan.ts: the flagship, then a long tail). */
export const relationshipsOf = (p: Plan, s: string) =>
  `(CASE WHEN ${s} = 0 THEN ${p.flagshipCustomers} ELSE least(${p.customers}, greatest(${p.minStoreCustomers}, floor(${p.topStoreCustomers} / power(${s}, 0.8))::int)) END)`;

export function stores(p: Plan): string[] {
  const tz = sqlArray([
    'Europe/London',
    'Europe/London',
    'Europe/London',
    'Europe/London',
    'Europe/London',
    'Europe/London',
    'Europe/London',
    'Europe/London',
    'Europe/Dublin',
    'Europe/Paris',
  ]);
  const opened = `${ts(p.now)} - ${days(p.historyDays + 30)}`;
  return [
    `INSERT INTO stores (id, name, timezone, currency, walkin_mode, called_hold_minutes, cancellation_window_min, created_at, updated_at)
     SELECT pg_temp.uid('S', s), CASE WHEN s = 0 THEN 'Bench Flagship' ELSE 'Bench Store ' || s END,
            (${tz})[1 + s % 10], CASE WHEN s % 10 >= 8 THEN 'EUR' ELSE 'GBP' END, 'mixed', 10, 0, ${opened}, ${opened}
       FROM generate_series(0, ${p.stores - 1}) s`,
    `CREATE TEMP TABLE bench_units AS
     SELECT u AS ord, pg_temp.uid('U', u) AS id, u / ${p.unitsPerStore} AS store_ord, pg_temp.uid('S', u / ${p.unitsPerStore}) AS store_id,
            st.timezone AS tz, st.currency
       FROM generate_series(0, ${p.units - 1}) u JOIN stores st ON st.id = pg_temp.uid('S', u / ${p.unitsPerStore})`,
    `CREATE UNIQUE INDEX ON bench_units (ord)`,
    `INSERT INTO units (id, store_id, display_name, kind, unit_type, user_id, colour, sort, created_at, updated_at)
     SELECT id, store_id, 'Chair ' || (ord % ${p.unitsPerStore} + 1), 'staff', 'stylist', 'staff-' || ord,
            ${pick(sqlArray(['#e57373', '#64b5f6', '#81c784', '#ffb74d', '#ba68c8']), 'pg_temp.rnd(ord, 1)')},
            ord % ${p.unitsPerStore}, ${opened}, ${opened}
       FROM bench_units`,
    `INSERT INTO services (id, store_id, category, name, duration_min, price_pence, currency, sort, created_at, updated_at)
     SELECT pg_temp.uid('V', s * 6 + k), pg_temp.uid('S', s), (${sqlArray(['Hair', 'Hair', 'Colour', 'Barber', 'Advice', 'Spa'])})[k + 1],
            (${sqlArray(['Cut', 'Cut and finish', 'Colour', 'Beard trim', 'Consultation', 'Treatment'])})[k + 1],
            (${sqlArray(SERVICE_MINUTES)})[k + 1], (${sqlArray(SERVICE_PENCE)})[k + 1],
            CASE WHEN s % 10 >= 8 THEN 'EUR' ELSE 'GBP' END, k, ${opened}, ${opened}
       FROM generate_series(0, ${p.stores - 1}) s, generate_series(0, 5) k`,
  ];
}
export const SERVICE_MINUTES = [30, 45, 60, 30, 30, 60];
export const SERVICE_PENCE = [2500, 4000, 7500, 1500, 0, 6000];

export function customers(p: Plan): string[] {
  const created = `${ts(p.now)} - ${days(p.historyDays + 30)} + make_interval(days => floor(pg_temp.rnd(c, 10) * ${p.historyDays})::int)`;
  return [
    `INSERT INTO customers (id, name, email, phone, erased_at, created_at, updated_at)
     SELECT pg_temp.uid('C', c),
            CASE WHEN erased THEN NULL ELSE fn || ' ' || ln END,
            CASE WHEN NOT erased AND pg_temp.rnd(c, 11) < 0.9 THEN lower(fn || '.' || ln || c || '@example.com') END,
            CASE WHEN NOT erased AND pg_temp.rnd(c, 12) < 0.85 THEN '+4477' || lpad(c::text, 8, '0') END,
            CASE WHEN erased THEN ${ts(p.now)} - interval '30 days' END, created, created
       FROM (SELECT c, pg_temp.forename(c, 14) AS fn, pg_temp.surname(c, 15) AS ln,
                    pg_temp.rnd(c, 13) < 0.002 AS erased, ${created} AS created
               FROM generate_series(0, ${p.customers - 1}) c) x`,
    // Relationships: the large store (s = 0) has every customer; each other store a window of them.
    // Aggregates are filled later from the activity rows (aggregates.ts).
    `INSERT INTO store_customers (store_id, customer_id, is_member, member_since, first_seen_at, last_seen_at, merchant_note,
                                  merchant_note_updated_at, blocked, blocked_at, blocked_channels, block_reason, archived, archived_at,
                                  marketing_opted_in, updated_at)
     SELECT pg_temp.uid('S', s), pg_temp.uid('C', c), member, CASE WHEN member THEN seen END, seen, seen,
            CASE WHEN pg_temp.rnd(key, 21) < 0.05 THEN 'Prefers mornings' END, CASE WHEN pg_temp.rnd(key, 21) < 0.05 THEN seen END,
            blocked, CASE WHEN blocked THEN seen END, CASE WHEN pg_temp.rnd(key, 22) < 0.03 THEN ARRAY['sms']::text[] ELSE '{}' END,
            CASE WHEN blocked THEN 'Abusive to staff' END, archived, CASE WHEN archived THEN seen END,
            pg_temp.rnd(key, 23) < 0.35, seen
       FROM (SELECT s, c, key, pg_temp.rnd(key, 24) < 0.4 AS member, pg_temp.rnd(key, 25) < 0.005 AS blocked,
                    pg_temp.rnd(key, 26) < 0.01 AS archived,
                    ${ts(p.now)} - make_interval(days => floor(pg_temp.rnd(key, 27) * ${p.historyDays})::int) AS seen
               FROM (SELECT s, c, s::bigint * 100000000 + c AS key
                       FROM (SELECT 0 AS s, c FROM generate_series(0, ${p.flagshipCustomers - 1}) c
                             UNION ALL
                             SELECT s, ${customerOf(p, 's', 'k')} FROM generate_series(1, ${p.stores - 1}) s,
                                    generate_series(0, ${relationshipsOf(p, 's')} - 1) k) pairs) keyed) x`,
  ];
}
