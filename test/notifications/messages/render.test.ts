// The .ics carries the store zone's wall time whatever zone the process itself runs in, including
// wall times that do not exist in the process's zone (its own daylight-saving gap).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const RENDER = fileURLToPath(new URL('../../../src/notifications/messages/render.ts', import.meta.url));
const CASES = [
  // 01:30 New York on 29 March is 05:30Z; in London that wall time falls in the clocks-forward gap.
  [
    'America/New_York',
    '2026-03-29T05:30:00Z',
    '2026-03-29T06:00:00Z',
    'DTSTART;TZID=America/New_York:20260329T013000',
    'DTEND;TZID=America/New_York:20260329T020000',
  ],
  [
    'Europe/London',
    '2026-10-25T01:30:00Z',
    '2026-10-25T02:00:00Z',
    'DTSTART;TZID=Europe/London:20261025T013000',
    'DTEND;TZID=Europe/London:20261025T020000',
  ],
  [
    'Europe/London',
    '2026-06-10T09:30:00Z',
    '2026-06-10T10:15:00Z',
    'DTSTART;TZID=Europe/London:20260610T103000',
    'DTEND;TZID=Europe/London:20260610T111500',
  ],
  [
    'Australia/Sydney',
    '2026-06-10T09:30:00Z',
    '2026-06-10T10:15:00Z',
    'DTSTART;TZID=Australia/Sydney:20260610T193000',
    'DTEND;TZID=Australia/Sydney:20260610T201500',
  ],
];

for (const processZone of ['UTC', 'Europe/London', 'America/New_York']) {
  test(`.ics wall times in the store's zone with the process in ${processZone}`, () => {
    const script = `
      const { renderMessage } = await import(${JSON.stringify(RENDER)});
      const cases = ${JSON.stringify(CASES)};
      console.log(JSON.stringify(cases.map(([tz, s, e]) => renderMessage({ kind: 'confirmation', storeName: 'S', timezone: tz, serviceName: null, unitName: null, appointmentId: 'a', startsAt: s, endsAt: e, stampedAt: '2026-03-01T00:00:00Z' }).ics)));`;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, TZ: processZone },
    }).toString();
    const ics: string[] = JSON.parse(out);
    for (const [i, [tz, , , start, end]] of CASES.entries()) {
      const lines = ics[i].split('\r\n');
      assert.ok(lines.includes(start), `${tz}: ${start}`);
      assert.ok(lines.includes(end), `${tz}: ${end}`);
      assert.ok(lines.includes(`TZID:${tz}`), `${tz}: its VTIMEZONE`);
    }
  });
}
