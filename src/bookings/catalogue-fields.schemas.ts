// Fields the store's catalogue records share (services and their variants and add-ons, service
// periods, classes): a name that is not blank, a display order, and the list query that shows the
// archived (is_active false) ones on request.
import { Type } from 'typebox';
import { StoreIdField } from '../platform/http/schemas.ts';

/** Not blank (one non-space character at least), up to `max` characters (the column's bound). */
export const NotBlankName = (max: number) =>
  Type.String({ minLength: 1, maxLength: max, pattern: '\\S', description: `Not blank; up to ${max} characters` });

export const Sort = Type.Integer({ minimum: -1_000_000, maximum: 1_000_000, description: 'Display order (ascending)' });

/** A list of the store's records; `includes` describes what include_archived adds. */
export const archivableListQuery = (includes: string) =>
  Type.Object(
    {
      store_id: StoreIdField,
      include_archived: Type.Optional(Type.Boolean({ default: false, description: includes })),
    },
    { additionalProperties: false },
  );
