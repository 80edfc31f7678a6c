// The appointment status changes' and settle's write functions (db/functions/appointment-status.sql,
// settle.sql): the request each sends and the result body it reads, checked at the call by
// src/platform/one-statement.ts and against the SQL's reads by test/platform/write-functions.test.ts.
import { Type } from 'typebox';
import { writeFunction } from '../../platform/one-statement.ts';
import { NullableString, Uuid } from '../../platform/http/schemas.ts';
import { CancelResponse, SettleBody, SettleResponse, StatusResponse } from './appointments.schemas.ts';

const strict = { additionalProperties: false } as const;
const target = { store_id: Uuid, appointment_id: Uuid };
/** Only the customer's own cancel (customer-cancel.sql) names another canceller; absent means 'merchant'. */
const CancelledBy = Type.Optional(Type.Literal('merchant'));

/** check-in, complete and no-show: a status change with no reason. */
export const statusChange = writeFunction(
  'bbo_appointment_status',
  Type.Object(
    {
      ...target,
      op: Type.Union([Type.Literal('check_in'), Type.Literal('complete'), Type.Literal('no_show')]),
      reason: Type.Null(),
      cancelled_by: CancelledBy,
    },
    strict,
  ),
  StatusResponse,
);

/** The merchant's cancel: the reason already trimmed, null when blank. */
export const cancelChange = writeFunction(
  'bbo_appointment_status',
  Type.Object(
    {
      ...target,
      op: Type.Literal('cancel'),
      reason: NullableString,
      cancelled_by: CancelledBy,
    },
    strict,
  ),
  CancelResponse,
);

export const settleWrite = writeFunction(
  'bbo_settle',
  Type.Object(
    {
      ...target,
      method: SettleBody.properties.method,
      user_id: NullableString,
      staff_name: NullableString,
    },
    strict,
  ),
  SettleResponse,
);
