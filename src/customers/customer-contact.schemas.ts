// A customer as the merchant's lists and edits name them: the id and the contact fields, each null
// when unknown (or erased). Spread first into the roster's and the search's rows and the profile's record.
import { NullableString, Uuid } from '../platform/http/schemas.ts';

export const customerContact = {
  id: Uuid,
  name: NullableString,
  phone: NullableString,
  email: NullableString,
};
