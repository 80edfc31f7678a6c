// Opening a live stream: where it starts (Last-Event-ID, else ?after, else now), the retention check,
// and the subscriber wired to the process's pump. Only the caller's store is ever streamed.
import { PassThrough } from 'node:stream';
import type { MerchantContext } from '../../platform/context.ts';
import { parseFeedCursor } from '../feed-cursor.ts';
import { feedHead } from '../feed.repository.ts';
import { assertRetained } from '../retention.ts';
import { parseTypes } from '../events.service.ts';
import type { StreamQuery } from '../events.schemas.ts';
import type { EventPump } from './event-pump.ts';
import { StreamSubscriber } from './subscriber.ts';

export async function openStream(
  ctx: MerchantContext,
  pump: EventPump,
  query: StreamQuery,
  lastEventId: string | undefined,
): Promise<PassThrough> {
  const storeId = ctx.actor.storeId;
  const types = parseTypes(query.types);
  const resumeFrom = lastEventId?.trim() || query.after;
  // Refusals (a malformed or expired cursor) answer before the stream starts, in the error envelope.
  const given = resumeFrom ? parseFeedCursor(resumeFrom) : null;
  if (given) await assertRetained(ctx.db, storeId, given);
  const out = new PassThrough();
  // Without a cursor the stream starts now: at the newest event already readable.
  const cursor = given ?? (await feedHead(ctx.db));
  const sub = new StreamSubscriber(storeId, types, cursor, out, pump, ctx.db);
  await pump.add(sub);
  // A comment first, so clients and proxies see the stream open at once; then a reconnect delay hint.
  out.write(': stream open\nretry: 1000\n\n');
  void sub.catchUp();
  return out;
}
