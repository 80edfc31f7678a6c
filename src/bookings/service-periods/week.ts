// A service period's opening week: { monday: { open: "12:00", close: "15:00" }, ... }.
// The schema refuses unknown day keys, unknown fields and anything that is not HH:MM (00:00-23:59);
// what a schema cannot say (close after open) is checked here and refused as INVALID_WEEK.
import { Type, type Static } from 'typebox';
import { AppError } from '../../platform/errors/app-error.ts';

export const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Day = (typeof DAYS)[number];

// 24-hour clock, two digits each; 24:00 is not a time of day, so a window ends at 23:59 at the latest.
const HHMM = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: '24-hour HH:MM, 00:00 to 23:59' });

export const DayWindow = Type.Object(
  { open: HHMM, close: HHMM },
  {
    additionalProperties: false,
    description: 'Open from `open` until `close`; `close` must be after `open` (same day).',
  },
);

export const Week = Type.Object(
  {
    sunday: Type.Optional(DayWindow),
    monday: Type.Optional(DayWindow),
    tuesday: Type.Optional(DayWindow),
    wednesday: Type.Optional(DayWindow),
    thursday: Type.Optional(DayWindow),
    friday: Type.Optional(DayWindow),
    saturday: Type.Optional(DayWindow),
  },
  {
    additionalProperties: false,
    description:
      'Opening window per day. Only the seven day keys; an omitted day is closed. A PATCH that sends `week` replaces the whole week.',
  },
);
export type Week = Static<typeof Week>;

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** Throws INVALID_WEEK naming the first day whose close is not after its open. */
export function assertWeekWindows(week: Week): void {
  for (const day of DAYS) {
    const window = week[day];
    if (window && minutes(window.close) <= minutes(window.open)) {
      throw new AppError('INVALID_WEEK', `week.${day}.close must be after open`);
    }
  }
}
