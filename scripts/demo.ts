// npm run demo: seeds a demo store through the API itself (units, services, customers with
// history, today's appointments, a walk-in queue) and prints ready-to-paste curl commands with
// working tokens. Runs in-process on the configured database (DATA_DIR or DATABASE_URL). On the
// embedded PostgreSQL it joins the server `npm start` runs on DATA_DIR, or starts the database for
// itself while the service is stopped. Running it again reuses the demo store.
import { randomBytes } from 'node:crypto';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/platform/db/open.ts';
import { embeddedCluster } from '../src/platform/db/embedded-postgres.adapter.ts';
import { migrate } from '../src/platform/db/migrate.ts';
import { systemClock } from '../src/platform/clock.ts';
import { createMessagesWorker } from '../src/notifications/messages/worker.ts';
import { demoWebhooks } from './demo-webhooks.ts';
import { demoOwnerLink } from '../src/staff/first-run.ts';

const DEMO_STORE = 'Demo Salon';
const base = loadConfig();
// The demo's own receiver listens on 127.0.0.1: private targets are allowed for this process only.
const config = Object.freeze({
  ...base,
  adminToken: randomBytes(24).toString('hex'),
  logLevel: 'error',
  webhooks: Object.freeze({ ...base.webhooks, allowPrivateTargets: true }),
});
const baseUrl = `http://${base.host === '0.0.0.0' ? '127.0.0.1' : base.host}:${base.port}`;

const db = await openDatabase(config, undefined, { join: true }).catch((err: Error) => {
  console.error(`Cannot open the database: ${err.message}`);
  process.exit(1);
});
await migrate(db);
const app = await buildApp({ config, db, logger: false });

async function api(method: string, url: string, body?: unknown, token = config.adminToken!) {
  const res = await app.inject({
    method: method as any,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(body ? { payload: body as any } : {}),
  });
  const json = res.body ? JSON.parse(res.body) : null;
  if (res.statusCode === 404 && json?.error?.code === 'ROUTE_NOT_FOUND') return null;
  if (res.statusCode >= 400) throw new Error(`${method} ${url} -> ${res.statusCode} ${res.body}`);
  return json;
}

function todayAt(hour: number, minute = 0): string {
  const d = new Date();
  d.setUTCHours(hour, minute, 0, 0);
  return d.toISOString();
}

const existing = await db.query<{ id: string }>('SELECT id FROM stores WHERE name = $1 ORDER BY created_at LIMIT 1', [
  DEMO_STORE,
]);
let storeId = existing.rows[0]?.id;
const notes: string[] = [];

