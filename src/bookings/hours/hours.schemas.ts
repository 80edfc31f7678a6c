// A unit's working hours, store-local: a week of intervals (split shifts allowed) and dated
// exceptions that replace a day (no intervals: closed that day).
import { Type, type Static } from 'typebox';
import { Uuid } from '../../platform/http/schemas.ts';

const HHMM = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: '24-hour HH:MM, 00:00 to 23:59' });
const CLOSE = Type.String({
  pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$',
  description: '24-hour HH:MM; 24:00 means until midnight',
});

export const Interval = Type.Object({ open: HHMM, close: CLOSE }, { additionalProperties: false });
export type Interval = Static<typeof Interval>;
const Intervals = Type.Array(Interval, {
  maxItems: 12,
  description: 'several intervals make a split shift; none means closed',
});

export const DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

export const HoursWeek = Type.Object(
  {
    sunday: Type.Optional(Intervals),
    monday: Type.Optional(Intervals),
    tuesday: Type.Optional(Intervals),
    wednesday: Type.Optional(Intervals),
    thursday: Type.Optional(Intervals),
    friday: Type.Optional(Intervals),
    saturday: Type.Optional(Intervals),
  },
  { additionalProperties: false, description: 'an omitted day is closed' },
);

export const HoursException = Type.Object(
  { date: Type.String({ format: 'date' }), intervals: Intervals },
  { additionalProperties: false },
);

export const HoursParams = Type.Object({ unitId: Uuid }, { additionalProperties: false });
export const HoursQuery = Type.Object({ store_id: Type.Optional(Uuid) }, { additionalProperties: false });

export const PutHoursBody = Type.Object(
  {
    store_id: Type.Optional(Uuid),
    week: HoursWeek,
    exceptions: Type.Optional(Type.Array(HoursException, { maxItems: 400 })),
  },
  { additionalProperties: false },
);
export type PutHoursBody = Static<typeof PutHoursBody>;

export const HoursResponse = Type.Object({
  unit_id: Uuid,
  hours_set: Type.Boolean({ description: 'false until hours are first set: such a unit is not offered online' }),
  week: Type.Object(
    Object.fromEntries(DAYS.map((d) => [d, Type.Array(Interval)])) as Record<(typeof DAYS)[number], typeof Intervals>,
  ),
  exceptions: Type.Array(HoursException),
});
export type HoursResponse = Static<typeof HoursResponse>;
