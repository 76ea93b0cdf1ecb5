import { beforeEach, describe, expect, it } from 'vitest';
import type { PaymentMethod } from '#shared/domain/payment-methods/payment-method';
import {
  cancelSubscription,
  changeSubscriptionPaymentMethod,
  pauseSubscription,
  reactivateSubscription,
  resumeSubscription,
} from '#shared/domain/subscriptions/actions';
import { runDueJob } from '#shared/domain/subscriptions/due';
import { periodEnd } from '#shared/domain/subscriptions/periods';
import {
  getSubscription,
  listSubscriptionEvents,
  listSubscriptions,
} from '#shared/domain/subscriptions/queries';
import { dueScheduleName } from '#shared/domain/subscriptions/schedule';
import {
  SUBSCRIPTION_NOT_FOUND,
  type Subscription,
  type SubscriptionStatus,
  toSubscriptionView,
} from '#shared/domain/subscriptions/subscription';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError, NotFoundError, ServiceUnavailableError, ValidationError } from '#shared/errors';
import {
  AMOUNT,
  ANCHOR,
  FEB_28,
  MAR_31,
  type SubscriptionEngine,
  subscriptionEngine,
  TENANT,
} from '../support/subscription-engine';

const DAY = 86_400_000;
const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
/** Mid-period: 10 February, the subscription paid on 31 January renews on 28 February. */
const FEB_10 = '2026-02-10T15:00:00.000Z';
const OTHER_SELLER: Tenant = { sellerId: 8, environment: 'test' };
const seller = { by: 'seller' } as const;
/** A state's refusal, and a reactivation charge that did not go through (both 409). */
const conflict = (message: string) => new ConflictError(message, 'invalid_transition');
const declined = (message: string) => new ConflictError(message, 'payment_declined');

let e: SubscriptionEngine;
beforeEach(() => {
  e = subscriptionEngine();
  e.clock.set(FEB_10);
});

/** Another saved card: of the same customer unless `customerId` says otherwise. */
function addCard(id: number, changes: Partial<PaymentMethod> = {}, customerId = 11): PaymentMethod {
  const card: PaymentMethod = {
    ...e.card,
    id,
    uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    customer: { id: customerId, uuid: `00000000-0000-4000-9000-${String(customerId).padStart(12, '0')}` },
    last4: String(4000 + id),
    brand: 'mastercard',
    token: `tok_card_${id}`,
    ...changes,
  };
  e.paymentMethods.items.set(`${card.tenant.sellerId}#${card.tenant.environment}#${id}`, card);
  e.provider.savedCards.set(card.token, {
    token: card.token,
    brand: card.brand,
    last4: card.last4,
    expiryMonth: card.expiryMonth,
    expiryYear: card.expiryYear,
    tenant: card.tenant,
  });
  return card;
}

const setCardStatus = (status: PaymentMethod['status']) =>
  e.paymentMethods.items.set(`7#test#${e.card.id}`, { ...e.card, status });

/** What the engine wrote since the test's seed: webhooks, history types, transactions. */
const written = () => ({
  webhooks: e.webhooks(),
  history: e.history().map((h) => h.eventType),
  transactions: e.transactions.all().length,
});
const nothingWritten = { webhooks: [], history: [], transactions: 0 };

/** Every status a seeded subscription can be put in, with the fields that go with it. */
const IN: Record<SubscriptionStatus, Partial<Subscription>> = {
  pending: {
    status: 'pending',
    billingCycle: 0,
    lastPaymentAt: null,
    nextPaymentAt: null,
    dueAt: null,
  },
  active: {},
  pending_cancellation: {
    status: 'pending_cancellation',
    cancelAtPeriodEnd: true,
    cancelAt: FEB_28,
  },
  canceled: {
    status: 'canceled',
    cancelAt: '2026-02-05T12:00:00.000Z',
    cancelledAt: '2026-02-05T12:00:00.000Z',
    nextPaymentAt: null,
    dueAt: null,
  },
  failed: {
    status: 'failed',
    failedPaymentCount: 4,
    nextPaymentAt: null,
    dueAt: null,
  },
};

