import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestApp } from '../support/app.ts';
import { call } from '../support/http.ts';
import {
  CATEGORIES,
  CHANNELS,
  decideSend,
  maySend,
  type Category,
  type Channel,
  type SendState,
} from '../../src/notifications/may-send.ts';
import { DEFAULT_TOGGLES, type Toggles } from '../../src/notifications/preferences.schemas.ts';

const state = (over: Partial<Omit<SendState, 'toggles'>> & { toggles?: Partial<Toggles> } = {}): SendState => ({
  erased: false,
  blocked: false,
  blockedChannels: [],
  ...over,
  toggles: { ...DEFAULT_TOGGLES, ...over.toggles },
});

test('named rows of the truth table', () => {
  const rows: Array<[string, SendState | null, Category, Channel, boolean, string]> = [
    ['defaults allow a class reminder by sms', state(), 'class_reminders', 'sms', true, 'allowed'],
    ['defaults refuse marketing (opt-in)', state(), 'marketing', 'email', false, 'category_disabled'],
    [
      'marketing allowed once enabled',
      state({ toggles: { marketingEnabled: true } }),
      'marketing',
      'email',
      true,
      'allowed',
    ],
    ['a block stops every channel', state({ blocked: true }), 'penalties', 'app_message', false, 'blocked'],
    [
      'a block beats an enabled category',
      state({ blocked: true, toggles: { marketingEnabled: true } }),
      'marketing',
      'sms',
      false,
      'blocked',
    ],
    [
      'a muted channel stops that channel',
      state({ blockedChannels: ['sms'] }),
      'stamps',
      'sms',
      false,
      'channel_muted',
    ],
    ['a muted channel leaves the others', state({ blockedChannels: ['sms'] }), 'stamps', 'email', true, 'allowed'],
    [
      'messagesMuted stops every category',
      state({ toggles: { messagesMuted: true } }),
      'penalties',
      'drops_chat',
      false,
      'messages_muted',
    ],
    [
      'messagesMuted stops even enabled marketing',
      state({ toggles: { messagesMuted: true, marketingEnabled: true } }),
      'marketing',
      'email',
      false,
      'messages_muted',
    ],
    [
      'a category off stops that category',
      state({ toggles: { voucherEventsEnabled: false } }),
      'vouchers',
      'email',
      false,
      'category_disabled',
    ],
    [
      'a category off leaves the others',
      state({ toggles: { voucherEventsEnabled: false } }),
      'stamps',
      'email',
      true,
      'allowed',
    ],
    ['an erased customer gets nothing', state({ erased: true }), 'class_events', 'email', false, 'customer_erased'],
    ['an unknown customer gets nothing', null, 'class_events', 'email', false, 'customer_not_found'],
    [
      "store refusals are reported before the customer's",
      state({ blockedChannels: ['email'], toggles: { messagesMuted: true } }),
      'vouchers',
      'email',
      false,
      'channel_muted',
    ],
  ];
  for (const [name, s, category, channel, allowed, reason] of rows) {
    assert.deepEqual(decideSend(s, category, channel), { allowed, reason }, name);
  }
});

test('each category is governed by exactly its own toggle', () => {
  const governs: Record<Category, keyof Toggles> = {
    class_events: 'classEventsEnabled',
    class_reminders: 'classReminders',
    vouchers: 'voucherEventsEnabled',
    stamps: 'stampEventsEnabled',
    memberships: 'membershipEventsEnabled',
    penalties: 'penaltyEventsEnabled',
    marketing: 'marketingEnabled',
  };
  assert.deepEqual([...CATEGORIES].sort(), Object.keys(governs).sort());
  for (const toggle of Object.values(governs)) {
    // everything on, then just this one off
    const allOn = { ...DEFAULT_TOGGLES, marketingEnabled: true, [toggle]: false };
    for (const category of CATEGORIES) {
      const d = decideSend(state({ toggles: allOn }), category, 'email');
      assert.equal(d.allowed, governs[category] !== toggle, `${toggle} off, ${category}`);
    }
  }
});

