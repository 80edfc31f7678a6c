// The diary's request and response, field for field as the spec lists them.
import { Type, type Static } from 'typebox';
import { Instant, Nullable, NullableInstant, NullableString, NullableUuid, Uuid } from '../../platform/http/schemas.ts';
import { Unit } from '../units/unit.schemas.ts';
import { TimeOffEntry } from '../time-off/time-off.schemas.ts';
import { AppointmentFields } from '../appointments/appointments.schemas.ts';

/** Longest range one diary read may cover, in days (about two months of columns). */
export const MAX_DIARY_DAYS = 62;

const LocalDate = Type.String({ format: 'date', description: 'store-local calendar date, YYYY-MM-DD' });

export const DiaryQuery = Type.Object(
  {
    store_id: Uuid,
    from_date: LocalDate,
    to_date: LocalDate,
    unit_id: Type.Optional(Type.Union([Uuid, Type.Null()], { description: 'omit (or send empty) for every unit' })),
    include_cancelled: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);
export type DiaryQuery = Static<typeof DiaryQuery>;

/** A diary appointment: the Appointment without store_id, unit_id and source, plus five fields. */
const { store_id: _store, unit_id: _unit, source: _source, ...diaryFields } = AppointmentFields;
export const DiaryAppointment = Type.Object({
  ...diaryFields,
  preferred_area_id: NullableUuid,
  preferred_area_name: NullableString,
  checked_in_at: NullableInstant,
  completed_at: NullableInstant,
  cancelled_at: NullableInstant,
});
export type DiaryAppointment = Static<typeof DiaryAppointment>;

/**
 * One appointment read by id: the diary appointment with the Appointment's store_id, unit_id and
 * source, and the note the guest wrote at checkout. The note is here and not in the diary list,
 * whose fields the spec closes ("A diary appointment does not carry ... fields beyond those listed").
 */
export const AppointmentDetail = Type.Object({
  ...DiaryAppointment.properties,
  store_id: Uuid,
  unit_id: Uuid,
  source: Type.String(),
  guest_note: Nullable(
    Type.String({
      description: 'what the guest wrote when confirming online (at most 1000 characters); null when nothing',
    }),
  ),
});
export type AppointmentDetail = Static<typeof AppointmentDetail>;
export const AppointmentParams = Type.Object({ appointmentId: Uuid }, { additionalProperties: false });
export const AppointmentQuery = Type.Object({ store_id: Type.Optional(Uuid) }, { additionalProperties: false });
export const BookedBy = Type.Object(
  {
    type: Type.Union([
      Type.Literal('staff'),
      Type.Literal('api_key'),
      Type.Literal('merchant_token'),
      Type.Literal('customer'),
      Type.Literal('admin'),
    ]),
    name: Nullable(Type.String({ description: 'The staff member\'s name, or "API key <name>"; null for a customer' })),
  },
  { additionalProperties: false },
);
export const AppointmentDetailResponse = Type.Object({
  appointment: AppointmentDetail,
  booked_by: Type.Union([BookedBy, Type.Null()], {
    description:
      'Who booked the appointment (from its audit trail); null when unknown, e.g. an imported appointment. Beside the appointment, whose fields the spec closes.',
  }),
});

export const Hold = Type.Object({
  id: Uuid,
  starts_at: Instant,
  ends_at: Instant,
  expires_at: NullableInstant,
});
export type Hold = Static<typeof Hold>;

export const DiaryColumn = Type.Object({
  unit: Unit,
  appointments: Type.Array(DiaryAppointment),
  holds: Type.Array(Hold),
  time_off: Type.Array(TimeOffEntry),
});

export const DiaryResponse = Type.Object({
  store_id: Uuid,
  timezone: Type.String({ description: 'IANA timezone of the store' }),
  from: Instant,
  to: Instant,
  units: Type.Array(DiaryColumn),
});
export type DiaryResponse = Static<typeof DiaryResponse>;