describe('cancel now', () => {
  it('cancels an active subscription: nothing more is due, one webhook, the history says who and why', async () => {
    const s = e.seed({ pendingCharge: null });
    const view = await cancelSubscription(e.deps, TENANT, s.id, { reason: 'Too expensive', ...seller });
    expect(view).toMatchObject({
      status: 'canceled',
      cancelledAt: FEB_10,
      cancelAt: FEB_10,
      cancelAtPeriodEnd: false,
      cancelReason: 'Too expensive',
      nextPaymentAt: null,
      updatedAt: FEB_10,
    });
    expect(e.stored()).toMatchObject({ dueAt: null, pendingCharge: null, version: s.version + 1 });
    expect(written()).toEqual({
      webhooks: ['subscription.cancelled'],
      history: ['subscription.canceled'],
      transactions: 0,
    });
    expect(e.history()[0].eventData).toEqual({ atPeriodEnd: false, reason: 'Too expensive', by: 'seller' });
    expect(e.subscriptions.outbox.events[0].envelope.data).toEqual(view);
    // The renewal's schedule is gone: it would find nothing due.
    expect(e.scheduler.canceled).toEqual([dueScheduleName(s, FEB_28)]);
    expect(e.scheduler.scheduled).toEqual([]);
  });

  it('lets go of a charge in flight and of a pause', async () => {
    const s = e.seed({
      pausedAt: ANCHOR,
      pendingCharge: { cycle: 2, attempt: 1, transactionId: 9, idempotencyKey: 'k', claimedAt: FEB_10 },
    });
    await cancelSubscription(e.deps, TENANT, s.id, seller);
    expect(e.stored()).toMatchObject({
      status: 'canceled',
      pendingCharge: null,
      pausedAt: null,
      cancelReason: null,
    });
  });

  it('cancels a pending subscription and one pending cancellation (keeping its reason)', async () => {
    e.seed(IN.pending);
    expect((await cancelSubscription(e.deps, TENANT, 1, seller)).status).toBe('canceled');

    e = subscriptionEngine();
    e.clock.set(FEB_10);
    e.seed({ ...IN.pending_cancellation, cancelReason: 'Moving abroad' });
    const view = await cancelSubscription(e.deps, TENANT, 1, seller);
    expect(view).toMatchObject({
      status: 'canceled',
      cancelAt: FEB_10,
      cancelAtPeriodEnd: false,
      cancelReason: 'Moving abroad',
    });
    expect(e.webhooks()).toEqual(['subscription.cancelled']);
  });

  it.each(['canceled', 'failed'] as const)(
    'refuses a %s subscription with 409 and writes nothing',
    async (status) => {
      e.seed(IN[status]);
      await expect(cancelSubscription(e.deps, TENANT, 1, seller)).rejects.toThrow(
        conflict(`Subscription cannot be canceled: it is ${status}`),
      );
      expect(written()).toEqual(nothingWritten);
    },
  );

  it('refuses a second cancel with 409', async () => {
    e.seed();
    await cancelSubscription(e.deps, TENANT, 1, seller);
    await expect(cancelSubscription(e.deps, TENANT, 1, seller)).rejects.toThrow(
      conflict('Subscription cannot be canceled: it is canceled'),
    );
    expect(e.webhooks()).toEqual(['subscription.cancelled']);
  });
});

