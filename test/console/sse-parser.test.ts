// The console reads the events stream with fetch and this parser (EventSource cannot send a token).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createParser, type StreamMessage } from '../../console/src/events.ts';

test('splits messages on blank lines, keeps the id cursor and event type, and skips heartbeats', () => {
  const got: StreamMessage[] = [];
  const feed = createParser((m) => got.push(m));
  const text =
    ': heartbeat\n\nid: 7\nevent: appointment.created\ndata: {"id":"e1",\ndata: "x":1}\n\n:hb\r\n\r\nid: 8\r\nevent: queue.joined\r\ndata: {}\r\n\r\n';
  // Arbitrary chunk boundaries, including inside a CRLF and a field name.
  for (const chunk of [text.slice(0, 5), text.slice(5, 31), text.slice(31, 77), text.slice(77, 90), text.slice(90)])
    feed(chunk);
  assert.deepEqual(got, [
    { id: '7', event: 'appointment.created', data: '{"id":"e1",\n"x":1}' },
    { id: '8', event: 'queue.joined', data: '{}' },
  ]);
});

test('a CRLF split across two chunks is one line end', () => {
  const got: StreamMessage[] = [];
  const feed = createParser((m) => got.push(m));
  for (const chunk of ['id: 3\r', '\nevent: x\r', '\ndata: 1\r', '\n\r', '\n']) feed(chunk);
  assert.deepEqual(got, [{ id: '3', event: 'x', data: '1' }]);
});

test('a message without an event field is a "message"; the id persists until replaced', () => {
  const got: StreamMessage[] = [];
  const feed = createParser((m) => got.push(m));
  feed('id: 1\ndata: a\n\ndata: b\n\n');
  assert.deepEqual(got, [
    { id: '1', event: 'message', data: 'a' },
    { id: '1', event: 'message', data: 'b' },
  ]);
});
