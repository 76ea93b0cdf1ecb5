import type { PaymentMethod } from '#shared/domain/payment-methods/payment-method';
import type { PixAuthorizationStatus } from '#shared/domain/payments/gateway';
import type { SubscriptionDeps } from '#shared/domain/subscriptions/deps';
import type { Subscription } from '#shared/domain/subscriptions/subscription';
import type { Tenant } from '#shared/domain/tenant';
import { FakeClock } from './fakes/clock';
import { FakeCustomerRepository } from './fakes/customer-repository';
import { FakeGatewayRouter } from './fakes/gateway-router';
import { SequentialIds } from './fakes/ids';
import { FakePaymentMethodRepository } from './fakes/payment-method-repository';
import { FakePaymentProvider } from './fakes/payment-provider';
import { FakeReporter } from './fakes/reporter';
import { FakeScheduler } from './fakes/scheduler';
import { FakeSubscriptionRepository } from './fakes/subscription-repository';
import { FakeTransactionRepository } from './fakes/transaction-repository';
import { fakeAtomically } from './fakes/unit-of-work';

export const TENANT: Tenant = { sellerId: 7, environment: 'test' };
/** 31 January 2026, 10:00 in Sao Paulo: the anchor of the subscriptions below. */
export const ANCHOR = '2026-01-31T13:00:00.000Z';
export const FEB_28 = '2026-02-28T13:00:00.000Z';
export const MAR_31 = '2026-03-31T13:00:00.000Z';
export const APR_30 = '2026-04-30T13:00:00.000Z';
/** R$ 49,90 a month. */
export const AMOUNT = 4990;
export const CARD_TOKEN = 'tok_fake_subscription';
export const PIX_AUTHORIZATION = 'pixauth_fake_1';

/**
 * The subscription engine over in-memory fakes: one seller's card subscription, monthly at R$ 49,90,
 * paid on 31 January (billing cycle 1), due on 28 February; the clock stands on the anchor.
 */
export function subscriptionEngine() {
  const clock = new FakeClock(ANCHOR);
  const ids = new SequentialIds();
  const subscriptions = new FakeSubscriptionRepository();
  const transactions = new FakeTransactionRepository(500, subscriptions.outbox);
  const paymentMethods = new FakePaymentMethodRepository();
  const provider = new FakePaymentProvider('sandbox');
  const scheduler = new FakeScheduler();
  const reporter = new FakeReporter();
  const deps: SubscriptionDeps & { paymentMethods: FakePaymentMethodRepository } = {
    subscriptions,
    atomically: fakeAtomically,
    customers: new FakeCustomerRepository(),
    transactions,
    paymentMethods,
    payments: new FakeGatewayRouter({ test: provider, live: new FakePaymentProvider('live', false) }),
    scheduler,
    clock,
    ids,
    reporter,
  };

  const card: PaymentMethod = {
    id: 31,
    uuid: 'b5f7c7d2-3c1e-4d4e-9a57-1d2f3e4a5b6c',
    tenant: TENANT,
    customer: { id: 11, uuid: '3f0c2c1e-8a77-4c55-9a8e-0b1d2e3f4a5b' },
    type: 'card',
    brand: 'visa',
    last4: '4242',
    expiryMonth: 12,
    expiryYear: 2034,
    status: 'active',
    provider: 'sandbox',
    token: CARD_TOKEN,
    expiryNotices: [],
    nextExpiryStepAt: null,
    expiredAt: null,
    createdAt: '2026-01-31T12:59:00.000Z',
    updatedAt: '2026-01-31T12:59:00.000Z',
    version: 1,
  };
  paymentMethods.items.set(`${TENANT.sellerId}#${TENANT.environment}#${card.id}`, card);
  provider.savedCards.set(CARD_TOKEN, {
    token: CARD_TOKEN,
    brand: 'visa',
    last4: '4242',
    expiryMonth: 12,
    expiryYear: 2034,
    tenant: TENANT,
  });

  const base: Subscription = {
    id: 1,
    uuid: '9d1c4a8e-2b3f-4c5d-8e9f-0a1b2c3d4e5f',
    tenant: TENANT,
    status: 'active',
    customer: {
      id: 11,
      uuid: card.customer.uuid,
      name: 'Ana Souza',
      email: 'ana@example.com',
      document: '52998224725',
    },
    price: {
      id: 3,
      uuid: '0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b',
      name: 'Mensal',
      unitAmount: AMOUNT,
      billingInterval: 'month',
      intervalCount: 1,
      trialDays: 0,
      product: { id: 5, uuid: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d', name: 'Clube do Livro' },
    },
    collectionMethod: 'card',
    paymentMethod: { id: card.id, cardLast4: '4242', cardBrand: 'visa' },
    pixAuthorizationId: null,
    billingAnchor: ANCHOR,
    billingCycle: 1,
    currentPeriodStart: ANCHOR,
    currentPeriodEnd: FEB_28,
    trialEndsAt: null,
    cancelAt: null,
    cancelledAt: null,
    cancelAtPeriodEnd: false,
    cancelReason: null,
    pausedAt: null,
    lastPaymentAt: ANCHOR,
    nextPaymentAt: FEB_28,
    failedPaymentCount: 0,
    dueAt: FEB_28,
    pendingCharge: null,
    checkoutSessionId: null,
    metadata: { plan: 'gold' },
    createdAt: ANCHOR,
    updatedAt: ANCHOR,
    version: 3,
  };

  return {
    deps,
    clock,
    provider,
    scheduler,
    subscriptions,
    transactions,
    paymentMethods,
    card,
    reporter,
    jobId: '7:test:1',
    /** Stores the subscription above with `changes` applied, and returns it. */
    seed(changes: Partial<Subscription> = {}): Subscription {
      return subscriptions.seed({ ...base, ...changes });
    },
    /** Stores the subscription collected by Pix Automático, its authorization in `status` at the provider. */
    seedPixAutomatic(status: PixAuthorizationStatus): Subscription {
      provider.pixAuthorizations.set(PIX_AUTHORIZATION, {
        tenant: TENANT,
        status,
        maxAmountCentavos: 10_000,
        gatewayPayId: 1,
      });
      return subscriptions.seed({
        ...base,
        collectionMethod: 'pix_automatic',
        paymentMethod: null,
        pixAuthorizationId: PIX_AUTHORIZATION,
      });
    },
    /** The stored subscription as it is now. */
    stored(): Subscription {
      const s = subscriptions.stored(TENANT, 1);
      if (!s) throw new Error('subscription 1 is not stored');
      return s;
    },
    /** The webhook names written to the outbox, in order. */
    webhooks(): string[] {
      return subscriptions.outbox.names();
    },
    /** The history written, oldest first. */
    history() {
      return subscriptions.entries.map((e) => e.entry);
    },
  };
}

export type SubscriptionEngine = ReturnType<typeof subscriptionEngine>;