describe('cancel at period end', () => {
  it('keeps the subscription until the period ends, then the due job cancels it without a second webhook', async () => {
    const s = e.seed();
    const view = await cancelSubscription(e.deps, TENANT, s.id, { atPeriodEnd: true, ...seller });
    expect(view).toMatchObject({
      status: 'pending_cancellation',
      cancelAtPeriodEnd: true,
      cancelAt: FEB_28,
      cancelledAt: null,
      currentPeriodEnd: FEB_28,
    });
    expect(e.stored().dueAt).toBe(FEB_28);
    expect(e.history()[0].eventData).toEqual({ atPeriodEnd: true, reason: null, by: 'seller' });
    // The due time is the renewal's: its schedule stays as it was.
    expect(e.scheduler.canceled).toEqual([]);

    e.clock.set(FEB_28);
    expect(await runDueJob(e.deps, e.jobId)).toEqual({ outcome: 'expired' });
    expect(e.stored()).toMatchObject({ status: 'canceled', cancelledAt: FEB_28, dueAt: null });
    expect(written()).toEqual({
      webhooks: ['subscription.cancelled'],
      history: ['subscription.canceled', 'subscription.expired'],
      transactions: 0,
    });
    expect(e.provider.savedCardCharges).toEqual([]);
  });

  it("ends a trial at the trial's end, without a charge", async () => {
    const trialEndsAt = '2026-02-17T13:00:00.000Z';
    e.seed({
      billingCycle: 0,
      trialEndsAt,
      currentPeriodEnd: trialEndsAt,
      billingAnchor: trialEndsAt,
      dueAt: trialEndsAt,
      lastPaymentAt: null,
    });
    expect(await cancelSubscription(e.deps, TENANT, 1, { atPeriodEnd: true, ...seller })).toMatchObject({
      status: 'pending_cancellation',
      cancelAt: trialEndsAt,
    });
  });

  it('is a cancel now while retries run (the paid period is already over)', async () => {
    e.clock.set(plus(FEB_28, DAY));
    e.seed({ failedPaymentCount: 1, dueAt: plus(FEB_28, 3 * DAY), nextPaymentAt: plus(FEB_28, 3 * DAY) });
    const view = await cancelSubscription(e.deps, TENANT, 1, { atPeriodEnd: true, ...seller });
    expect(view).toMatchObject({
      status: 'canceled',
      cancelAtPeriodEnd: false,
      cancelledAt: plus(FEB_28, DAY),
    });
    expect(e.history()[0].eventData).toMatchObject({ atPeriodEnd: false });
  });

  it.each(['pending', 'pending_cancellation', 'canceled', 'failed'] as const)(
    'refuses a %s subscription with 409',
    async (status) => {
      e.seed(IN[status]);
      await expect(cancelSubscription(e.deps, TENANT, 1, { atPeriodEnd: true, ...seller })).rejects.toThrow(
        conflict(`Subscription cannot be canceled at period end: it is ${status}`),
      );
      expect(written()).toEqual(nothingWritten);
    },
  );
});

describe('pause', () => {
  it('keeps the status and the due time, and shows the pause', async () => {
    e.seed();
    const view = await pauseSubscription(e.deps, TENANT, 1, seller);
    expect(view).toMatchObject({
      status: 'active',
      pauseCollection: { behavior: 'void', pausedAt: FEB_10 },
      nextPaymentAt: FEB_28,
    });
    expect(e.stored()).toMatchObject({ pausedAt: FEB_10, dueAt: FEB_28 });
    expect(written()).toEqual({
      webhooks: ['subscription.paused'],
      history: ['subscription.paused'],
      transactions: 0,
    });
    expect(e.history()[0].eventData).toEqual({ by: 'seller', pausedAt: FEB_10 });
  });

  it('skips the charges at the period end while paused', async () => {
    e.seed();
    await pauseSubscription(e.deps, TENANT, 1, seller);
    e.clock.set(FEB_28);
    expect(await runDueJob(e.deps, e.jobId)).toEqual({ outcome: 'skipped_paused' });
    expect(e.provider.savedCardCharges).toEqual([]);
    expect(e.stored()).toMatchObject({ status: 'active', currentPeriodEnd: MAR_31, billingCycle: 1 });
  });

  it('pauses while retries run', async () => {
    e.clock.set(plus(FEB_28, DAY));
    e.seed({ failedPaymentCount: 2, dueAt: plus(FEB_28, 5 * DAY) });
    expect((await pauseSubscription(e.deps, TENANT, 1, seller)).pauseCollection).not.toBeNull();
  });

  it('refuses a paused subscription with 409', async () => {
    e.seed({ pausedAt: ANCHOR });
    await expect(pauseSubscription(e.deps, TENANT, 1, seller)).rejects.toThrow(
      conflict('Subscription cannot be paused: it is paused'),
    );
    expect(written()).toEqual(nothingWritten);
  });

  it.each(['pending', 'pending_cancellation', 'canceled', 'failed'] as const)(
    'refuses a %s subscription with 409',
    async (status) => {
      e.seed(IN[status]);
      await expect(pauseSubscription(e.deps, TENANT, 1, seller)).rejects.toThrow(
        conflict(`Subscription cannot be paused: it is ${status}`),
      );
      expect(written()).toEqual(nothingWritten);
    },
  );
});

