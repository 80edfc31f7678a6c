// Activity ingestion: the rest of the platform reports class bookings, stamps, orders and journey
// events. One transaction records the row, creates or stretches the store relationship, and
// refreshes the roster aggregates the roster, search and lifecycle stages read.
import { inTransaction, type AdminContext } from '../../platform/context.ts';
import { AppError, badRequest, notFound } from '../../platform/errors/app-error.ts';
import * as repo from './activity.repository.ts';
import type {
  ActivityBody,
  ClassBookingActivity,
  JourneyEventActivity,
  OrderActivity,
  StampActivity,
} from './activity.schemas.ts';

type Planned = Omit<repo.UpsertInput, 'storeId' | 'customerId' | 'now' | 'id'>;

function classBooking(b: ClassBookingActivity): Planned {
  return {
    table: 'class_bookings',
    instantColumn: 'created_at',
    instant: b.created_at ?? null,
    values: {
      status: b.status,
      booking_date: b.booking_date ?? null,
      booking_source: b.booking_source ?? null,
      class_name: b.class_name ?? null,
      class_category: b.class_category ?? null,
      class_instructor_name: b.class_instructor_name ?? null,
      occurrence_instructor_name: b.occurrence_instructor_name ?? null,
      scheduled_date: b.scheduled_date ?? null,
      start_time: b.start_time ?? null,
      end_time: b.end_time ?? null,
      attended_at: b.attended_at ?? null,
      no_show_marked_at: b.no_show_marked_at ?? null,
      cancelled_at: b.cancelled_at ?? null,
    },
  };
}

function stamp(b: StampActivity): Planned {
  return {
    table: 'stamps',
    instantColumn: 'created_at',
    instant: b.created_at ?? null,
    values: { count: b.count ?? 1, title: b.title ?? null },
  };
}

function order(b: OrderActivity, currency: string): Planned {
  const status = b.status ?? 'paid';
  // A refunded order with no amount stated was refunded in full.
  const refunded = b.refunded_pence ?? (status === 'refunded' ? b.amount_pence : 0);
  if (refunded > b.amount_pence) throw badRequest('body.refunded_pence must not exceed body.amount_pence');
  return {
    table: 'orders',
    instantColumn: 'created_at',
    instant: b.created_at ?? null,
    values: {
      status,
      amount_pence: b.amount_pence,
      refunded_pence: refunded,
      promo_discount_pence: b.promo_discount_pence ?? 0,
      applied_promo_code: b.applied_promo_code ?? null,
      currency: b.currency ?? currency,
      title: b.title ?? null,
    },
  };
}

function journeyEvent(b: JourneyEventActivity): Planned {
  return {
    table: 'journey_events',
    instantColumn: 'occurred_at',
    instant: b.occurred_at ?? null,
    values: {
      type: b.type,
      channel: b.channel ?? null,
      title: b.title ?? null,
      subtitle: b.subtitle ?? null,
      status: b.status ?? null,
      detail: b.detail ?? null,
      campaign_name: b.campaign_name ?? null,
      opened: b.opened ?? null,
      clicked: b.clicked ?? null,
      returning_visit_at: b.returning_visit_at ?? null,
      return_days: b.return_days ?? null,
      amount_pence: b.amount_pence ?? null,
      refunded_pence: b.refunded_pence ?? null,
      promo_discount_pence: b.promo_discount_pence ?? null,
      applied_promo_code: b.applied_promo_code ?? null,
      currency: b.currency ?? null,
      auto_sent: b.auto_sent ?? null,
      result_kind: b.result_kind ?? null,
      result_at: b.result_at ?? null,
      result_value_pence: b.result_value_pence ?? null,
    },
  };
}

function plan(body: ActivityBody, store: repo.StoreRef): Planned {
  switch (body.kind) {
    case 'class_booking':
      return classBooking(body);
    case 'stamp':
      return stamp(body);
    case 'order':
      return order(body, store.currency);
    case 'journey_event':
      return journeyEvent(body);
  }
}

export async function recordActivity(ctx: AdminContext, storeId: string, body: ActivityBody) {
  return inTransaction(ctx, async (tx) => {
    const store = await repo.findStore(tx, storeId);
    if (!store) throw notFound('Store');
    const customer = await repo.findCustomer(tx, body.customer_id);
    if (!customer) throw notFound('Customer');
    // Erasure removed the person; nothing new is attached to them afterwards.
    if (customer.erased_at)
      throw new AppError('CUSTOMER_ERASED', 'The customer was erased; no activity can be recorded for them');

    const planned = plan(body, store);
    const now = ctx.clock.now().toISOString();
    const at = planned.instant ?? now;
    await repo.lockRelationship(tx, storeId, customer.id, at, now);
    const record = await repo.upsertRecord(tx, {
      ...planned,
      id: body.id ?? null,
      storeId,
      customerId: customer.id,
      now,
    });
    if (!record) throw new AppError('CONFLICT', 'That activity id belongs to another record');
    await repo.refreshRelationship(tx, {
      storeId,
      customerId: customer.id,
      seenAt: record.at,
      marketingOptedIn: body.marketing_opted_in ?? null,
      now,
    });
    return { activity: { kind: body.kind, id: record.id, customer_id: customer.id, created: record.created } };
  });
}
