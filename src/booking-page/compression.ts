// Answers compressed when the client accepts it (@fastify/compress, every route registered after it):
// a month of availability for twenty units is about 430 KB of JSON, and the page's files are text.
// Brotli at quality 4 (the library's default is 11, tens of milliseconds per large answer on a
// shared core) and gzip; nothing under 1 KB. Server-Sent Events (text/event-stream) are never
// compressed (the library's default types exclude them), so each event is flushed as it is written.
import compress from '@fastify/compress';
import { constants } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

export async function registerCompression(app: FastifyInstance): Promise<void> {
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
}