describe('resume', () => {
  it('clears the pause; the next charge is the one at the period end', async () => {
    e.seed({ pausedAt: '2026-02-01T12:00:00.000Z' });
    const view = await resumeSubscription(e.deps, TENANT, 1, seller);
    expect(view).toMatchObject({ status: 'active', pauseCollection: null, nextPaymentAt: FEB_28 });
    expect(e.stored().dueAt).toBe(FEB_28);
    expect(written()).toEqual({
      webhooks: ['subscription.activated'],
      history: ['subscription.resumed'],
      transactions: 0,
    });
    expect(e.history()[0].eventData).toEqual({ by: 'seller', pausedAt: '2026-02-01T12:00:00.000Z' });
    e.clock.set(FEB_28);
    expect(await runDueJob(e.deps, e.jobId)).toEqual({ outcome: 'paid', kind: 'renewal' });
  });

  it('resumes a paused subscription pending cancellation', async () => {
    e.seed({ ...IN.pending_cancellation, pausedAt: ANCHOR });
    expect((await resumeSubscription(e.deps, TENANT, 1, seller)).status).toBe('pending_cancellation');
  });

  it('refuses a subscription that is not paused with 409', async () => {
    e.seed();
    await expect(resumeSubscription(e.deps, TENANT, 1, seller)).rejects.toThrow(
      conflict('Subscription cannot be resumed: it is not paused'),
    );
    expect(written()).toEqual(nothingWritten);
  });

  it.each(['pending', 'canceled', 'failed'] as const)(
    'refuses a %s subscription with 409',
    async (status) => {
      e.seed({ ...IN[status], pausedAt: ANCHOR });
      await expect(resumeSubscription(e.deps, TENANT, 1, seller)).rejects.toThrow(
        conflict(`Subscription cannot be resumed: it is ${status}`),
      );
    },
  );
});

