// The signed-in customer's own bookings.
import { Type, type Static } from 'typebox';
import { Uuid } from '../../platform/http/schemas.ts';
import { Appointment } from '../appointments/appointments.schemas.ts';

export const MyAppointmentsQuery = Type.Object(
  {
    store_id: Type.Optional(Uuid),
    upcoming: Type.Optional(
      Type.Boolean({ default: false, description: 'only live bookings that have not ended yet, soonest first' }),
    ),
  },
  { additionalProperties: false },
);
export type MyAppointmentsQuery = Static<typeof MyAppointmentsQuery>;

export const MyAppointmentsResponse = Type.Object({ appointments: Type.Array(Appointment) });
export type MyAppointmentsResponse = Static<typeof MyAppointmentsResponse>;

export const MyAppointmentParams = Type.Object({ appointmentId: Uuid }, { additionalProperties: false });
export const MyCancelBody = Type.Object(
  { reason: Type.Optional(Type.Union([Type.String({ maxLength: 500 }), Type.Null()])) },
  { additionalProperties: false },
);
export type MyCancelBody = Static<typeof MyCancelBody>;
export const MyCancelResponse = Type.Object({ appointment_id: Uuid, cancelled: Type.Boolean(), noop: Type.Boolean() });
export type MyCancelResponse = Static<typeof MyCancelResponse>;
