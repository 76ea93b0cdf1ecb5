import { beforeEach, describe, expect, it } from 'vitest';
import { payCheckout } from '#shared/domain/checkout/public';
import { createSessionSchema } from '#shared/domain/checkout/schemas';
import type { CheckoutSession } from '#shared/domain/checkout/session';
import { settleFirstPayment } from '#shared/domain/checkout/session-subscriptions';
import { createSession, expireSessionJob } from '#shared/domain/checkout/sessions';
import { PRICE_NO_LONGER_OFFERED } from '#shared/domain/checkout/subscribe';
import type { Product } from '#shared/domain/products/products';
import type { SubscriptionPrice } from '#shared/domain/subscriptions/price';
import type { Tenant } from '#shared/domain/tenant';
import { type FollowUpDeps, runFollowUps } from '#shared/domain/transactions/follow-ups';
import type { Transaction } from '#shared/domain/transactions/transaction';
import { transition } from '#shared/domain/transactions/transitions';
import { ConflictError } from '#shared/errors';
import { parseInput } from '#shared/validation';
import { FakePortalConfigRepository } from '#test/support/fakes/portal-config-repository';
import { FakeAffiliationRepository } from '../support/fakes/affiliation-repository';
import { FakeAttemptRepository } from '../support/fakes/attempt-repository';
import { FakeCheckoutSessionRepository } from '../support/fakes/checkout-session-repository';
import { FakeClock } from '../support/fakes/clock';
import { FakeCustomerRepository } from '../support/fakes/customer-repository';
import { FakeGatewayRouter } from '../support/fakes/gateway-router';
import { SequentialIds } from '../support/fakes/ids';
import { FakePaymentMethodRepository } from '../support/fakes/payment-method-repository';
import { FakePaymentProvider } from '../support/fakes/payment-provider';
import { FakePriceRepository } from '../support/fakes/price-repository';
import { FakeProductRepository } from '../support/fakes/product-repository';
import { FakeReporter } from '../support/fakes/reporter';
import { FakeScheduler } from '../support/fakes/scheduler';
import { FakeSubscriptionRepository } from '../support/fakes/subscription-repository';
import { FakeTransactionRepository } from '../support/fakes/transaction-repository';
import { fakeAtomically } from '../support/fakes/unit-of-work';

const NOW = '2026-03-10T15:00:00.000Z';
const SELLER: Tenant = { sellerId: 7, environment: 'test' };
const PRODUCT_UUID = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const FIRST_TRANSACTION_ID = 1001;
const PRICE_ID = 5;
const BUYER = {
  name: 'Maria Silva',
  email: 'maria@example.com',
  document: '52998224725',
  phone: '11987654321',
};
const CARD = {
  number: '4111111111111111',
  holderName: 'MARIA SILVA',
  expiryMonth: 12,
  expiryYear: 2030,
  cvv: '123',
};

const product: Product = {
  id: 42,
  uuid: PRODUCT_UUID,
  tenant: SELLER,
  name: 'Clube do violão',
  image: 'https://cdn.example/violao.png',
  value: 0,
  description: null,
  pix: true,
  creditCard: true,
  boleto: true,
  installments: 6,
  carne: { enabled: false, maxInstallments: 12, interestFactors: {} },
  isActive: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 1,
};

const price: SubscriptionPrice = {
  id: PRICE_ID,
  uuid: 'bbbbbbbb-cccc-4ddd-8eee-ffffffffffff',
  tenant: SELLER,
  product: { id: 42, uuid: PRODUCT_UUID, name: 'Clube do violão' },
  name: 'Mensal',
  unitAmount: 4990,
  billingInterval: 'month',
  intervalCount: 1,
  trialDays: 0,
  isActive: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 1,
};

let clock: FakeClock;
let sessions: FakeCheckoutSessionRepository;
let transactions: FakeTransactionRepository;
let subscriptions: FakeSubscriptionRepository;
let prices: FakePriceRepository;
let deps: ReturnType<typeof makeDeps>;