describe('reactivate', () => {
  it('undoes a cancellation at period end before it takes effect, without a charge', async () => {
    e.seed();
    await cancelSubscription(e.deps, TENANT, 1, { atPeriodEnd: true, reason: 'x', ...seller });
    const view = await reactivateSubscription(e.deps, TENANT, 1, seller);
    expect(view).toMatchObject({
      status: 'active',
      cancelAt: null,
      cancelAtPeriodEnd: false,
      cancelReason: null,
      nextPaymentAt: FEB_28,
    });
    expect(e.stored().dueAt).toBe(FEB_28);
    expect(written()).toEqual({
      webhooks: ['subscription.cancelled', 'subscription.activated'],
      history: ['subscription.canceled', 'subscription.activated'],
      transactions: 0,
    });
    expect(e.history()[1].eventData).toEqual({ reactivated: true, by: 'seller' });
    e.clock.set(FEB_28);
    expect(await runDueJob(e.deps, e.jobId)).toEqual({ outcome: 'paid', kind: 'renewal' });
  });

  it('reactivates a canceled subscription whose paid period still runs without a charge', async () => {
    const s = e.seed(IN.canceled);
    const view = await reactivateSubscription(e.deps, TENANT, 1, seller);
    expect(view).toMatchObject({
      status: 'active',
      cancelAt: null,
      cancelledAt: null,
      nextPaymentAt: FEB_28,
      billingCycle: 1,
    });
    expect(e.provider.savedCardCharges).toEqual([]);
    expect(e.scheduler.scheduled.map((c) => c.name)).toEqual([dueScheduleName(s, FEB_28)]);
    expect(written()).toEqual({
      webhooks: ['subscription.activated'],
      history: ['subscription.activated'],
      transactions: 0,
    });
  });

  it('reactivates a canceled trial back into its trial', async () => {
    const trialEndsAt = '2026-02-17T13:00:00.000Z';
    e.seed({
      ...IN.canceled,
      billingCycle: 0,
      lastPaymentAt: null,
      trialEndsAt,
      currentPeriodEnd: trialEndsAt,
    });
    expect(await reactivateSubscription(e.deps, TENANT, 1, seller)).toMatchObject({
      status: 'active',
      nextPaymentAt: trialEndsAt,
    });
    expect(e.provider.savedCardCharges).toEqual([]);
  });

  it('charges a canceled subscription whose period is over and starts a new period from the payment', async () => {
    e.clock.set(plus(MAR_31, DAY));
    const now = e.clock.now().toISOString();
    e.seed(IN.canceled);
    const view = await reactivateSubscription(e.deps, TENANT, 1, seller);
    const end = periodEnd(now, 'month', 1, 1);
    expect(view).toMatchObject({
      status: 'active',
      billingCycle: 2,
      currentPeriodStart: now,
      currentPeriodEnd: end,
      lastPaymentAt: now,
      nextPaymentAt: end,
      cancelAt: null,
      cancelledAt: null,
      failedPaymentCount: 0,
    });
    expect(e.stored()).toMatchObject({ billingAnchor: now, dueAt: end });
    expect(e.provider.savedCardCharges).toHaveLength(1);
    expect(e.transactions.all()[0]).toMatchObject({
      status: 'captured',
      value: AMOUNT,
      recurring: { subscriptionId: 1, billingCycle: 2, method: 'card' },
    });
    expect(e.webhooks()).toEqual([
      'subscription.activated',
      'transaction.created',
      'transaction.payment.succeeded',
    ]);
    expect(e.history().map((h) => h.eventType)).toEqual(['subscription.activated', 'payment_success']);
  });

  it('charges a failed subscription, and a success resets the failed count', async () => {
    e.clock.set(plus(MAR_31, DAY));
    e.seed(IN.failed);
    const view = await reactivateSubscription(e.deps, TENANT, 1, seller);
    expect(view).toMatchObject({ status: 'active', failedPaymentCount: 0, billingCycle: 2 });
  });

  it('charges a canceled subscription that was never paid', async () => {
    e.seed({ ...IN.pending, ...IN.canceled, billingCycle: 0, lastPaymentAt: null, currentPeriodEnd: MAR_31 });
    expect((await reactivateSubscription(e.deps, TENANT, 1, seller)).status).toBe('active');
    expect(e.provider.savedCardCharges).toHaveLength(1);
  });

  it('charges when the date of a pending cancellation has passed and its due job has not run yet', async () => {
    e.clock.set(plus(FEB_28, 60_000));
    e.seed(IN.pending_cancellation);
    expect((await reactivateSubscription(e.deps, TENANT, 1, seller)).status).toBe('active');
    expect(e.provider.savedCardCharges).toHaveLength(1);
  });

  it('answers 409 when the charge is declined, recording only the attempt', async () => {
    e.clock.set(plus(MAR_31, DAY));
    const s = e.seed(IN.failed);
    e.provider.savedCardOutcomes.push({ outcome: 'declined', failureCode: 'insufficient_funds' });
    await expect(reactivateSubscription(e.deps, TENANT, 1, seller)).rejects.toThrow(
      declined('Subscription could not be reactivated: the payment was declined (insufficient_funds)'),
    );
    const { version: _version, updatedAt: _updatedAt, ...unchanged } = s;
    expect(e.stored()).toMatchObject({ ...unchanged, pendingCharge: null });
    expect(e.transactions.all()).toEqual([
      expect.objectContaining({ status: 'denied', failureCode: 'insufficient_funds' }),
    ]);
    expect(e.history().map((h) => h.eventType)).toEqual(['payment_failed']);
    expect(e.webhooks()).not.toContain('subscription.activated');
  });

  it('answers 409 on a technical error too', async () => {
    e.clock.set(plus(MAR_31, DAY));
    e.seed(IN.canceled);
    e.provider.savedCardOutcomes.push({ outcome: 'error', failureCode: 'processing_error' });
    await expect(reactivateSubscription(e.deps, TENANT, 1, seller)).rejects.toThrow(
      declined('Subscription could not be reactivated: the payment was declined (processing_error)'),
    );
    expect(e.stored().status).toBe('canceled');
  });

  it('never charges an expired or deleted card: 409 and nothing written', async () => {
    e.clock.set(plus(MAR_31, DAY));
    e.seed(IN.canceled);
    setCardStatus('expired');
    await expect(reactivateSubscription(e.deps, TENANT, 1, seller)).rejects.toThrow(
      declined('Subscription could not be reactivated: the saved card has expired'),
    );
    e.paymentMethods.items.clear();
    await expect(reactivateSubscription(e.deps, TENANT, 1, seller)).rejects.toThrow(
      declined('Subscription could not be reactivated: it has no saved card'),
    );
    expect(e.provider.savedCardCharges).toEqual([]);
    expect(written()).toEqual(nothingWritten);
  });

  it('answers 503 while the live environment has no provider', async () => {
    const live: Tenant = { sellerId: 7, environment: 'live' };
    e.clock.set(plus(MAR_31, DAY));
    e.subscriptions.seed({ ...e.seed(IN.canceled), tenant: live });
    await expect(reactivateSubscription(e.deps, live, 1, seller)).rejects.toBeInstanceOf(
      ServiceUnavailableError,
    );
  });

  it.each(['active', 'pending'] as const)('refuses an %s subscription with 409', async (status) => {
    e.seed(IN[status]);
    await expect(reactivateSubscription(e.deps, TENANT, 1, seller)).rejects.toThrow(
      conflict(`Subscription cannot be reactivated: it is ${status}`),
    );
    expect(written()).toEqual(nothingWritten);
  });
});