if (!storeId) {
  const { store } = await api('POST', '/admin/v1/stores', {
    name: DEMO_STORE,
    timezone: 'Europe/London',
    currency: 'GBP',
    walkin_mode: 'mixed',
    called_hold_minutes: 10,
    cancellation_window_min: 60,
  });
  storeId = store.id as string;
  const units = [];
  for (const [i, name] of ['Alex', 'Sam', 'Chair 3'].entries()) {
    units.push(
      (
        await api('POST', `/admin/v1/stores/${storeId}/units`, {
          display_name: name,
          kind: i < 2 ? 'staff' : 'chair',
          sort: i,
        })
      ).unit,
    );
  }
  const seedToken = (
    await api('POST', '/admin/v1/tokens', {
      kind: 'merchant',
      store_id: storeId,
      user_id: 'demo-owner',
      staff_name: 'Demo Owner',
      entitlements: ['can_use_bookings', 'classes'],
      permissions: ['can_process_payments'],
      ttl_s: 3600,
    })
  ).token;
  const haircut = await api(
    'POST',
    '/api/v1/bookings/services',
    {
      store_id: storeId,
      name: 'Haircut',
      duration_min: 45,
      price_pence: 3000,
      currency: 'GBP',
      category: 'Hair',
      variants: [{ name: 'Long hair', duration_min: 60, price_pence: 3800 }],
      addons: [{ name: 'Hot towel', extra_min: 10, extra_pence: 500 }],
    },
    seedToken,
  );
  if (!haircut) notes.push('services endpoint not available: no services seeded');
  const people = [
    { name: 'Priya Shah', email: 'priya@example.com', phone: '07812 345678' },
    { name: 'Tom Reed', email: 'tom@example.com', phone: '07400 123456' },
    { name: 'Lena Ortiz', email: 'lena@example.com', phone: null },
  ];
  const customers = [];
  for (const p of people) {
    const { customer } = await api('POST', '/admin/v1/customers', p);
    await api('POST', `/admin/v1/stores/${storeId}/memberships`, { customer_id: customer.id });
    customers.push(customer);
  }
  const activity = [
    { kind: 'stamp', customer_id: customers[0].id, count: 2 },
    { kind: 'order', customer_id: customers[0].id, amount_pence: 1850, currency: 'GBP' },
    {
      kind: 'class_booking',
      customer_id: customers[1].id,
      status: 'attended',
      class_name: 'Barber basics',
      scheduled_date: new Date(Date.now() - 86_400_000).toISOString().slice(0, 10),
      start_time: '18:00:00',
      end_time: '19:00:00',
    },
  ];
  for (const a of activity) {
    try {
      if (!(await api('POST', `/admin/v1/stores/${storeId}/activity`, a)))
        notes.push('activity endpoint not available');
    } catch (err) {
      notes.push(`activity ${a.kind} not seeded: ${(err as Error).message.slice(0, 120)}`);
    }
  }
  const bookings = [
    { unit_id: units[0].id, starts_at: todayAt(9), ends_at: todayAt(9, 45), customer_id: customers[0].id },
    {
      unit_id: units[0].id,
      starts_at: todayAt(10),
      ends_at: todayAt(10, 45),
      guest_name: 'Walk-up Guest',
      guest_email: 'guest@example.com',
    },
    { unit_id: units[1].id, starts_at: todayAt(11), ends_at: todayAt(11, 30), customer_id: customers[1].id },
    // Tomorrow: its confirmation is shown from the local mailbox below.
    { unit_id: units[1].id, starts_at: todayAt(24 + 10), ends_at: todayAt(24 + 10, 45), customer_id: customers[2].id },
  ];
  for (const b of bookings) {
    const made = await api(
      'POST',
      '/api/v1/bookings/appointments',
      { store_id: storeId, service_id: haircut?.service?.id ?? null, ...b },
      seedToken,
    );
    if (!made) {
      notes.push('appointments endpoint not available');
      break;
    }
  }
  for (const q of [{ guest_name: 'Jo (walk-in)', guest_phone: '07812 000111' }, { customer_id: customers[2].id }]) {
    const joined = await api('POST', '/api/v1/bookings/queue/join', { store_id: storeId, ...q }, seedToken);
    if (!joined) {
      notes.push('queue endpoint not available');
      break;
    }
  }
}

const merchant = (
  await api('POST', '/admin/v1/tokens', {
    kind: 'merchant',
    store_id: storeId,
    user_id: 'demo-owner',
    staff_name: 'Demo Owner',
    entitlements: ['can_use_bookings', 'classes'],
    permissions: ['can_process_payments'],
    ttl_s: 7 * 24 * 3600,
  })
).token;
const someone = await db.query<{ customer_id: string }>(
  'SELECT customer_id FROM store_customers WHERE store_id = $1 ORDER BY first_seen_at LIMIT 1',
  [storeId],
);
const customer = someone.rows[0]
  ? (
      await api('POST', '/admin/v1/tokens', {
        kind: 'customer',
        customer_id: someone.rows[0].customer_id,
        ttl_s: 7 * 24 * 3600,
      })
    ).token
  : null;
const today = new Date().toISOString().slice(0, 10);
const unit = (
  await db.query<{ id: string }>('SELECT id FROM units WHERE store_id = $1 ORDER BY sort DESC LIMIT 1', [storeId])
).rows[0]?.id;

// The shop's own booking page (issue 26): turned on at /book/demo-salon, the link printed below.
const PAGE_SLUG = 'demo-salon';
const pageOn = await api(
  'PATCH',
  '/api/v1/bookings/settings',
  { store_id: storeId, booking_page_slug: PAGE_SLUG, booking_page_enabled: true },
  merchant,
).catch((err) => {
  notes.push(`booking page not turned on: ${(err as Error).message.slice(0, 120)}`);
  return null;
});
// The shop's window on its page (issue 41): where it is, how to call it (a number from Ofcom's range for drama), a few words.
await api(
  'PATCH',
  '/api/v1/bookings/settings',
  {
    store_id: storeId,
    address: '12 Market Street\nLeeds LS1 6DT',
    phone: '0113 496 0000',
    website: 'https://demo-salon.example',
    about: 'A neighbourhood salon: cuts, colour and hot towel shaves. Walk-ins welcome when a chair is free.',
  },
  merchant,
).catch((err) => notes.push(`shop details not set: ${(err as Error).message.slice(0, 120)}`));
const pageLines = pageOn?.settings?.booking_page_enabled
  ? `\nThe shop's booking page, to share (customers book with an email code; no token needed):\n\n  ${baseUrl}/book/${PAGE_SLUG}\n\non the shop's own site (list that site under Settings, "Websites allowed"):\n\n  <script src="${baseUrl}/book/embed.js" data-slug="${PAGE_SLUG}"></script>\n`
  : '';