function makeDeps() {
  const products = new FakeProductRepository();
  products.seed(product);
  return {
    sessions,
    products,
    portalConfigs: new FakePortalConfigRepository(products),
    transactions,
    subscriptions,
    prices,
    affiliations: new FakeAffiliationRepository({ exists: async () => true }),
    customers: new FakeCustomerRepository(501),
    atomically: fakeAtomically,
    paymentMethods: new FakePaymentMethodRepository(),
    attempts: new FakeAttemptRepository(),
    payments: new FakeGatewayRouter({
      test: new FakePaymentProvider('sandbox'),
      live: new FakePaymentProvider('live'),
    }),
    scheduler: new FakeScheduler(),
    clock,
    ids: new SequentialIds(),
    publicBaseUrl: 'https://pay.example.com',
    allowLocalHttp: false,
    reporter: new FakeReporter(),
  };
}

beforeEach(() => {
  clock = new FakeClock(NOW);
  sessions = new FakeCheckoutSessionRepository();
  transactions = new FakeTransactionRepository(FIRST_TRANSACTION_ID);
  subscriptions = new FakeSubscriptionRepository({ outbox: transactions.outbox });
  prices = new FakePriceRepository();
  prices.seed(price);
  deps = makeDeps();
});

async function priceSession(): Promise<CheckoutSession> {
  const view = await createSession(
    deps,
    SELLER,
    parseInput(createSessionSchema, { product_id: 42, price_id: String(PRICE_ID) }),
  );
  return (await sessions.get(view.id)) as CheckoutSession;
}

const pay = (id: string, method: 'pix' | 'card') =>
  payCheckout(deps, id, {
    paymentMethod: method,
    customer: { ...BUYER },
    ...(method === 'card' ? { card: CARD } : {}),
  });

const stored = (id: number) => transactions.get(SELLER, id) as Promise<Transaction>;
const subscriptionOf = async (t: Transaction) => subscriptions.get(SELLER, t.recurring?.subscriptionId ?? 0);

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the promise to reject');
    },
    (error: unknown) => error,
  );
}

/** The stored session, as if another payment had completed it meanwhile. */
function completeByAnother(id: string) {
  const s = sessions.stored(id) as CheckoutSession;
  sessions.items.set(id, { ...s, status: 'complete', transactionId: 999, version: s.version + 1 });
}

describe('a session with a subscription price starts at most one subscription', () => {
  it('refunds a card payment that lost the session to another one, and cancels its subscription', async () => {
    const s = await priceSession();
    sessions.beforeClose = () => {
      sessions.beforeClose = null;
      completeByAnother(s.id);
    };

    const error = await rejection(pay(s.id, 'card'));

    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).message).toBe('This checkout session is already complete');
    const t = await stored(FIRST_TRANSACTION_ID);
    expect(t).toMatchObject({ status: 'reversed', refundedAmount: 4990 });
    expect(await subscriptionOf(t)).toMatchObject({ status: 'canceled' });
  });

  it('cancels the other pending pix, and the subscription waiting for it, when a card completes the session', async () => {
    const s = await priceSession();
    const pix = await pay(s.id, 'pix');
    const card = await pay(s.id, 'card');

    expect(pix.subscription).toMatchObject({ status: 'pending' });
    expect(card).toMatchObject({ status: 'paid', subscription: { status: 'active' } });
    const pixPayment = await stored(FIRST_TRANSACTION_ID);
    const cardPayment = await stored(FIRST_TRANSACTION_ID + 1);
    expect(pixPayment.status).toBe('cancel');
    expect(await subscriptionOf(pixPayment)).toMatchObject({ status: 'canceled' });
    expect(await subscriptionOf(cardPayment)).toMatchObject({ status: 'active' });
    expect(sessions.stored(s.id)).toMatchObject({
      status: 'complete',
      transactionId: cardPayment.id,
      subscriptionId: cardPayment.recurring?.subscriptionId,
    });
  });

  it('refunds a pix paid after its session completed with another payment, and cancels its subscription', async () => {
    const s = await priceSession();
    await pay(s.id, 'pix');
    completeByAnother(s.id);
    const { transaction: paid } = await transition(deps, await stored(FIRST_TRANSACTION_ID), 'pay');

    await settleFirstPayment(deps, paid, sessions.stored(s.id) as CheckoutSession);

    expect(await stored(paid.id)).toMatchObject({ status: 'reversed', refundedAmount: 4990 });
    expect(await subscriptionOf(paid)).toMatchObject({ status: 'canceled' });
  });

  it('activates the subscription of the pix that completed its session, once', async () => {
    const s = await priceSession();
    await pay(s.id, 'pix');
    const { transaction: paid } = await transition(deps, await stored(FIRST_TRANSACTION_ID), 'pay');
    const completed = {
      ...(sessions.stored(s.id) as CheckoutSession),
      status: 'complete' as const,
      transactionId: paid.id,
    };

    await settleFirstPayment(deps, paid, completed);
    await settleFirstPayment(deps, paid, completed);

    expect(await subscriptionOf(paid)).toMatchObject({ status: 'active', billingCycle: 1 });
    expect(subscriptions.outbox.names().filter((n) => n === 'subscription.activated')).toHaveLength(1);
  });
});