describe('change payment method', () => {
  it('moves renewals to another card of the same customer, without an event', async () => {
    e.seed();
    const card = addCard(40);
    const view = await changeSubscriptionPaymentMethod(e.deps, TENANT, 1, { paymentMethodId: 40, ...seller });
    expect(view).toMatchObject({
      paymentMethodId: 40,
      paymentMethod: { id: 40, cardLast4: card.last4, cardBrand: 'mastercard' },
    });
    expect(written()).toEqual(nothingWritten);
    e.clock.set(FEB_28);
    await runDueJob(e.deps, e.jobId);
    expect(e.provider.savedCardCharges.map((c) => c.token)).toEqual([card.token]);
  });

  it('moves a Pix Automático subscription to the card', async () => {
    e.seedPixAutomatic('active');
    addCard(40);
    const view = await changeSubscriptionPaymentMethod(e.deps, TENANT, 1, { paymentMethodId: 40, ...seller });
    expect(view).toMatchObject({ collectionMethod: 'card', paymentMethodId: 40 });
  });

  it('changes the card of a canceled subscription (the one its reactivation charges)', async () => {
    e.seed(IN.canceled);
    addCard(40);
    expect(
      (await changeSubscriptionPaymentMethod(e.deps, TENANT, 1, { paymentMethodId: 40, ...seller }))
        .paymentMethodId,
    ).toBe(40);
  });

  it('answers the subscription unchanged for its own card', async () => {
    const s = e.seed();
    expect(
      await changeSubscriptionPaymentMethod(e.deps, TENANT, 1, { paymentMethodId: e.card.id, ...seller }),
    ).toEqual(toSubscriptionView(s));
    expect(e.stored().version).toBe(s.version);
  });

  it("answers 404 for another customer's card, a missing one and another seller's", async () => {
    e.seed();
    addCard(41, {}, 12);
    addCard(42, { tenant: OTHER_SELLER });
    for (const paymentMethodId of [41, 42, 99])
      await expect(
        changeSubscriptionPaymentMethod(e.deps, TENANT, 1, { paymentMethodId, ...seller }),
      ).rejects.toThrow(new NotFoundError('Payment method not found'));
    expect(e.stored().paymentMethod?.id).toBe(e.card.id);
  });

  it('answers 400 for an expired card', async () => {
    e.seed();
    addCard(40, { status: 'expired' });
    await expect(
      changeSubscriptionPaymentMethod(e.deps, TENANT, 1, { paymentMethodId: 40, ...seller }),
    ).rejects.toThrow(new ValidationError(['paymentMethodId names an expired card']));
  });
});

