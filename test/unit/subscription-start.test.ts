import { beforeEach, describe, expect, it } from 'vitest';
import type { Product } from '#shared/domain/products/products';
import { periodEnd, trialEnd } from '#shared/domain/subscriptions/periods';
import type { SubscriptionPrice } from '#shared/domain/subscriptions/price';
import { dueScheduleName } from '#shared/domain/subscriptions/schedule';
import { createSubscriptionSchema } from '#shared/domain/subscriptions/schemas';
import {
  activateFromFirstPayment,
  type CreateByApiDeps,
  createSubscriptionByApi,
  type StartInput,
  startSubscription,
} from '#shared/domain/subscriptions/start';
import { toSubscriptionView } from '#shared/domain/subscriptions/subscription';
import type { Tenant } from '#shared/domain/tenant';
import type { Transaction } from '#shared/domain/transactions/transaction';
import { ConflictError, NotFoundError, ServiceUnavailableError, ValidationError } from '#shared/errors';
import { parseInput } from '#shared/validation';
import { FakeCustomerRepository } from '../support/fakes/customer-repository';
import { FakePriceRepository } from '../support/fakes/price-repository';
import { FakeProductRepository } from '../support/fakes/product-repository';
import { fakeSubscriptionStartReader } from '../support/fakes/subscription-start-reader';
import { customerProfile } from '../support/fixtures';
import {
  AMOUNT,
  ANCHOR,
  CARD_TOKEN,
  type SubscriptionEngine,
  subscriptionEngine,
  TENANT,
} from '../support/subscription-engine';

const OTHER_SELLER: Tenant = { sellerId: 8, environment: 'test' };
const LIVE: Tenant = { sellerId: 7, environment: 'live' };
/** A minute after the engine's clock: when a checkout's first payment was paid. */
const PAID_AT = '2026-01-31T13:01:00.000Z';

const price: SubscriptionPrice = {
  id: 3,
  uuid: '0e1f2a3b-4c5d-4e6f-8a9b-0c1d2e3f4a5b',
  tenant: TENANT,
  product: { id: 5, uuid: '7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c0d', name: 'Clube do Livro' },
  name: 'Mensal',
  unitAmount: AMOUNT,
  billingInterval: 'month',
  intervalCount: 1,
  trialDays: 0,
  isActive: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 1,
};

const profile = customerProfile({ tenant: TENANT, name: 'Ana Souza', email: 'ana@example.com' });

const product: Product = {
  id: 5,
  uuid: price.product.uuid,
  tenant: TENANT,
  name: 'Clube do Livro',
  image: 'https://cdn.example/livro.png',
  value: AMOUNT,
  description: null,
  pix: true,
  creditCard: true,
  boleto: true,
  installments: 1,
  carne: { enabled: false, maxInstallments: 12, interestFactors: {} },
  isActive: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  version: 1,
};

/** The first payment a checkout sale wrote for subscription `subscriptionId`. */
function firstPayment(subscriptionId: number, changes: Partial<Transaction> = {}): Transaction {
  return {
    id: 900,
    uuid: '00000000-0000-4000-8000-000000000900',
    tenant: TENANT,
    provider: 'sandbox',
    gatewayPayId: 1,
    status: 'captured',
    paymentMethod: 'creditcard',
    value: AMOUNT,
    valueSeller: 4751,
    installments: 1,
    customer: { ...profile, phone: profile.phone },
    product: { ...price.product, value: AMOUNT },
    pix: null,
    boleto: null,
    card: { brand: 'visa', last4: '4242' },
    failureCode: null,
    failureReason: null,
    refunds: [],
    refundedAmount: 0,
    paidAt: PAID_AT,
    canceledAt: null,
    deadline: null,
    metadata: {},
    checkoutSessionId: 'cs_test_1',
    clientReferenceId: null,
    affiliate: null,
    recurring: { subscriptionId, billingCycle: 1, method: 'card' },
    createdAt: PAID_AT,
    updatedAt: PAID_AT,
    version: 1,
    ...changes,
  };
}

