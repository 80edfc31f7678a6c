// GET /api/v1/reports/summary: its query and its answer (definitions in docs/reports.md).
import { Type } from 'typebox';
import { Nullable, Uuid } from '../platform/http/schemas.ts';

const LocalDate = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'A store-local date, YYYY-MM-DD' });

export const SummaryQuery = Type.Object(
  {
    store_id: Type.Optional(Uuid),
    from: LocalDate,
    to: { ...LocalDate, description: 'The last store-local day of the range (inclusive); at most 366 days after from' },
    group_by: Type.Optional(
      Type.Union([Type.Literal('unit'), Type.Literal('service'), Type.Literal('day')], { default: 'day' }),
    ),
  },
  { additionalProperties: false },
);

const Count = (description: string) => Type.Integer({ minimum: 0, description });

export const SummaryGroup = Type.Object(
  {
    key: Nullable(
      Type.String({
        description: "The unit's or service's id, or the date (YYYY-MM-DD); null: appointments without a service",
      }),
    ),
    label: Nullable(Type.String({ description: "The unit's or service's name; null by day" })),
    appointments: Count('Appointments starting in the range, in any state but pending payment'),
    completed: Count('Completed'),
    checked_in: Count('Checked in and not yet completed'),
    cancelled: Count('Cancelled (cancelled_by_customer + cancelled_by_shop)'),
    cancelled_by_customer: Count('Cancelled by the customer'),
    cancelled_by_shop: Count('Cancelled by the shop (or its deposit sweep)'),
    no_show: Count('Marked no-show'),
    no_show_rate: Type.Number({
      description: 'no_show / (completed + checked_in + no_show), 4 decimal places; 0 when that is 0',
    }),
    booked_minutes: Count('Minutes of appointments not cancelled (start to end, without buffers)'),
    working_minutes: Nullable(Count("The unit's opening hours in the range less its time-off; null by service")),
    utilisation: Nullable(
      Type.Number({
        description: 'booked_minutes / working_minutes, 4 decimal places; null by service or when working_minutes is 0',
      }),
    ),
    revenue_booked_pence: Type.Integer({ description: 'Prices of appointments not cancelled' }),
    revenue_settled_pence: Type.Integer({
      description: 'Money taken for these appointments: deposits paid and balances settled',
    }),
    currency: Type.String({ description: "ISO 4217, the store's" }),
    new_customers: Count('Customers whose first appointment at the store (not cancelled) is in this group'),
    returning_customers: Count('Other customers with an appointment (not cancelled) in this group'),
  },
  { additionalProperties: false },
);

export const SummaryResponse = Type.Object(
  {
    from: Type.String(),
    to: Type.String(),
    group_by: Type.String(),
    timezone: Type.String({ description: "The store's IANA zone: days are its local days" }),
    currency: Type.String(),
    groups: Type.Array(SummaryGroup),
  },
  { additionalProperties: false },
);
