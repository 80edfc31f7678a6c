// Recording a deposit as paid (db/functions/deposit-paid.sql): the request and the result body as
// schemas, checked at the call (src/platform/one-statement.ts) and against the SQL's reads
// (test/platform/write-functions.test.ts). The result is also the routes' 200 answer.
import { Type, type Static } from 'typebox';
import { writeFunction } from '../../platform/one-statement.ts';
import { Uuid } from '../../platform/http/schemas.ts';

export const DepositPaidResponse = Type.Object({
  appointment_id: Uuid,
  status: Type.String(),
  payment_status: Type.String(),
  noop: Type.Boolean({ description: 'true when the deposit was already recorded as paid' }),
});
export type DepositPaidResponse = Static<typeof DepositPaidResponse>;

export const depositPaid = writeFunction(
  'bbo_deposit_paid',
  Type.Object({ store_id: Uuid, appointment_id: Uuid }, { additionalProperties: false }),
  DepositPaidResponse,
);
