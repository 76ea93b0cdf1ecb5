import { beforeEach, describe, expect, it } from 'vitest';
import { EVENTS_BY_NAME } from '#events/catalog';
import type { ChargeResult, SavedCardChargeRequest } from '#shared/domain/payments/gateway';
import { collect, MAX_ATTEMPTS, RETRY_DELAYS_MS } from '#shared/domain/subscriptions/collect';
import { dueScheduleName } from '#shared/domain/subscriptions/schedule';
import { toSubscriptionView } from '#shared/domain/subscriptions/subscription';
import { sellerNet } from '#shared/domain/transactions/transaction';
import {
  AMOUNT,
  ANCHOR,
  FEB_28,
  MAR_31,
  PIX_AUTHORIZATION,
  type SubscriptionEngine,
  subscriptionEngine,
} from '../support/subscription-engine';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

let e: SubscriptionEngine;
beforeEach(() => {
  e = subscriptionEngine();
});

/** Makes the first saved-card charge wait until `release` is called (a run still at the provider). */
function holdFirstCardCharge(engine: SubscriptionEngine) {
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const original = engine.provider.chargeSavedCard.bind(engine.provider);
  let calls = 0;
  engine.provider.chargeSavedCard = async (request: SavedCardChargeRequest): Promise<ChargeResult> => {
    const result = await original(request);
    calls += 1;
    if (calls === 1) await gate;
    return result;
  };
  return { release };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('collect: a paid renewal', () => {
  it('charges the saved card once, advances the period on the anchor and records everything in one write', async () => {
    e.clock.set(FEB_28);
    const s = e.seed();
    const { subscription, transaction, outcome } = await collect(e.deps, s, 'renewal');

    expect(outcome).toBe('paid');
    expect(e.provider.savedCardCharges).toHaveLength(1);
    const request = e.provider.savedCardCharges[0];
    expect(request).toMatchObject({
      amountCentavos: AMOUNT,
      installments: 1,
      token: 'tok_fake_subscription',
    });
    expect(request.idempotencyKey).toBe(`sub_${s.uuid}_c2_a1_t${transaction?.id}`);
    expect(request.transactionId).toBe(transaction?.id);

    expect(e.stored()).toEqual(subscription);
    expect(subscription).toMatchObject({
      status: 'active',
      billingCycle: 2,
      billingAnchor: ANCHOR,
      currentPeriodStart: FEB_28,
      currentPeriodEnd: MAR_31,
      lastPaymentAt: FEB_28,
      nextPaymentAt: MAR_31,
      dueAt: MAR_31,
      failedPaymentCount: 0,
      pendingCharge: null,
      updatedAt: FEB_28,
    });

    const stored = e.transactions.all();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      status: 'captured',
      paymentMethod: 'creditcard',
      value: AMOUNT,
      valueSeller: sellerNet('creditcard', AMOUNT, 1),
      installments: 1,
      customer: { id: 11, name: 'Ana Souza', email: 'ana@example.com', document: '52998224725' },
      product: { id: 5, name: 'Clube do Livro', value: AMOUNT },
      card: { brand: 'visa', last4: '4242' },
      paidAt: FEB_28,
      metadata: { plan: 'gold' },
      recurring: { subscriptionId: 1, billingCycle: 2, method: 'card' },
    });

    // The subscription's webhook, then the transaction's, in one outbox batch (one TransactWriteItems).
    expect(e.subscriptions.outbox.batches.filter((batch) => batch.length > 0)).toHaveLength(1);
    expect(e.webhooks()).toEqual([
      'subscription.renewed',
      'transaction.created',
      'transaction.payment.succeeded',
    ]);
    const renewed = e.subscriptions.outbox.events[0].envelope.data;
    expect(renewed).toMatchObject({ id: 1, status: 'active', billingCycle: 2, currentPeriodEnd: MAR_31 });
    expect(e.subscriptions.outbox.events[2].envelope.data).toMatchObject({
      paymentMethod: 'card',
      isRecurring: true,
      subscriptionId: 1,
      billingCycle: 2,
    });

    expect(e.history()).toEqual([
      expect.objectContaining({
        eventType: 'payment_success',
        eventData: { amount: 49.9, transactionId: transaction?.id, paidAt: FEB_28, billingCycle: 2 },
      }),
    ]);
    expect(e.scheduler.scheduled).toEqual([
      {
        name: dueScheduleName(subscription, MAR_31),
        at: new Date(MAR_31),
        payload: { job: 'subscription-due', id: '7:test:1' },
      },
    ]);
  });

  it('keeps a 31st anchor: renewing on 31 March gives 30 April, not 28 or 31 May', async () => {
    e.clock.set(MAR_31);
    const s = e.seed({
      billingCycle: 2,
      currentPeriodStart: FEB_28,
      currentPeriodEnd: MAR_31,
      dueAt: MAR_31,
    });
    const { subscription } = await collect(e.deps, s, 'renewal');
    expect(subscription).toMatchObject({
      billingCycle: 3,
      currentPeriodStart: MAR_31,
      currentPeriodEnd: '2026-04-30T13:00:00.000Z',
    });
  });

  it('debits the Pix Automático authorization and names the payment pix_automatic in the webhooks', async () => {
    e.clock.set(FEB_28);
    const s = e.seedPixAutomatic('active');
    const { outcome, transaction } = await collect(e.deps, s, 'renewal');

    expect(outcome).toBe('paid');
    expect(e.provider.savedCardCharges).toHaveLength(0);
    expect(e.provider.pixAutomaticCharges).toEqual([
      expect.objectContaining({
        authorizationId: PIX_AUTHORIZATION,
        amountCentavos: AMOUNT,
        idempotencyKey: `sub_${s.uuid}_c2_a1_t${transaction?.id}`,
      }),
    ]);
    expect(transaction).toMatchObject({
      status: 'payedPix',
      paymentMethod: 'pix',
      card: null,
      valueSeller: sellerNet('pix', AMOUNT, 1),
      recurring: { method: 'pix_automatic', billingCycle: 2 },
    });
    expect(e.webhooks()).toEqual([
      'subscription.renewed',
      'transaction.created',
      'transaction.payment.succeeded',
    ]);
    for (const event of e.subscriptions.outbox.events.slice(1))
      expect(event.envelope.data).toMatchObject({ paymentMethod: 'pix_automatic' });
  });

  it('emits subscription.renewed only from the second paid cycle on (a lapsed trial paid by a retry is cycle 1)', async () => {
    e.clock.set(plus(FEB_28, 3 * DAY));
    const s = e.seed({
      billingCycle: 0,
      billingAnchor: FEB_28,
      trialEndsAt: FEB_28,
      currentPeriodStart: '2026-02-14T13:00:00.000Z',
      failedPaymentCount: 1,
      dueAt: plus(FEB_28, 3 * DAY),
    });
    const { subscription } = await collect(e.deps, s, 'retry');
    expect(subscription).toMatchObject({
      billingCycle: 1,
      currentPeriodStart: FEB_28,
      currentPeriodEnd: '2026-03-28T13:00:00.000Z',
    });
    expect(e.webhooks()).toEqual(['transaction.created', 'transaction.payment.succeeded']);
  });
});

