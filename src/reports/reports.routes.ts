// GET /api/v1/reports/summary: the store's figures for a range of its local days, as JSON or CSV.
import type { FastifyInstance } from 'fastify';
import { auth } from '../platform/auth/guard.ts';
import { declareRoutes } from '../platform/http/route.ts';
import { merchantContext } from '../platform/context.ts';
import { SummaryQuery, SummaryResponse } from './reports.schemas.ts';
import { summaryCsv, summaryReport } from './reports.service.ts';

export async function reportsRoutes(app: FastifyInstance) {
  const route = declareRoutes(app, { tags: ['Reports'] });
  route.get('/summary', 'reportSummary', auth.merchantRead(), {
    summary:
      'Appointments, no-shows, utilisation, revenue and customers for a range of store-local days, by unit, service or day',
    description:
      'Every figure is defined in docs/reports.md. `Accept: text/csv` answers the same groups as CSV. ' +
      'from and to are store-local dates (inclusive), at most 366 days; to before from answers 400 INVALID_TIME_RANGE.',
    schema: {
      querystring: SummaryQuery,
      response: {
        200: {
          description: 'The groups, in key order',
          content: {
            'application/json': { schema: SummaryResponse },
            'text/csv': {
              schema: { type: 'string', description: 'The same groups, one row each, with a header row' },
            },
          },
        },
      },
    },
    handler: async (request, reply) => {
      const report = await summaryReport(merchantContext(request), request.query);
      const accept = request.headers.accept ?? '';
      if (/\btext\/csv\b/.test(accept) && !/\bapplication\/json\b/.test(accept)) {
        return reply
          .type('text/csv; charset=utf-8')
          .header(
            'content-disposition',
            `attachment; filename="summary-${report.from}-${report.to}-${report.group_by}.csv"`,
          )
          .send(Buffer.from(summaryCsv(report)));
      }
      return reply.type('application/json; charset=utf-8').send(report);
    },
  });
}
