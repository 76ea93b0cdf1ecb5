import { describe, expect, it } from 'vitest';
import { EVENT_CATALOG, EVENTS_BY_NAME, LEGACY_EVENTS, WILDCARD_EVENTS } from '#events/catalog';

/** Every event name of the spec's Events table, group by group. */
const SPEC_EVENTS = [
  'product.created',
  'product.updated',
  'product.deleted',
  'transaction.created',
  'transaction.updated',
  'transaction.payment.succeeded',
  'transaction.payment.failed',
  'transaction.canceled',
  'transaction.chargeback',
  'transaction.refunded',
  'transaction.failed',
  'scheduled_charge.created',
  'scheduled_charge.updated',
  'scheduled_charge.canceled',
  'scheduled_charge.paid',
  'scheduled_charge.overdue',
  'scheduled_charge.cycle_failed',
  'scheduled_charge.recurrence_canceled',
  'scheduled_charge.cancel_at_period_end_set',
  'scheduled_charge.cancel_at_period_end_cleared',
  'scheduled_charge.payment_method_attached',
  'scheduled_charge.payment_method_changed',
  'scheduled_charge.payment_method_cleared',
  'scheduled_charge.postponed',
  // Ours (docs/decisions.md, "Installment plans (issue 14)": events added to the catalog).
  'installment_plan.created',
  'installment_plan.activated',
  'installment_plan.installment_issued',
  'installment_plan.installment_paid',
  'installment_plan.installment_overdue',
  'installment_plan.completed',
  'installment_plan.canceled',
  // Ours (docs/decisions.md, "Asaas": a chargeback won restores the sale).
  'transaction.chargeback_reversed',
  'customer.trial_started',
  'customer.trial_converted',
  'customer.trial_lapsed',
  'payment_method.expiring_soon',
  'payment_method.expired',
  'subscription.created',
  'subscription.activated',
  'subscription.paused',
  'subscription.cancelled',
  'subscription.renewed',
  'checkout.session.completed',
  'checkout.session.expired',
];

describe('the event catalog', () => {
  it('has exactly the events of the spec, each with a group, a release and a schema', () => {
    expect(EVENT_CATALOG.map((e) => e.name).sort()).toEqual([...SPEC_EVENTS].sort());
    for (const e of EVENT_CATALOG) {
      expect(e.group, e.name).toBeTruthy();
      expect(e.since, e.name).toMatch(/^\d+\.\d+\.\d+$/);
      expect(e.schema, e.name).toBeDefined();
    }
  });

  it('marks transaction.failed as legacy, keeps it out of the wildcard, and dates the 0.8.0 events', () => {
    expect(LEGACY_EVENTS).toEqual(['transaction.failed']);
    expect(WILDCARD_EVENTS).not.toContain('transaction.failed');
    for (const name of ['transaction.payment.failed', 'transaction.canceled', 'transaction.chargeback']) {
      expect(EVENTS_BY_NAME.get(name)?.since).toBe('0.8.0');
    }
  });

  it('follows the payloads the spec shows', () => {
    const created = EVENTS_BY_NAME.get('product.created')?.schema;
    expect(created?.safeParse({ id: 1, name: 'A', value: 10, uuid: 'u', sellerId: 2 }).success).toBe(true);
    expect(created?.safeParse({ id: 1, name: 'A', value: 10, uuid: 'u' }).success).toBe(false);
    const completed = EVENTS_BY_NAME.get('checkout.session.completed')?.schema;
    expect(
      completed?.safeParse({
        id: 'cs_1',
        status: 'complete',
        product_id: 1,
        transaction_id: 2,
        customer_email: 'a@b.c',
        metadata: {},
        client_reference_id: null,
        completed_at: '2026-01-01T00:00:00Z',
      }).success,
    ).toBe(true);
    const succeeded = EVENTS_BY_NAME.get('transaction.payment.succeeded')?.schema;
    const payment = {
      id: 1,
      productId: 2,
      productName: 'P',
      value: 10,
      paymentMethod: 'pix_automatic',
      customer: { name: 'A', email: 'a@b.c', document: '52998224725' },
      paidAt: '2026-01-01T00:00:00Z',
    };
    expect(succeeded?.safeParse(payment).success).toBe(true);
    expect(succeeded?.safeParse({ ...payment, paymentMethod: 'creditcard' }).success).toBe(false);
    expect(EVENTS_BY_NAME.get('transaction.payment.failed')?.schema.safeParse({ id: 1 }).success).toBe(false);
  });
});