let e: SubscriptionEngine;
let prices: FakePriceRepository;
let products: FakeProductRepository;
let customers: FakeCustomerRepository;
let deps: CreateByApiDeps;

beforeEach(async () => {
  e = subscriptionEngine();
  prices = new FakePriceRepository();
  products = new FakeProductRepository();
  customers = new FakeCustomerRepository();
  prices.seed(price);
  products.seed(product);
  await customers.addProfile(profile);
  deps = {
    ...e.deps,
    customers,
    startReader: fakeSubscriptionStartReader({ ...e.deps, prices, products, customers }),
  };
});

const start = (changes: Partial<StartInput> = {}) =>
  startSubscription(e.deps, {
    tenant: TENANT,
    price,
    customer: profile,
    collectionMethod: 'card',
    paymentMethod: e.card,
    trial: false,
    ...changes,
  });

const apiCreate = (body: Record<string, unknown> = {}, tenant = TENANT) =>
  createSubscriptionByApi(
    deps,
    tenant,
    parseInput(createSubscriptionSchema, { customerId: 11, priceId: 3, paymentMethodId: e.card.id, ...body }),
  );

describe('startSubscription with a trial', () => {
  it('starts active with nothing charged; the trial end is the first charge', async () => {
    const s = await start({ trial: true, price: { ...price, trialDays: 14 } });
    const trialEndsAt = trialEnd(ANCHOR, 14);
    expect(s).toMatchObject({
      id: 1,
      status: 'active',
      billingCycle: 0,
      currentPeriodStart: ANCHOR,
      currentPeriodEnd: trialEndsAt,
      trialEndsAt,
      billingAnchor: trialEndsAt,
      nextPaymentAt: trialEndsAt,
      dueAt: trialEndsAt,
      lastPaymentAt: null,
      paymentMethod: { id: e.card.id, cardLast4: '4242', cardBrand: 'visa' },
      customer: {
        id: 11,
        uuid: profile.uuid,
        name: 'Ana Souza',
        email: 'ana@example.com',
        document: '52998224725',
      },
    });
    expect(Object.keys(s.customer)).toEqual(['id', 'uuid', 'name', 'email', 'document']);
    expect(e.stored()).toEqual(s);
    expect(e.provider.savedCardCharges).toEqual([]);
    expect(e.history().map((h) => [h.eventType, h.eventData])).toEqual([
      ['subscription.created', { priceId: 3, trialDays: 14 }],
      ['subscription.activated', { trial: true }],
      ['trial_started', { trialDays: 14, trialEndsAt }],
    ]);
    expect(e.webhooks()).toEqual([
      'subscription.created',
      'subscription.activated',
      'customer.trial_started',
    ]);
    expect(e.subscriptions.outbox.batches).toHaveLength(1);
    expect(e.subscriptions.outbox.events[2].envelope.data).toEqual(toSubscriptionView(s));
    expect(e.scheduler.scheduled).toEqual([
      {
        name: dueScheduleName(s, trialEndsAt),
        at: new Date(trialEndsAt),
        payload: { job: 'subscription-due', id: '7:test:1' },
      },
    ]);
  });

  it("takes the trial length given over the price's, and 0 days is no trial", async () => {
    expect((await start({ trial: true, trialDays: 3 })).trialEndsAt).toBe(trialEnd(ANCHOR, 3));
    e = subscriptionEngine();
    const s = await start({ trial: true, trialDays: 0, price: { ...price, trialDays: 14 } });
    expect(s).toMatchObject({ status: 'active', trialEndsAt: null, billingCycle: 1 });
    expect(e.provider.savedCardCharges).toHaveLength(1);
  });
});