const webhookLines = unit
  ? await demoWebhooks(app, db, merchant, storeId, unit).catch((err) => [
      `webhooks not demonstrated: ${(err as Error).message}`,
    ])
  : [];
// Online booking: every unit gets working hours (Tuesday to Saturday 09:00-17:30 with a lunch
// break, Saturday until 16:00), so the customer can find a time and book it.
const week = {
  tuesday: [
    { open: '09:00', close: '12:30' },
    { open: '13:30', close: '17:30' },
  ],
  wednesday: [
    { open: '09:00', close: '12:30' },
    { open: '13:30', close: '17:30' },
  ],
  thursday: [
    { open: '09:00', close: '12:30' },
    { open: '13:30', close: '19:00' },
  ],
  friday: [
    { open: '09:00', close: '12:30' },
    { open: '13:30', close: '17:30' },
  ],
  saturday: [{ open: '09:00', close: '16:00' }],
};
const unhoured = await db.query<{ id: string }>('SELECT id FROM units WHERE store_id = $1 AND hours_set_at IS NULL', [
  storeId,
]);
for (const u of unhoured.rows)
  await api('PUT', `/api/v1/bookings/units/${u.id}/hours`, { week, exceptions: [] }, merchant);
const serviceId = (
  await db.query<{ id: string }>(
    'SELECT id FROM services WHERE store_id = $1 AND is_active ORDER BY sort, name LIMIT 1',
    [storeId],
  )
).rows[0]?.id;
const weekAhead = new Date(Date.now() + 6 * 86_400_000).toISOString().slice(0, 10);
const found =
  serviceId && customer
    ? await api(
        'GET',
        `/api/v1/bookings/availability?store_id=${storeId}&service_id=${serviceId}&from_date=${today}&to_date=${weekAhead}`,
        undefined,
        customer,
      )
    : null;
const firstSlot = found?.days.flatMap((d: { slots: Array<{ starts_at: string }> }) => d.slots)[0]?.starts_at ?? null;
if (!firstSlot) notes.push('no online slot found in the next week (no service or customer yet)');

// Customer messages: plan and "send" what the seeding caused. The demo never sends for real: it
// keeps them in the local mailbox, as the service does when no SMTP_URL or SMS provider is set.
const messages = createMessagesWorker({
  db,
  clock: systemClock,
  config: { ...config.messages, smtpUrl: null, sms: null },
});
await messages.drain().catch((err) => notes.push(`messages not planned: ${(err as Error).message.slice(0, 120)}`));
await messages.stop();
const kept = (
  await db.query<{
    kind: string;
    channel: string;
    to_address: string;
    subject: string;
    body_text: string;
    ics: string | null;
  }>(
    `SELECT kind, channel, to_address, subject, body_text, ics FROM messages WHERE store_id = $1 AND status = 'mailbox' ORDER BY created_at DESC LIMIT 1`,
    [storeId],
  )
).rows[0];
const mailboxLines = kept
  ? [
      '',
      `One message from the local mailbox (${kept.kind}, ${kept.channel}, to ${kept.to_address}; not sent: no SMTP_URL is set):`,
      `Subject: ${kept.subject}`,
      '',
      kept.body_text.trimEnd(),
      ...(kept.ics
        ? [
            '',
            `(with appointment.ics: ${kept.ics
              .split(/\r?\n/)
              .filter((l) => /^(METHOD|UID|SEQUENCE|DTSTART)/.test(l))
              .join(' ')})`,
          ]
        : []),
      `List them all: curl -s "$BASE/admin/v1/stores/$STORE/messages" -H "Authorization: Bearer $ADMIN_TOKEN"`,
    ]
  : ['', 'No message in the local mailbox yet (the demo bookings are in the past).'];

// The demo owner (a staff account, issue 43) and a one-time link to sign in as them.
const ownerLink = await demoOwnerLink(db, config, systemClock, {
  storeId,
  email: 'owner@demo-salon.example',
  name: 'Demo Owner',
});

await app.close();
await db.close();
await (await embeddedCluster())?.stop(); // only when the demo started the database itself

