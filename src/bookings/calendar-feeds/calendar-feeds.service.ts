// Each unit's secret calendar feed: its URL (GET, made on first ask), a rotation (POST: a new URL,
// the old one 404 at once), and the feed itself, read by calendars without a token of ours.
//
// The URL's token is HMAC-SHA256(AUTH_SECRET, unit id and a stored random nonce): the service can
// show the same URL again, while the database holds only the nonce and the token's SHA-256, so a
// copy of the database opens no feed. The feed is looked up by the hash (a unique index).
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { MerchantContext } from '../../platform/context.ts';
import type { Clock } from '../../platform/clock.ts';
import type { Queryable } from '../../platform/db/port.ts';
import { inTransaction } from '../../platform/context.ts';
import { audit } from '../../platform/audit.ts';
import { notFound } from '../../platform/errors/app-error.ts';
import * as repo from './calendar-feeds.repository.ts';
import { feedIcs } from './feed-ics.ts';

const DAY_MS = 86_400_000;
/** The feed's window: a month back (what just happened), six months ahead. */
export const FEED_DAYS_BACK = 30;
export const FEED_DAYS_AHEAD = 180;
const TOKEN = /^[A-Za-z0-9_-]{43}$/;

const tokenOf = (secret: string, unitId: string, nonce: string) =>
  createHmac('sha256', secret).update(`calendar-feed\n${unitId}\n${nonce}`).digest('base64url');
const hashOf = (token: string) => createHash('sha256').update(token).digest('hex');
const urlOf = (origin: string, token: string) => `${origin}/feeds/${token}.ics`;

/** A new feed row for the unit: a fresh nonce, and the hash of the token minted from it. */
function newFeed(ctx: MerchantContext, secret: string, unitId: string) {
  const nonce = randomBytes(16).toString('hex');
  const token = tokenOf(secret, unitId, nonce);
  const row = {
    storeId: ctx.actor.storeId,
    unitId,
    nonce,
    tokenHash: hashOf(token),
    at: ctx.clock.now().toISOString(),
  };
  return { token, row };
}

export async function feedUrl(
  ctx: MerchantContext,
  secret: string,
  origin: string,
  unitId: string,
): Promise<{ url: string }> {
  const storeId = ctx.actor.storeId;
  if (!(await repo.unitExists(ctx.db, storeId, unitId))) throw notFound('Unit');
  let nonce = (await repo.readFeedRow(ctx.db, storeId, unitId))?.nonce;
  nonce ??= await repo.ensureFeedRow(ctx.db, newFeed(ctx, secret, unitId).row);
  return { url: urlOf(origin, tokenOf(secret, unitId, nonce)) };
}

export async function rotateFeed(
  ctx: MerchantContext,
  secret: string,
  origin: string,
  unitId: string,
): Promise<{ url: string }> {
  const { token, row } = newFeed(ctx, secret, unitId);
  await inTransaction(ctx, async (tx) => {
    if (!(await repo.unitExists(tx, row.storeId, unitId))) throw notFound('Unit');
    await repo.putFeedRow(tx, row);
    await audit(tx, ctx, { action: 'unit.calendar_feed_rotated', entity: 'unit', entityId: unitId, details: {} });
  });
  return { url: urlOf(origin, token) };
}

export interface FeedAnswer {
  body: string;
  etag: string;
  lastModified: Date;
}

/** The feed for a token, or null (unknown, rotated away, malformed: all alike). */
export async function readFeed(db: Queryable, clock: Clock, token: string): Promise<FeedAnswer | null> {
  if (!TOKEN.test(token)) return null;
  const owner = await repo.feedOwner(db, hashOf(token));
  if (!owner) return null;
  const now = clock.now().getTime();
  const from = new Date(now - FEED_DAYS_BACK * DAY_MS).toISOString();
  const to = new Date(now + FEED_DAYS_AHEAD * DAY_MS).toISOString();
  const [appointments, classes] = await Promise.all([
    repo.feedAppointments(db, owner, from, to),
    repo.feedClasses(db, owner, from, to),
  ]);
  const body = feedIcs(owner, appointments, classes);
  const changed = Math.max(
    new Date(owner.created_at).getTime(),
    ...appointments.map((a) => new Date(a.updated_at).getTime()),
    ...classes.map((o) => new Date(o.changed_at).getTime()),
  );
  return {
    body,
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`,
    // HTTP dates have whole seconds.
    lastModified: new Date(Math.floor(changed / 1000) * 1000),
  };
}
