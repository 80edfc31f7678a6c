// A minimal Server-Sent Events client (the SSE proof and test/events/stream.test.ts): connects with an
// optional Last-Event-ID, parses messages and comments, and can be cut off mid-stream.
import http from 'node:http';

export interface SseMessage {
  id: string | null;
  event: string | null;
  data: any;
}

export interface SseClient {
  status: number;
  headers: http.IncomingHttpHeaders;
  messages: SseMessage[];
  comments: string[];
  /** Resolves once at least n messages have arrived (rejects after timeoutMs). */
  waitFor(n: number, timeoutMs?: number): Promise<SseMessage[]>;
  waitForComment(match: RegExp, timeoutMs?: number): Promise<void>;
  /** The body of a non-200 answer. */
  body(): Promise<string>;
  close(): void;
  ended: Promise<void>;
}

export function connectSse(baseUrl: string, path: string, headers: Record<string, string>): Promise<SseClient> {
  return new Promise((resolve, reject) => {
    const req = http.get(new URL(path, baseUrl), { headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      const messages: SseMessage[] = [];
      const comments: string[] = [];
      const waiters: Array<() => void> = [];
      let buffer = '';
      let raw = '';
      let endResolve!: () => void;
      const ended = new Promise<void>((r) => (endResolve = r));
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        raw += res.statusCode === 200 ? '' : chunk;
        buffer += chunk;
        let cut: number;
        while ((cut = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const msg: SseMessage = { id: null, event: null, data: null };
          let dataText: string | null = null;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.startsWith('id: ')) msg.id = line.slice(4);
            else if (line.startsWith('event: ')) msg.event = line.slice(7);
            else if (line.startsWith('data: ')) dataText = (dataText === null ? '' : dataText + '\n') + line.slice(6);
          }
          if (dataText !== null) {
            msg.data = JSON.parse(dataText);
            messages.push(msg);
          }
        }
        for (const w of waiters.splice(0)) w();
      });
      res.on('end', () => endResolve());
      res.on('close', () => endResolve());
      res.on('error', () => endResolve());
      const until = (ready: () => boolean, timeoutMs: number, what: string) =>
        new Promise<void>((ok, fail) => {
          const timer = setTimeout(() => fail(new Error(`timed out waiting for ${what}`)), timeoutMs);
          const check = () => {
            if (ready()) {
              clearTimeout(timer);
              ok();
            } else waiters.push(check);
          };
          check();
        });
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        messages,
        comments,
        waitFor: async (n, timeoutMs = 5000) => {
          await until(() => messages.length >= n, timeoutMs, `${n} messages (have ${messages.length})`);
          return messages;
        },
        waitForComment: (match, timeoutMs = 5000) =>
          until(() => comments.some((c) => match.test(c)), timeoutMs, `a comment ${match}`),
        body: async () => {
          await ended;
          return raw;
        },
        close: () => req.destroy(),
        ended,
      });
    });
    req.on('error', reject);
  });
}
