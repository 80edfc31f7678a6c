// The channels a message goes out on that a merchant can mute for one customer (a block's
// blocked_channels, customers/blocks/): defined here, below customers/, so may-send.ts reads them
// without importing up a layer.
export const CHANNELS = ['email', 'sms', 'drops_chat', 'app_message'] as const;
export type Channel = (typeof CHANNELS)[number];