describe('collect: failed charges and the retry schedule', () => {
  it.each([
    [
      'declined',
      { outcome: 'declined' as const, failureCode: 'insufficient_funds' },
      [3 * DAY, 5 * DAY, 7 * DAY],
    ],
    ['error', { outcome: 'error' as const, failureCode: 'processing_error' }, [HOUR, 6 * HOUR, 24 * HOUR]],
  ])(
    'retries a %s charge on its schedule, then ends failed after the 4th attempt',
    async (_, failure, delays) => {
      expect(RETRY_DELAYS_MS[failure.outcome]).toEqual(delays);
      e.clock.set(FEB_28);
      let s = e.seed();
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        e.provider.savedCardOutcomes.push(failure);
        const result = await collect(e.deps, s, attempt === 1 ? 'renewal' : 'retry');
        s = result.subscription;
        expect(result.outcome).toBe(failure.outcome);
        expect(result.transaction).toMatchObject({ status: 'denied', failureCode: failure.failureCode });
        expect(s.failedPaymentCount).toBe(attempt);
        const entry = e.history().at(-1);
        expect(entry?.eventType).toBe('payment_failed');
        expect(entry?.eventData).toMatchObject({
          amount: 49.9,
          transactionId: result.transaction?.id,
          failureCode: failure.failureCode,
          attempt,
        });
        if (attempt < MAX_ATTEMPTS) {
          const retryAt = plus(e.clock.now().toISOString(), delays[attempt - 1]);
          expect(s).toMatchObject({ status: 'active', dueAt: retryAt, nextPaymentAt: retryAt });
          expect(entry?.eventData.nextRetryAt).toBe(retryAt);
          expect(e.scheduler.scheduled.at(-1)?.at).toEqual(new Date(retryAt));
          e.clock.set(retryAt);
        } else {
          expect(s).toMatchObject({ status: 'failed', dueAt: null, nextPaymentAt: null });
          expect(entry?.eventData.nextRetryAt).toBeNull();
        }
        // The period stays the unpaid one until a charge succeeds.
        expect(s).toMatchObject({ billingCycle: 1, currentPeriodEnd: FEB_28, pendingCharge: null });
      }
      expect(e.transactions.all()).toHaveLength(MAX_ATTEMPTS);
      expect(new Set(e.provider.savedCardCharges.map((r) => r.idempotencyKey)).size).toBe(MAX_ATTEMPTS);
      // Each attempt: the transaction's events only (the legacy transaction.failed too, as a sale).
      expect(e.webhooks()).toEqual(
        Array(MAX_ATTEMPTS)
          .fill(['transaction.created', 'transaction.payment.failed', 'transaction.failed'])
          .flat(),
      );
    },
  );

  it('resets the failed count when a retry succeeds, and the paid period follows the unpaid one', async () => {
    e.clock.set(FEB_28);
    e.provider.savedCardOutcomes.push({ outcome: 'declined', failureCode: 'card_declined' });
    const first = await collect(e.deps, e.seed(), 'renewal');
    e.clock.set(first.subscription.dueAt as string);
    const { subscription, outcome } = await collect(e.deps, first.subscription, 'retry');
    expect(outcome).toBe('paid');
    expect(subscription).toMatchObject({
      failedPaymentCount: 0,
      billingCycle: 2,
      currentPeriodStart: FEB_28,
      currentPeriodEnd: MAR_31,
      lastPaymentAt: plus(FEB_28, 3 * DAY),
      dueAt: MAR_31,
    });
    expect(e.webhooks().slice(-3)).toEqual([
      'subscription.renewed',
      'transaction.created',
      'transaction.payment.succeeded',
    ]);
    expect(e.history().map((h) => h.eventType)).toEqual(['payment_failed', 'payment_success']);
    expect(e.provider.savedCardCharges[1].idempotencyKey).toMatch(/_c2_a2_t\d+$/);
  });

  it('does not charge an expired card: a decline expired_card without a transaction, on the decline schedule', async () => {
    e.paymentMethods.items.set('7#test#31', { ...e.card, status: 'expired', expiredAt: ANCHOR });
    e.clock.set(FEB_28);
    const { subscription, transaction, outcome } = await collect(e.deps, e.seed(), 'renewal');
    expect(outcome).toBe('declined');
    expect(transaction).toBeNull();
    expect(e.provider.savedCardCharges).toHaveLength(0);
    expect(e.transactions.all()).toHaveLength(0);
    expect(subscription).toMatchObject({ failedPaymentCount: 1, dueAt: plus(FEB_28, 3 * DAY) });
    expect(e.history()[0].eventData).toMatchObject({
      transactionId: null,
      failureCode: 'expired_card',
      attempt: 1,
    });
    expect(e.webhooks()).toEqual([]);
  });

  it('does not charge when the saved card is gone (deleted, or the provider forgot its token)', async () => {
    e.paymentMethods.items.clear();
    e.clock.set(FEB_28);
    const gone = await collect(e.deps, e.seed(), 'renewal');
    expect(gone).toMatchObject({ outcome: 'declined', transaction: null });
    expect(e.provider.savedCardCharges).toHaveLength(0);

    const other = subscriptionEngine();
    other.provider.savedCards.clear();
    other.clock.set(FEB_28);
    const forgotten = await collect(other.deps, other.seed(), 'renewal');
    expect(forgotten).toMatchObject({ outcome: 'declined', transaction: null });
    expect(other.history()[0].eventData).toMatchObject({ failureCode: 'expired_card' });
  });

  it('declines a revoked Pix Automático authorization (authorization_revoked) and retries it', async () => {
    e.clock.set(FEB_28);
    const s = e.seedPixAutomatic('revoked');
    const { subscription, transaction } = await collect(e.deps, s, 'renewal');
    expect(transaction).toMatchObject({ status: 'denied', failureCode: 'authorization_revoked' });
    expect(subscription).toMatchObject({ failedPaymentCount: 1, dueAt: plus(FEB_28, 3 * DAY) });
  });

  it('counts a provider that is not configured (live) as an error, without a transaction', async () => {
    e.clock.set(FEB_28);
    const s = e.seed({ tenant: { sellerId: 7, environment: 'live' } });
    const { subscription, transaction, outcome } = await collect(e.deps, s, 'renewal');
    expect(outcome).toBe('error');
    expect(transaction).toBeNull();
    expect(subscription).toMatchObject({ failedPaymentCount: 1, dueAt: plus(FEB_28, HOUR) });
  });
});

