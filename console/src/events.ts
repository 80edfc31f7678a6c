// Live updates from GET /api/v1/events/stream (Server-Sent Events). EventSource cannot send the
// Authorization header and a token must never travel in a URL, so the stream is read with fetch and
// parsed here: `id:` is the resume cursor (sent back as Last-Event-ID on reconnect), `event:` the type,
// `data:` the event JSON; lines starting with ':' are heartbeats.
import type { Ok, paths, Query } from '../../client/index.ts';

/** An event as the feed and the stream carry it (the generated type of GET /api/v1/events). */
export type StoreEvent = Ok<'/api/v1/events', 'get'>['events'][number];
const STREAM_PATH = '/api/v1/events/stream' satisfies keyof paths;
export interface StreamMessage {
  id: string | null;
  event: string;
  data: string;
}

/** Splits an SSE byte stream into messages (exported for its test). */
export function createParser(onMessage: (m: StreamMessage) => void) {
  let buffer = '';
  let id: string | null = null;
  let event = '';
  let data: string[] = [];
  return (chunk: string) => {
    buffer += chunk;
    let nl: number;
    while ((nl = buffer.search(/\r\n|\r|\n/)) >= 0) {
      // A CR at the very end may be the first half of a CRLF split across chunks: wait for more.
      if (nl === buffer.length - 1 && buffer[nl] === '\r') break;
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + (buffer.startsWith('\r\n', nl) ? 2 : 1));
      if (line === '') {
        if (data.length) onMessage({ id, event: event || 'message', data: data.join('\n') });
        event = '';
        data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') data.push(value);
      else if (field === 'event') event = value;
      else if (field === 'id') id = value;
    }
  };
}

export type StreamStatus = 'connecting' | 'live' | 'unavailable' | 'retrying';

export interface StreamOptions {
  storeId: string;
  types?: string[];
  token: () => string | null;
  onEvent: (type: string, event: StoreEvent | null) => void;
  onStatus?: (status: StreamStatus) => void;
  onUnauthenticated?: (message: string) => void;
}

/** Opens the stream and keeps it open (reconnecting from the last cursor); returns a stop function. */
export function openEventStream(options: StreamOptions): () => void {
  const controller = new AbortController();
  let lastId: string | null = null;
  let stopped = false;

  async function connect(attempt: number): Promise<void> {
    if (stopped) return;
    options.onStatus?.(attempt ? 'retrying' : 'connecting');
    // A staff session rides on its cookie (same origin); a merchant token goes in the header.
    const token = options.token();
    const params: Query<typeof STREAM_PATH, 'get'> = { store_id: options.storeId };
    if (options.types?.length) params.types = options.types.join(',');
    const query = new URLSearchParams(params as Record<string, string>);
    const headers: Record<string, string> = {
      accept: 'text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    };
    if (lastId) headers['last-event-id'] = lastId;
    try {
      const res = await fetch(`${STREAM_PATH}?${query}`, { headers, signal: controller.signal, cache: 'no-store' });
      if (res.status === 401) {
        const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
        return options.onUnauthenticated?.(body?.error?.message ?? 'Your session has ended');
      }
      if (res.status === 404 || res.status === 403) return options.onStatus?.('unavailable');
      if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
      options.onStatus?.('live');
      attempt = 0;
      const parse = createParser((m) => {
        if (m.id) lastId = m.id;
        let event: StoreEvent | null = null;
        try {
          event = JSON.parse(m.data) as StoreEvent;
        } catch {
          /* not JSON: the type alone still says what changed */
        }
        options.onEvent(m.event, event);
      });
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parse(value);
      }
    } catch {
      if (stopped) return;
    }
    if (stopped) return;
    const wait = Math.min(10_000, 500 * 2 ** attempt);
    setTimeout(() => void connect(attempt + 1), wait);
  }

  void connect(0);
  return () => {
    stopped = true;
    controller.abort();
  };
}