describe('scope', () => {
  const actions = {
    cancel: (scope: { by: 'seller' | 'customer'; customerId?: number }, tenant = TENANT) =>
      cancelSubscription(e.deps, tenant, 1, scope),
    pause: (scope: { by: 'seller' | 'customer'; customerId?: number }, tenant = TENANT) =>
      pauseSubscription(e.deps, tenant, 1, scope),
    resume: (scope: { by: 'seller' | 'customer'; customerId?: number }, tenant = TENANT) =>
      resumeSubscription(e.deps, tenant, 1, scope),
    reactivate: (scope: { by: 'seller' | 'customer'; customerId?: number }, tenant = TENANT) =>
      reactivateSubscription(e.deps, tenant, 1, scope),
    changeCard: (scope: { by: 'seller' | 'customer'; customerId?: number }, tenant = TENANT) =>
      changeSubscriptionPaymentMethod(e.deps, tenant, 1, { paymentMethodId: 31, ...scope }),
  };

  it.each(Object.keys(actions) as (keyof typeof actions)[])(
    "%s answers 404 for another seller's subscription and another customer's, before any state rule",
    async (name) => {
      e.seed(IN.failed);
      await expect(actions[name](seller, OTHER_SELLER)).rejects.toThrow(
        new NotFoundError(SUBSCRIPTION_NOT_FOUND),
      );
      await expect(actions[name]({ by: 'customer', customerId: 12 })).rejects.toThrow(
        new NotFoundError(SUBSCRIPTION_NOT_FOUND),
      );
      await expect(actions[name](seller, { sellerId: 7, environment: 'live' })).rejects.toThrow(
        new NotFoundError(SUBSCRIPTION_NOT_FOUND),
      );
      expect(written()).toEqual(nothingWritten);
    },
  );

  it('records the customer as the one who acted in the portal', async () => {
    e.seed();
    await pauseSubscription(e.deps, TENANT, 1, { by: 'customer', customerId: 11 });
    expect(e.history()[0].eventData).toMatchObject({ by: 'customer' });
  });

  it('answers 409 when the subscription changed since it was read, writing nothing', async () => {
    const s = e.seed();
    e.subscriptions.beforeSave = () => {
      e.subscriptions.items.set('7#test#1', { ...s, version: s.version + 1 });
      e.subscriptions.beforeSave = null;
    };
    await expect(pauseSubscription(e.deps, TENANT, 1, seller)).rejects.toMatchObject({
      statusCode: 409,
      reason: 'changed',
    });
    expect(written()).toEqual(nothingWritten);
  });
});

describe('reads', () => {
  it('answers the subscription, and 404 for another seller or customer', async () => {
    const s = e.seed();
    expect(await getSubscription(e.deps, TENANT, 1)).toEqual(toSubscriptionView(s));
    expect(await getSubscription(e.deps, TENANT, 1, { customerId: 11 })).toEqual(toSubscriptionView(s));
    await expect(getSubscription(e.deps, OTHER_SELLER, 1)).rejects.toThrow(
      new NotFoundError(SUBSCRIPTION_NOT_FOUND),
    );
    await expect(getSubscription(e.deps, TENANT, 1, { customerId: 12 })).rejects.toThrow(
      new NotFoundError(SUBSCRIPTION_NOT_FOUND),
    );
  });

  it('answers the history newest first, and 404 for a subscription the caller cannot see', async () => {
    e.seed();
    await pauseSubscription(e.deps, TENANT, 1, seller);
    e.clock.advanceSeconds(60);
    await resumeSubscription(e.deps, TENANT, 1, seller);
    const events = await listSubscriptionEvents(e.deps, TENANT, 1);
    expect(events.map((h) => h.eventType)).toEqual(['subscription.resumed', 'subscription.paused']);
    expect(events[0]).toEqual({
      id: expect.any(Number),
      subscriptionId: 1,
      eventType: 'subscription.resumed',
      eventData: { by: 'seller', pausedAt: FEB_10 },
      createdAt: plus(FEB_10, 60_000),
    });
    expect(await listSubscriptionEvents(e.deps, TENANT, 1, { customerId: 11 })).toEqual(events);
    for (const [tenant, scope] of [
      [OTHER_SELLER, {}],
      [TENANT, { customerId: 12 }],
    ] as const)
      await expect(listSubscriptionEvents(e.deps, tenant, 1, scope)).rejects.toThrow(
        new NotFoundError(SUBSCRIPTION_NOT_FOUND),
      );
    await expect(listSubscriptionEvents(e.deps, TENANT, 2)).rejects.toThrow(
      new NotFoundError(SUBSCRIPTION_NOT_FOUND),
    );
  });

  it('pages the filtered list with its totals', async () => {
    for (let id = 1; id <= 5; id++)
      e.subscriptions.seed({ ...e.seed(), id, status: id % 2 ? 'active' : 'canceled' });
    const page = await listSubscriptions(e.deps, TENANT, { status: 'active', page: 2, limit: 2 });
    expect(page).toMatchObject({ count: 1, totalCount: 3, totalPages: 2 });
    expect(page.data.map((s) => s.id)).toEqual([1]);
  });

  it('answers a page past the end with an empty page and the totals, however deep', async () => {
    for (let id = 1; id <= 3; id++) e.subscriptions.seed({ ...e.seed(), id });
    for (const page of [2, 100, 101, 1_000_000]) {
      expect(await listSubscriptions(e.deps, TENANT, { page, limit: 100 })).toEqual({
        data: [],
        count: 0,
        totalCount: 3,
        totalPages: 1,
      });
    }
  });
});