describe('collect: trial end', () => {
  const trial = { billingCycle: 0, trialEndsAt: FEB_28, currentPeriodStart: '2026-02-14T13:00:00.000Z' };

  it('converts the trial: trial_ended + payment_success, customer.trial_converted, the first paid period', async () => {
    e.clock.set(FEB_28);
    const s = e.seed({ ...trial, billingAnchor: FEB_28, lastPaymentAt: null });
    const { subscription, transaction } = await collect(e.deps, s, 'trial_end');
    expect(subscription).toMatchObject({
      billingCycle: 1,
      currentPeriodStart: FEB_28,
      currentPeriodEnd: '2026-03-28T13:00:00.000Z',
      trialEndsAt: FEB_28,
      lastPaymentAt: FEB_28,
    });
    expect(transaction?.recurring).toEqual({ subscriptionId: 1, billingCycle: 1, method: 'card' });
    expect(e.history().map((h) => [h.eventType, h.eventData])).toEqual([
      ['trial_ended', { trialEndsAt: FEB_28, converted: true }],
      ['payment_success', { amount: 49.9, transactionId: transaction?.id, paidAt: FEB_28, billingCycle: 1 }],
    ]);
    expect(e.webhooks()).toEqual([
      'customer.trial_converted',
      'transaction.created',
      'transaction.payment.succeeded',
    ]);
    expect(e.subscriptions.outbox.events[0].envelope.data).toMatchObject({ id: 1, billingCycle: 1 });
  });

  it('lapses the trial on a failed charge: trial_ended + payment_failed, customer.trial_lapsed, then the retry path', async () => {
    e.clock.set(FEB_28);
    e.provider.savedCardOutcomes.push({ outcome: 'declined', failureCode: 'card_declined' });
    const s = e.seed({ ...trial, billingAnchor: FEB_28 });
    const { subscription } = await collect(e.deps, s, 'trial_end');
    expect(subscription).toMatchObject({ status: 'active', billingCycle: 0, failedPaymentCount: 1 });
    expect(e.history().map((h) => h.eventType)).toEqual(['trial_ended', 'payment_failed']);
    expect(e.history()[0].eventData).toEqual({ trialEndsAt: FEB_28, converted: false });
    expect(e.webhooks()).toEqual([
      'customer.trial_lapsed',
      'transaction.created',
      'transaction.payment.failed',
      'transaction.failed',
    ]);
  });
});

