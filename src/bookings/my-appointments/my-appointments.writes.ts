// The customer's own cancel (db/functions/customer-cancel.sql): the request and the result body as
// schemas, checked at the call (src/platform/one-statement.ts) and against the SQL's reads
// (test/platform/write-functions.test.ts).
import { Type } from 'typebox';
import { writeFunction } from '../../platform/one-statement.ts';
import { NullableString, Uuid } from '../../platform/http/schemas.ts';
import { MyCancelResponse } from './my-appointments.schemas.ts';

/** reason: already trimmed, null when blank. */
export const customerCancel = writeFunction(
  'bbo_customer_cancel',
  Type.Object(
    {
      customer_id: Uuid,
      appointment_id: Uuid,
      reason: NullableString,
    },
    { additionalProperties: false },
  ),
  MyCancelResponse,
);