test('the whole truth table: allowed exactly when nothing refuses, with the first refusal as the reason', () => {
  let cases = 0;
  for (const erased of [false, true])
    for (const blocked of [false, true])
      for (const channel of CHANNELS)
        for (const muteThis of [false, true])
          for (const messagesMuted of [false, true])
            for (const category of CATEGORIES)
              for (const toggleOn of [false, true]) {
                const others = CHANNELS.filter((c) => c !== channel).slice(0, 1); // another channel muted is irrelevant
                const s = state({
                  erased,
                  blocked,
                  blockedChannels: muteThis ? [channel, ...others] : others,
                  toggles: {
                    messagesMuted,
                    ...{
                      class_events: { classEventsEnabled: toggleOn },
                      class_reminders: { classReminders: toggleOn },
                      vouchers: { voucherEventsEnabled: toggleOn },
                      stamps: { stampEventsEnabled: toggleOn },
                      memberships: { membershipEventsEnabled: toggleOn },
                      penalties: { penaltyEventsEnabled: toggleOn },
                      marketing: { marketingEnabled: toggleOn },
                    }[category],
                  },
                });
                const expected = erased
                  ? 'customer_erased'
                  : blocked
                    ? 'blocked'
                    : muteThis
                      ? 'channel_muted'
                      : messagesMuted
                        ? 'messages_muted'
                        : !toggleOn
                          ? 'category_disabled'
                          : 'allowed';
                assert.deepEqual(decideSend(s, category, channel), {
                  allowed: expected === 'allowed',
                  reason: expected,
                });
                cases++;
              }
  assert.equal(cases, 2 * 2 * 4 * 2 * 2 * 7 * 2);
});

test('an unknown category or channel is a programming error, not a silent allow', () => {
  assert.throws(() => decideSend(state(), 'newsletters' as Category, 'email'));
  assert.throws(() => decideSend(state(), 'marketing', 'fax' as Channel));
});

test('maySend reads the saved toggles and the store block record from the database', async () => {
  const { app, db, fx } = await startTestApp();
  const shop = await fx.store({ name: 'Shop' });
  const other = await fx.store({ name: 'Other' });
  const c = await fx.customer();
  await fx.membership(shop.id, c.id);
  const ask = (category: Category, channel: Channel, storeId = shop.id) =>
    maySend(db, { storeId, customerId: c.id, category, channel });

  // Nothing saved, no block record at the other store: the spec defaults.
  assert.deepEqual(await ask('class_events', 'email'), { allowed: true, reason: 'allowed' });
  assert.deepEqual(await ask('marketing', 'email', other.id), { allowed: false, reason: 'category_disabled' });

  const customer = await fx.customerToken(c.id);
  await call(app, 'POST', '/api/v1/notifications/preferences', {
    token: customer,
    body: { storeId: shop.id, marketingEnabled: true, stampEventsEnabled: false },
  });
  assert.deepEqual(await ask('marketing', 'sms'), { allowed: true, reason: 'allowed' });
  assert.deepEqual(await ask('stamps', 'sms'), { allowed: false, reason: 'category_disabled' });
  assert.deepEqual(
    await ask('marketing', 'sms', other.id),
    { allowed: false, reason: 'category_disabled' },
    'toggles are per store',
  );

  const merchant = await fx.merchantToken(shop.id);
  await call(app, 'PATCH', `/api/v1/customers/${c.id}/block`, {
    token: merchant,
    body: { store_id: shop.id, blocked_channels: ['sms'] },
  });
  assert.deepEqual(await ask('marketing', 'sms'), { allowed: false, reason: 'channel_muted' });
  assert.deepEqual(await ask('marketing', 'email'), { allowed: true, reason: 'allowed' });

  await call(app, 'PATCH', `/api/v1/customers/${c.id}/block`, {
    token: merchant,
    body: { store_id: shop.id, blocked: true },
  });
  for (const channel of CHANNELS)
    assert.deepEqual(await ask('class_events', channel), { allowed: false, reason: 'blocked' });
  assert.deepEqual(
    await ask('class_events', 'email', other.id),
    { allowed: true, reason: 'allowed' },
    'a block is per store',
  );

  await db.query('UPDATE customers SET erased_at = now() WHERE id = $1', [c.id]);
  assert.deepEqual(await ask('class_events', 'email', other.id), { allowed: false, reason: 'customer_erased' });
  assert.deepEqual(
    await maySend(db, {
      storeId: shop.id,
      customerId: '00000000-0000-4000-8000-000000000000',
      category: 'class_events',
      channel: 'email',
    }),
    { allowed: false, reason: 'customer_not_found' },
  );
});