describe('startSubscription after a paid first payment', () => {
  it('is active for the first period from the payment, with the preallocated id', async () => {
    const s = await start({
      id: 77,
      firstPayment: firstPayment(77),
      checkoutSessionId: 'cs_test_1',
      metadata: { a: 'b' },
    });
    const end = periodEnd(PAID_AT, 'month', 1, 1);
    expect(s).toMatchObject({
      id: 77,
      status: 'active',
      billingCycle: 1,
      billingAnchor: PAID_AT,
      currentPeriodStart: PAID_AT,
      currentPeriodEnd: end,
      lastPaymentAt: PAID_AT,
      nextPaymentAt: end,
      dueAt: end,
      checkoutSessionId: 'cs_test_1',
      metadata: { a: 'b' },
      createdAt: ANCHOR,
    });
    expect(e.provider.savedCardCharges).toEqual([]);
    expect(e.history().map((h) => [h.eventType, h.eventData])).toEqual([
      ['subscription.created', { priceId: 3, trialDays: 0 }],
      ['subscription.activated', {}],
      ['payment_success', { amount: 49.9, transactionId: 900, paidAt: PAID_AT, billingCycle: 1 }],
    ]);
    expect(e.webhooks()).toEqual(['subscription.created', 'subscription.activated']);
    expect(e.scheduler.scheduled.map((c) => c.at.toISOString())).toEqual([end]);
  });

  it('refuses to start from a declined payment (a programming error, not an answer)', async () => {
    await expect(start({ firstPayment: firstPayment(1, { status: 'denied' }) })).rejects.toThrow(/denied/);
    expect(e.subscriptions.items.size).toBe(0);
  });
});

describe('Pix Automático: pending until the first pix is paid', () => {
  const pix = (changes: Partial<Transaction> = {}) =>
    firstPayment(1, {
      status: 'pendingPix',
      paymentMethod: 'pix',
      paidAt: null,
      card: null,
      recurring: { subscriptionId: 1, billingCycle: 1, method: 'pix_automatic' },
      ...changes,
    });
  const startPix = () =>
    start({
      collectionMethod: 'pix_automatic',
      paymentMethod: null,
      pixAuthorizationId: 'pixauth_1',
      firstPayment: pix(),
    });

  it('starts pending with nothing due, then the paid pix activates it like a paid card payment', async () => {
    const s = await startPix();
    expect(s).toMatchObject({
      status: 'pending',
      collectionMethod: 'pix_automatic',
      pixAuthorizationId: 'pixauth_1',
      dueAt: null,
      nextPaymentAt: null,
      paymentMethod: null,
    });
    expect(e.webhooks()).toEqual(['subscription.created']);
    expect(e.scheduler.scheduled).toEqual([]);

    e.clock.set(PAID_AT);
    const active = await activateFromFirstPayment(
      e.deps,
      TENANT,
      1,
      pix({ status: 'payedPix', paidAt: PAID_AT }),
    );
    const end = periodEnd(PAID_AT, 'month', 1, 1);
    expect(active).toMatchObject({
      status: 'active',
      billingCycle: 1,
      billingAnchor: PAID_AT,
      currentPeriodEnd: end,
      dueAt: end,
      version: 2,
    });
    expect(e.webhooks()).toEqual(['subscription.created', 'subscription.activated']);
    expect(e.history().map((h) => h.eventType)).toEqual([
      'subscription.created',
      'subscription.activated',
      'payment_success',
    ]);
    expect(e.scheduler.scheduled.map((c) => c.at.toISOString())).toEqual([end]);
  });

  it('starts pending without a charge when the first pix is not handed over', async () => {
    const s = await start({
      collectionMethod: 'pix_automatic',
      paymentMethod: null,
      pixAuthorizationId: 'pixauth_1',
    });
    expect(s).toMatchObject({ status: 'pending', dueAt: null });
    expect(e.provider.pixAutomaticCharges).toEqual([]);
    expect(e.webhooks()).toEqual(['subscription.created']);
  });

  it('activates once: a repeated notification and a pending pix change nothing', async () => {
    await startPix();
    expect((await activateFromFirstPayment(e.deps, TENANT, 1, pix())).status).toBe('pending');
    await activateFromFirstPayment(e.deps, TENANT, 1, pix({ status: 'payedPix', paidAt: PAID_AT }));
    const again = await activateFromFirstPayment(
      e.deps,
      TENANT,
      1,
      pix({ status: 'payedPix', paidAt: PAID_AT }),
    );
    expect(again.version).toBe(2);
    expect(e.webhooks()).toEqual(['subscription.created', 'subscription.activated']);
  });

  it('leaves a subscription canceled before its pix was paid as it is', async () => {
    await startPix();
    e.subscriptions.items.set('7#test#1', { ...e.stored(), status: 'canceled', version: 2 });
    expect(
      (await activateFromFirstPayment(e.deps, TENANT, 1, pix({ status: 'payedPix', paidAt: PAID_AT })))
        .status,
    ).toBe('canceled');
  });

  it('reads again and activates when another write got in between', async () => {
    await startPix();
    const stored = e.stored();
    e.subscriptions.beforeSave = () => {
      e.subscriptions.items.set('7#test#1', { ...stored, metadata: { x: 'y' }, version: 2 });
      e.subscriptions.beforeSave = null;
    };
    const active = await activateFromFirstPayment(
      e.deps,
      TENANT,
      1,
      pix({ status: 'payedPix', paidAt: PAID_AT }),
    );
    expect(active).toMatchObject({ status: 'active', metadata: { x: 'y' }, version: 3 });
  });
});

