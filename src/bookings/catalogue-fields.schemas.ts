// Fields the store's catalogue records share (services and their variants and add-ons, service
// periods, classes): a name that is not blank, and a display order.
import { Type } from 'typebox';

/** Not blank (one non-space character at least), up to `max` characters (the column's bound). */
export const NotBlankName = (max: number) =>
  Type.String({ minLength: 1, maxLength: max, pattern: '\\S', description: `Not blank; up to ${max} characters` });

export const Sort = Type.Integer({ minimum: -1_000_000, maximum: 1_000_000, description: 'Display order (ascending)' });