describe('collect: first payment and reactivation', () => {
  it('activates a pending subscription on its first payment, anchored on the payment', async () => {
    const paidAt = '2026-05-31T15:00:00.000Z';
    e.clock.set(paidAt);
    const s = e.seed({
      status: 'pending',
      billingCycle: 0,
      lastPaymentAt: null,
      nextPaymentAt: null,
      dueAt: null,
    });
    const { subscription, outcome } = await collect(e.deps, s, 'first');
    expect(outcome).toBe('paid');
    expect(subscription).toMatchObject({
      status: 'active',
      billingCycle: 1,
      billingAnchor: paidAt,
      currentPeriodStart: paidAt,
      currentPeriodEnd: '2026-06-30T15:00:00.000Z',
      dueAt: '2026-06-30T15:00:00.000Z',
    });
    expect(e.history().map((h) => h.eventType)).toEqual(['subscription.activated', 'payment_success']);
    expect(e.webhooks()).toEqual([
      'subscription.activated',
      'transaction.created',
      'transaction.payment.succeeded',
    ]);
  });

  it('fails a first payment that is declined, without retries', async () => {
    e.provider.savedCardOutcomes.push({ outcome: 'declined', failureCode: 'card_declined' });
    const s = e.seed({ status: 'pending', billingCycle: 0, nextPaymentAt: null, dueAt: null });
    const { subscription } = await collect(e.deps, s, 'first');
    expect(subscription).toMatchObject({
      status: 'failed',
      failedPaymentCount: 1,
      dueAt: null,
      nextPaymentAt: null,
    });
    expect(e.webhooks()).toEqual(['transaction.created', 'transaction.payment.failed', 'transaction.failed']);
    expect(e.scheduler.scheduled).toEqual([]);
  });

  it('leaves a declined reactivation as it was, with the denied transaction and payment_failed recorded', async () => {
    const s = e.seed({ status: 'failed', failedPaymentCount: 4, dueAt: null, nextPaymentAt: null });
    e.provider.savedCardOutcomes.push({ outcome: 'declined', failureCode: 'card_declined' });
    const declined = await collect(e.deps, s, 'reactivation');
    expect(declined.outcome).toBe('declined');
    expect(declined.subscription).toEqual({ ...s, version: s.version + 2, updatedAt: ANCHOR });
    expect(e.history().map((h) => h.eventType)).toEqual(['payment_failed']);

    // A second reactivation gets a new key: the provider does not answer the first decline again.
    e.clock.set(FEB_28);
    const paid = await collect(e.deps, declined.subscription, 'reactivation');
    expect(paid.outcome).toBe('paid');
    const [k1, k2] = e.provider.savedCardCharges.map((r) => r.idempotencyKey);
    expect(k1).not.toBe(k2);
    expect(paid.subscription).toMatchObject({
      status: 'active',
      billingAnchor: FEB_28,
      billingCycle: 2,
      currentPeriodStart: FEB_28,
      currentPeriodEnd: '2026-03-28T13:00:00.000Z',
      failedPaymentCount: 0,
    });
    expect(e.history().at(-2)).toMatchObject({
      eventType: 'subscription.activated',
      eventData: { reactivated: true },
    });
  });
});