describe('POST /api/subscriptions (createSubscriptionByApi)', () => {
  it("charges the customer's saved card now and answers the active subscription", async () => {
    const view = await apiCreate({ metadata: { plan: 'gold' } });
    const end = periodEnd(ANCHOR, 'month', 1, 1);
    expect(view).toMatchObject({
      id: 1,
      status: 'active',
      customerId: 11,
      subscriptionPriceId: 3,
      paymentMethodId: e.card.id,
      billingCycle: 1,
      currentPeriodStart: ANCHOR,
      currentPeriodEnd: end,
      lastPaymentAt: ANCHOR,
      nextPaymentAt: end,
      failedPaymentCount: 0,
      metadata: { plan: 'gold' },
      subscriptionPrice: {
        id: 3,
        unitAmount: 49.9,
        billingInterval: 'month',
        product: { id: 5, name: 'Clube do Livro' },
      },
    });
    expect(e.provider.savedCardCharges).toEqual([
      expect.objectContaining({
        token: CARD_TOKEN,
        amountCentavos: AMOUNT,
        idempotencyKey: expect.stringMatching(/^sub_/),
      }),
    ]);
    expect(e.transactions.all()).toEqual([
      expect.objectContaining({
        status: 'captured',
        recurring: { subscriptionId: 1, billingCycle: 1, method: 'card' },
      }),
    ]);
    expect(e.history().map((h) => h.eventType)).toEqual([
      'subscription.created',
      'subscription.activated',
      'payment_success',
    ]);
    expect(e.webhooks()).toEqual([
      'subscription.created',
      'subscription.activated',
      'transaction.created',
      'transaction.payment.succeeded',
    ]);
  });

  it('answers the subscription `failed` when the first charge is declined: no retries, only subscription.created', async () => {
    e.provider.savedCardOutcomes.push({ outcome: 'declined', failureCode: 'insufficient_funds' });
    const view = await apiCreate();
    expect(view).toMatchObject({
      status: 'failed',
      failedPaymentCount: 1,
      nextPaymentAt: null,
      billingCycle: 0,
    });
    expect(e.stored().dueAt).toBeNull();
    expect(e.history().map((h) => h.eventType)).toEqual(['subscription.created', 'payment_failed']);
    expect(e.webhooks().filter((n) => n.startsWith('subscription.'))).toEqual(['subscription.created']);
    expect(e.transactions.all()).toEqual([expect.objectContaining({ status: 'denied' })]);
    expect(e.scheduler.scheduled).toEqual([]);
  });

  it('writes once, on the stored profile, when the customer read was a stale copy', async () => {
    // The DynamoDB reader answers the copy its id pointer carries; the profile changed since.
    await customers.updateProfile(profile, { name: 'Ana Lima', updatedAt: '2026-01-20T00:00:00.000Z' });
    const current = deps.startReader;
    deps = {
      ...deps,
      startReader: {
        read: async (tenant, refs) => ({ ...(await current.read(tenant, refs)), customer: profile }),
      },
    };
    const view = await apiCreate();
    expect(view).toMatchObject({ status: 'active', customer: { name: 'Ana Lima' } });
    expect(e.stored().customer.name).toBe('Ana Lima');
    expect(e.transactions.all()).toEqual([
      expect.objectContaining({ customer: expect.objectContaining({ name: 'Ana Lima' }) }),
    ]);
    expect(e.provider.savedCardCharges).toHaveLength(1);
    expect(e.history().map((h) => h.eventType)).toEqual([
      'subscription.created',
      'subscription.activated',
      'payment_success',
    ]);
  });

  it('refunds the approved first charge when its write fails on a condition, and writes nothing', async () => {
    e.subscriptions.create = async () => {
      throw new ConflictError('The subscription already exists', 'already_exists', {
        reason: 'already_exists',
      });
    };
    await expect(apiCreate()).rejects.toThrow(ConflictError);
    expect(e.provider.savedCardCharges).toHaveLength(1);
    expect(e.provider.refunds).toEqual([expect.objectContaining({ amountCentavos: AMOUNT })]);
    expect(e.subscriptions.items.size).toBe(0);
  });

  it("starts the price's trial without a charge, and trialDays overrides it", async () => {
    prices.seed({ ...price, trialDays: 7 });
    expect(await apiCreate()).toMatchObject({
      status: 'active',
      trialEndsAt: trialEnd(ANCHOR, 7),
      billingCycle: 0,
    });
    expect(await apiCreate({ trialDays: 30 })).toMatchObject({ trialEndsAt: trialEnd(ANCHOR, 30) });
    expect(e.provider.savedCardCharges).toEqual([]);
    expect(await apiCreate({ trialDays: 0 })).toMatchObject({ trialEndsAt: null, billingCycle: 1 });
  });

  it('finds the price by its uuid', async () => {
    expect((await apiCreate({ priceId: price.uuid })).subscriptionPriceId).toBe(3);
  });

  it('answers 404 for a customer, price or card the seller does not have', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ customerId: 99 }, 'Customer not found'],
      [{ priceId: 99 }, 'Price not found'],
      [{ priceId: '00000000-0000-4000-8000-000000000099' }, 'Price not found'],
      [{ paymentMethodId: 99 }, 'Payment method not found'],
    ];
    for (const [body, message] of cases)
      await expect(apiCreate(body)).rejects.toThrow(new NotFoundError(message));
    await expect(apiCreate({}, OTHER_SELLER)).rejects.toThrow(new NotFoundError('Customer not found'));
    await customers.addProfile({ ...profile, tenant: OTHER_SELLER });
    await expect(apiCreate({}, OTHER_SELLER)).rejects.toThrow(new NotFoundError('Price not found'));
    expect(e.subscriptions.items.size).toBe(0);
  });

  it("answers 404 Payment method not found for another customer's card", async () => {
    await customers.addProfile({
      ...profile,
      id: 12,
      uuid: '00000000-0000-4000-8000-000000000012',
      document: '11144477735',
    });
    await expect(apiCreate({ customerId: 12 })).rejects.toThrow(
      new NotFoundError('Payment method not found'),
    );
  });

  it('answers 400 naming the fields for a deactivated price, a deactivated product or an expired card', async () => {
    prices.seed({ ...price, isActive: false });
    e.paymentMethods.items.set(`7#test#${e.card.id}`, { ...e.card, status: 'expired' });
    await expect(apiCreate()).rejects.toThrow(
      new ValidationError(['priceId names a deactivated price', 'paymentMethodId names an expired card']),
    );
    prices.seed(price);
    products.seed({ ...product, isActive: false });
    e.paymentMethods.items.set(`7#test#${e.card.id}`, e.card);
    await expect(apiCreate()).rejects.toThrow(
      new ValidationError(['priceId names a price of a deactivated product']),
    );
    expect(e.subscriptions.items.size).toBe(0);
    expect(e.provider.savedCardCharges).toEqual([]);
  });

  it('answers 503 while the live environment has no provider, before reading anything', async () => {
    await expect(apiCreate({}, LIVE)).rejects.toBeInstanceOf(ServiceUnavailableError);
  });
});
