// Micro-benchmark behind a finding in docs/performance/history/round-12.md: what rendering one
// message costs the messages planner (src/notifications/messages/render.ts): a confirmation carries
// an .ics with its zone's VTIMEZONE (ical-generator), a reminder none. Compare ical-generator
// versions by running it from trees with each installed.
// Run: ./node_modules/.bin/node bench/micro/render.ts
import { renderMessage } from '../../src/notifications/messages/render.ts';

const base = {
  storeName: 'Bench Store 1',
  timezone: 'Europe/London',
  serviceName: 'Cut and finish',
  unitName: 'Alex',
  appointmentId: '7026be03-65fc-6320-8bc0-7e26b0d87077',
  stampedAt: '2026-11-27T09:00:00Z',
};

function time(kind: 'confirmation' | 'reminder', n = 5_000) {
  const render = (i: number) =>
    renderMessage({
      ...base,
      kind,
      startsAt: new Date(Date.UTC(2026, 11, 1, 9) + i * 60_000).toISOString(),
      endsAt: new Date(Date.UTC(2026, 11, 1, 10) + i * 60_000).toISOString(),
      sequence: 0,
    });
  for (let i = 0; i < 500; i++) render(i);
  const t0 = performance.now();
  for (let i = 0; i < n; i++) render(i);
  console.log(`${kind}: ${(((performance.now() - t0) * 1000) / n).toFixed(1)} µs a message`);
}
time('confirmation');
time('reminder');
