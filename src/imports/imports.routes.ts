// POST /api/v1/imports/customers and /appointments: a CSV file as the body (text/csv), streamed.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { auth } from '../platform/auth/guard.ts';
import { merchantContext } from '../platform/context.ts';
import { AppError } from '../platform/errors/app-error.ts';
import { validatorCompiler } from '../platform/http/validation.ts';
import { ImportQuery, ImportReport } from './imports.schemas.ts';
import { importCustomers } from './customers-import.service.ts';
import { importAppointmentsFile } from './appointments-import.service.ts';

/** The upload, kept as the stream it arrives as (the body itself stays null, so nothing reads it whole). */
const uploads = new WeakMap<FastifyRequest, AsyncIterable<Buffer>>();

const CsvBody = Type.String({
  description: 'The CSV file: UTF-8 (with or without a BOM), comma or semicolon, the first row naming the columns',
});

export async function importsRoutes(app: FastifyInstance) {
  const limitBytes = app.deps.config.importLimitBytes;
  // Only in this plugin: text/csv is accepted here and nowhere else. BODY_LIMIT_BYTES does not apply;
  // csv-source.ts counts the bytes against IMPORT_LIMIT_BYTES as they arrive.
  app.addContentTypeParser('text/csv', { bodyLimit: limitBytes }, (request, payload, done) => {
    uploads.set(request, payload as AsyncIterable<Buffer>);
    done(null, null);
  });

  const route = (url: string, operationId: string, summary: string, description: string, run: typeof importCustomers) =>
    app.withTypeProvider<TypeBoxTypeProvider>().post(
      url,
      {
        config: { auth: auth.merchantWrite() },
        // The body is a stream, not a value: the schema documents it and is not checked against it.
        validatorCompiler: (req) => (req.httpPart === 'body' ? () => true : validatorCompiler(req)),
        schema: {
          operationId,
          tags: ['Import'],
          summary,
          description,
          querystring: ImportQuery,
          consumes: ['text/csv'],
          body: CsvBody,
          response: { 200: ImportReport },
        },
      },
      async (request) => {
        const body = uploads.get(request);
        if (!body) throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'An import takes a CSV file as text/csv');
        const { dry_run, mapping } = request.query;
        return run(merchantContext(request), { body, limitBytes, mapping, dryRun: dry_run === true });
      },
    );

  route(
    '/customers',
    'importCustomers',
    'Import customers from a CSV file',
    'Columns recognised: external_id (id, client id), name or first name and last name, email, mobile (phone), notes, marketing. ' +
      'A row is matched to a customer by external_id, else email, else mobile: new people are created, blanks of known people filled, ' +
      'the same file again changes nothing. Rows with errors are reported by line and not written. dry_run=true writes nothing.',
    importCustomers,
  );
  route(
    '/appointments',
    'importAppointments',
    'Import appointments from a CSV file',
    "Columns recognised: external_id, unit (staff), service (by id or name), start (YYYY-MM-DD HH:MM in the store's time zone), " +
      "minutes (else the service's length), name, email, mobile, price (pounds). An overlap is refused by the same constraint as every booking. " +
      'Appointments that ended before now are imported as completed. No message is sent to customers.',
    importAppointmentsFile,
  );
}