describe('collect: charging once', () => {
  it('repeats a claimed charge with the same transaction id and key after a crash, and records it once', async () => {
    e.clock.set(FEB_28);
    e.provider.savedCardOutcomes.push({ throw: new Error('socket hang up') });
    const s = e.seed();
    await expect(collect(e.deps, s, 'renewal')).rejects.toThrow('socket hang up');
    const claimed = e.stored();
    expect(claimed.pendingCharge).toMatchObject({ cycle: 2, attempt: 1, claimedAt: FEB_28 });
    expect(claimed.dueAt).toBe(FEB_28);

    const { outcome, transaction } = await collect(e.deps, claimed, 'renewal');
    expect(outcome).toBe('paid');
    const [first, second] = e.provider.savedCardCharges;
    expect(second.idempotencyKey).toBe(first.idempotencyKey);
    expect(second.transactionId).toBe(first.transactionId);
    expect(transaction?.id).toBe(claimed.pendingCharge?.transactionId);
    expect(e.transactions.all()).toHaveLength(1);
  });

  it('lets a concurrent run finish the claimed charge; the slower one loses the version race and records nothing', async () => {
    e.clock.set(FEB_28);
    const hold = holdFirstCardCharge(e);
    const s = e.seed();
    const slow = collect(e.deps, s, 'renewal');
    await settle();
    const claimed = e.stored();
    const fast = await collect(e.deps, claimed, 'renewal');
    hold.release();
    const late = await slow;

    expect(fast.outcome).toBe('paid');
    expect(late.transaction?.id).toBe(fast.transaction?.id);
    expect(late.subscription).toEqual(e.stored());
    expect(new Set(e.provider.savedCardCharges.map((r) => r.idempotencyKey)).size).toBe(1);
    expect(new Set(e.provider.idempotentResults.values()).size).toBe(1);
    expect(e.transactions.all()).toHaveLength(1);
    expect(e.provider.refunds).toEqual([]);
    expect(e.webhooks().filter((n) => n === 'subscription.renewed')).toHaveLength(1);
    expect(e.stored()).toMatchObject({ billingCycle: 2, currentPeriodEnd: MAR_31 });
  });

  it('applies the outcome over a change made while the charge was at the provider', async () => {
    e.clock.set(FEB_28);
    const hold = holdFirstCardCharge(e);
    const run = collect(e.deps, e.seed(), 'renewal');
    await settle();
    const claimed = e.stored();
    e.subscriptions.seed({ ...claimed, metadata: { plan: 'platinum' }, version: claimed.version + 1 });
    hold.release();
    const { subscription } = await run;
    expect(subscription).toMatchObject({
      billingCycle: 2,
      metadata: { plan: 'platinum' },
      pendingCharge: null,
    });
    expect(e.stored()).toEqual(subscription);
  });

  it('refunds an approved charge whose subscription was cancelled while it was at the provider', async () => {
    e.clock.set(FEB_28);
    const hold = holdFirstCardCharge(e);
    const run = collect(e.deps, e.seed(), 'renewal');
    await settle();
    const claimed = e.stored();
    e.subscriptions.seed({
      ...claimed,
      status: 'canceled',
      cancelledAt: FEB_28,
      cancelAt: FEB_28,
      dueAt: null,
      pendingCharge: null,
      version: claimed.version + 1,
    });
    hold.release();
    const { subscription, transaction } = await run;
    expect(transaction).toBeNull();
    expect(subscription.status).toBe('canceled');
    expect(e.transactions.all()).toEqual([]);
    expect(e.provider.refunds).toEqual([{ gatewayPayId: expect.any(Number), amountCentavos: AMOUNT }]);
  });
});

describe('subscription webhook payloads', () => {
  const names = [
    'subscription.created',
    'subscription.activated',
    'subscription.paused',
    'subscription.cancelled',
    'subscription.renewed',
    'customer.trial_started',
    'customer.trial_converted',
    'customer.trial_lapsed',
  ];

  it.each(names)('%s carries the subscription as the API shows it, and nothing else', (name) => {
    const schema = EVENTS_BY_NAME.get(name)?.schema;
    const paused = toSubscriptionView(e.seed({ pausedAt: FEB_28, trialEndsAt: FEB_28 }));
    const pix = toSubscriptionView(
      e.seed({ collectionMethod: 'pix_automatic', paymentMethod: null, status: 'pending_cancellation' }),
    );
    expect(schema?.safeParse(paused).success).toBe(true);
    expect(schema?.safeParse(pix).success).toBe(true);
    const { status: _, ...withoutStatus } = paused;
    expect(schema?.safeParse(withoutStatus).success).toBe(false);
    expect(schema?.safeParse({ ...paused, status: 'paused' }).success).toBe(false);
    expect(schema?.safeParse({ id: 1, updatedAt: FEB_28 }).success).toBe(false);
  });
});