describe('a session with a subscription price that ends without a payment', () => {
  it('cancels its unpaid pix and the subscription waiting for it when it expires', async () => {
    const s = await priceSession();
    await pay(s.id, 'pix');
    clock.advanceSeconds(25 * 3_600);

    await expireSessionJob(deps, s.id);

    const t = await stored(FIRST_TRANSACTION_ID);
    expect(t.status).toBe('cancel');
    expect(await subscriptionOf(t)).toMatchObject({ status: 'canceled' });
    expect(sessions.stored(s.id)).toMatchObject({ status: 'expired', subscriptionId: null });
  });
});

describe('refusals when paying', () => {
  it('refunds the card when the subscription cannot be written, and leaves the session open', async () => {
    const s = await priceSession();
    subscriptions.create = async () => {
      throw new Error('table unavailable');
    };

    await expect(pay(s.id, 'card')).rejects.toThrow('table unavailable');

    expect(await stored(FIRST_TRANSACTION_ID)).toMatchObject({ status: 'reversed' });
    expect(sessions.stored(s.id)).toMatchObject({ status: 'open', subscriptionId: null });
  });

  it('charges nothing once the price was deactivated after the session was made', async () => {
    const s = await priceSession();
    prices.seed({ ...price, isActive: false, version: 2 });

    const error = await rejection(pay(s.id, 'card'));

    expect((error as ConflictError).message).toBe(PRICE_NO_LONGER_OFFERED);
    expect(await transactions.get(SELLER, FIRST_TRANSACTION_ID)).toBeNull();
  });

  it('marks a declined first payment as nobody’s charge: no subscription is referenced', async () => {
    const s = await priceSession();
    const declined = await payCheckout(deps, s.id, {
      paymentMethod: 'card',
      customer: { ...BUYER },
      card: { ...CARD, number: '4000000000009995' },
    });

    expect(declined).toMatchObject({ status: 'declined', subscription: null });
    expect((await stored(FIRST_TRANSACTION_ID)).recurring).toBeNull();
    expect(subscriptions.items.size).toBe(0);
  });
});

describe('a first payment recorded without its subscription (its sale recorded by the reconciler)', () => {
  it('starts the subscription pending from the follow-ups, then activates it and completes the session when paid', async () => {
    const s = await priceSession();
    await pay(s.id, 'pix');
    const pending = await stored(FIRST_TRANSACTION_ID);
    // As if the request died after the sale's write: no subscription was started.
    const id = pending.recurring?.subscriptionId ?? 0;
    subscriptions.items.clear();
    // A session payment touches no cycle or installment: those repositories stay unused.
    const followUps = deps as unknown as FollowUpDeps;

    await runFollowUps(followUps, pending);
    expect(await subscriptionOf(pending)).toMatchObject({
      id,
      status: 'pending',
      collectionMethod: 'pix_automatic',
    });
    await runFollowUps(followUps, pending);
    expect(subscriptions.items.size).toBe(1);

    const { transaction: paid } = await transition(deps, pending, 'pay');
    await runFollowUps(followUps, paid);
    expect(await subscriptionOf(paid)).toMatchObject({ status: 'active', billingCycle: 1 });
    expect(sessions.stored(s.id)).toMatchObject({
      status: 'complete',
      transactionId: paid.id,
      subscriptionId: id,
    });
  });
});