console.log(
  `Demo store "${DEMO_STORE}" (${storeId}) is ready on the ${base.databaseUrl ? 'PostgreSQL server' : 'embedded database'}.`,
);
for (const n of notes) console.log(`note: ${n}`);
for (const line of webhookLines) console.log(line);
for (const line of mailboxLines) console.log(line);
console.log(`
Start the service (npm start), then sign in to the merchant console as the demo owner
(owner@demo-salon.example) with this one-time link (72 hours): choose a password and you are in.
The token stays in the link's fragment, which the browser never sends to the server:

  ${ownerLink}

A platform that mints its own merchant tokens can still open the console with /console/#token=<jwt>.
${pageLines}
or paste:

export BASE=${baseUrl}
export STORE=${storeId}
export UNIT=${unit}
export TOKEN=${merchant}
${customer ? `export CUSTOMER_TOKEN=${customer}\n` : ''}
# Today's diary
curl -s "$BASE/api/v1/bookings/diary?store_id=$STORE&from_date=${today}&to_date=${today}" -H "Authorization: Bearer $TOKEN"
# The walk-in queue
curl -s "$BASE/api/v1/bookings/queue?store_id=$STORE" -H "Authorization: Bearer $TOKEN"
# Appointment history by person
curl -s "$BASE/api/v1/bookings/appointments/search?store_id=$STORE&q=priya" -H "Authorization: Bearer $TOKEN"
# The customer roster
curl -s "$BASE/api/v1/customers/list?store_id=$STORE" -H "Authorization: Bearer $TOKEN"
# Book an appointment (idempotent with the key)
curl -s -X POST "$BASE/api/v1/bookings/appointments" -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" \\
  -H "Idempotency-Key: demo-$(date +%s)" \\
  -d "{\\"store_id\\":\\"$STORE\\",\\"unit_id\\":\\"$UNIT\\",\\"starts_at\\":\\"${todayAt(16)}\\",\\"ends_at\\":\\"${todayAt(16, 30)}\\",\\"guest_name\\":\\"Kim\\",\\"guest_email\\":\\"kim@example.com\\"}"
${customer ? `# A customer's notification preferences\ncurl -s "$BASE/api/v1/notifications/preferences" -H "Authorization: Bearer $CUSTOMER_TOKEN"\n` : ''}${
  customer && serviceId
    ? `# Online booking as the customer: free times over the next week
export SERVICE=${serviceId}
curl -s "$BASE/api/v1/bookings/availability?store_id=$STORE&service_id=$SERVICE&from_date=${today}&to_date=${weekAhead}" -H "Authorization: Bearer $CUSTOMER_TOKEN"
${
  firstSlot
    ? `# Hold the first free time (any unit) for a few minutes, then confirm it into an appointment (source online)
HOLD=$(curl -s -X POST "$BASE/api/v1/bookings/holds" -H "Authorization: Bearer $CUSTOMER_TOKEN" -H "Content-Type: application/json" \\
  -d "{\\"store_id\\":\\"$STORE\\",\\"service_id\\":\\"$SERVICE\\",\\"starts_at\\":\\"${firstSlot}\\"}" | sed -E 's/.*"id":"([^"]+)".*/\\1/')
curl -s -X POST "$BASE/api/v1/bookings/holds/$HOLD/confirm" -H "Authorization: Bearer $CUSTOMER_TOKEN" -H "Content-Type: application/json" -d '{}'
# The customer's own upcoming bookings
curl -s "$BASE/api/v1/me/appointments?store_id=$STORE&upcoming=true" -H "Authorization: Bearer $CUSTOMER_TOKEN"
`
    : ''
}`
    : ''
}
API reference: $BASE/docs   (OpenAPI document: $BASE/openapi.json)
`);
// The last step, as a customer (issue 41): a booking made on the page itself.
if (pageOn?.settings?.booking_page_enabled) {
  const codeWay = base.messages.smtpUrl
    ? 'the code arrives by email (SMTP_URL)'
    : base.production
      ? "production with no SMTP_URL cannot send it: the page offers the shop's phone instead"
      : `no SMTP_URL is set, so the code waits in the console's Mailbox (development only): ${baseUrl}/console/#/mailbox`;
  console.log(`Finally, book as a customer would, on the shop's page:

  1. open ${baseUrl}/book/${PAGE_SLUG} and choose a time: it is held for you for ${pageOn.settings.hold_minutes} minutes;
  2. type your email and name, then "Email me a code": ${codeWay};
  3. type the code and press "Confirm booking": the page says "Booked" and offers Add to calendar;
     the booking is in the console's diary, and the confirmation in the Mailbox.
`);
}
