// The import's query and its report (the same shape for a dry run and a real run).
import { Type } from 'typebox';
import { Uuid } from '../platform/http/schemas.ts';

export const ImportQuery = Type.Object(
  {
    store_id: Type.Optional(Uuid),
    dry_run: Type.Optional(
      Type.Boolean({ description: 'true: check every row and answer the report, writing nothing' }),
    ),
    mapping: Type.Optional(
      Type.String({
        maxLength: 4000,
        description:
          'JSON object from a column header, as written in the file, to a field name, or to null to ignore that column; ' +
          'for columns whose names the import does not recognise',
      }),
    ),
  },
  { additionalProperties: false },
);

export const ImportError = Type.Object(
  {
    row: Type.Integer({ description: 'The line of the file (the header is line 1)' }),
    field: Type.String({ description: 'The field at fault (or "row")' }),
    code: Type.String({
      description:
        'A stable code: INVALID_EMAIL, INVALID_PHONE, NAME_TOO_LONG, DUPLICATE_IN_FILE, SLOT_TAKEN, NONEXISTENT_LOCAL_TIME...',
    }),
    message: Type.String(),
  },
  { additionalProperties: false },
);

export const ImportReport = Type.Object(
  {
    dry_run: Type.Boolean(),
    rows: Type.Integer({ description: 'Rows under the header' }),
    created: Type.Integer(),
    updated: Type.Integer(),
    unchanged: Type.Integer(),
    skipped: Type.Integer({ description: 'Rows not written because of an error (each listed in errors)' }),
    errors: Type.Array(ImportError),
  },
  { additionalProperties: false },
);

export type ImportReportBody = {
  dry_run: boolean;
  rows: number;
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  errors: Array<{ row: number; field: string; code: string; message: string }>;
};
