import { beforeEach, describe, expect, it } from 'vitest';
import type { CardGuardDeps } from '#shared/domain/card-testing/guard';
import type { PaymentMethod } from '#shared/domain/payment-methods/payment-method';
import {
  type PortalActionDeps,
  portalAddCardAndUpdate,
  portalCancel,
  portalEvents,
  portalPause,
  portalReactivate,
  portalResume,
  portalUpdateCustomerInfo,
  portalUpdatePaymentMethod,
} from '#shared/domain/portal/actions';
import { actionsOf, getPortal, portalConfigOf, subscriptionConfigOf } from '#shared/domain/portal/portal';
import {
  portalAddCardSchema,
  portalCancelSchema,
  portalCustomerInfoSchema,
} from '#shared/domain/portal/schemas';
import type { PortalSession } from '#shared/domain/portal/session';
import { PORTAL_DEFAULTS, type PortalFields } from '#shared/domain/products/portal-config';
import {
  type Subscription,
  type SubscriptionStatus,
  toSubscriptionView,
} from '#shared/domain/subscriptions/subscription';
import type { Tenant } from '#shared/domain/tenant';
import { AppError, ForbiddenError, NotFoundError, ValidationError } from '#shared/errors';
import { parseInput } from '#shared/validation';
import { FakeClock } from '../support/fakes/clock';
import { FakeCustomerRepository } from '../support/fakes/customer-repository';
import { FakeGatewayRouter } from '../support/fakes/gateway-router';
import { SequentialIds } from '../support/fakes/ids';
import { RecordingMailer } from '../support/fakes/mail';
import { FakePaymentMethodRepository } from '../support/fakes/payment-method-repository';
import { FakePaymentProvider } from '../support/fakes/payment-provider';
import { FakePortalConfigRepository } from '../support/fakes/portal-config-repository';
import { FakeProductRepository } from '../support/fakes/product-repository';
import { FakeRateLimitRepository } from '../support/fakes/rate-limit-repository';
import { FakeReporter } from '../support/fakes/reporter';
import { FakeScheduler } from '../support/fakes/scheduler';
import { FakeSubscriptionRepository } from '../support/fakes/subscription-repository';
import { FakeTeamRepository } from '../support/fakes/team-repository';
import { FakeTransactionRepository } from '../support/fakes/transaction-repository';
import { fakeAtomically } from '../support/fakes/unit-of-work';
import { customerProfile, product as productFixture, SELLER } from '../support/fixtures';

const OTHER_SELLER: Tenant = { sellerId: 8, environment: 'test' };
const NOW = '2026-03-10T15:00:00.000Z';
const PERIOD_START = '2026-03-01T15:00:00.000Z';
const PERIOD_END = '2026-04-01T15:00:00.000Z';
const MARIA = { id: 41, uuid: '4b0d3c4e-8a51-4d4e-9a43-4c9a3f0b2a11' };
const JOAO = { id: 42, uuid: '9f1e2d3c-4b5a-4697-8877-665544332211' };
const PRODUCT_ID = 12;
const OTHER_PRODUCT_ID = 13;

const profile = (tenant: Tenant, who: { id: number; uuid: string }, name: string, email: string) =>
  customerProfile({ tenant, id: who.id, uuid: who.uuid, name, email, createdAt: NOW });

const product = (id: number, name: string) =>
  productFixture({
    id,
    uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    name,
    image: 'https://cdn.example/p.png',
    boleto: false,
    createdAt: NOW,
    updatedAt: NOW,
  });

function card(
  id: number,
  owner: { id: number; uuid: string },
  overrides: Partial<PaymentMethod> = {},
): PaymentMethod {
  return {
    id,
    uuid: `00000000-0000-4000-9000-${String(id).padStart(12, '0')}`,
    tenant: SELLER,
    customer: owner,
    type: 'card',
    brand: 'mastercard',
    last4: String(4000 + id).slice(-4),
    expiryMonth: 12,
    expiryYear: 2030,
    status: 'active',
    provider: 'fake',
    token: `tok_seed_${id}`,
    expiryNotices: [],
    nextExpiryStepAt: null,
    expiredAt: null,
    createdAt: NOW,
    updatedAt: NOW,
    version: 1,
    ...overrides,
  };
}

function subscription(overrides: Partial<Subscription> = {}): Subscription {
  return {
    id: 301,
    uuid: '00000000-0000-4000-a000-000000000301',
    tenant: SELLER,
    status: 'active',
    customer: { ...MARIA, name: 'Maria Souza', email: 'maria@example.com', document: '52998224725' },
    price: {
      id: 9,
      uuid: '00000000-0000-4000-b000-000000000009',
      name: 'Plano mensal',
      unitAmount: 4990,
      billingInterval: 'month',
      intervalCount: 1,
      trialDays: 0,
      product: { id: PRODUCT_ID, uuid: product(PRODUCT_ID, '').uuid, name: 'Clube do livro' },
    },
    collectionMethod: 'card',
    paymentMethod: { id: 71, cardLast4: '4071', cardBrand: 'mastercard' },
    pixAuthorizationId: null,
    billingAnchor: PERIOD_START,
    billingCycle: 1,
    currentPeriodStart: PERIOD_START,
    currentPeriodEnd: PERIOD_END,
    trialEndsAt: null,
    cancelAt: null,
    cancelledAt: null,
    cancelAtPeriodEnd: false,
    cancelReason: null,
    pausedAt: null,
    lastPaymentAt: PERIOD_START,
    nextPaymentAt: PERIOD_END,
    failedPaymentCount: 0,
    dueAt: PERIOD_END,
    pendingCharge: null,
    checkoutSessionId: null,
    metadata: {},
    createdAt: PERIOD_START,
    updatedAt: PERIOD_START,
    version: 1,
    ...overrides,
  };
}

const session = (overrides: Partial<PortalSession> = {}): PortalSession => ({
  id: 500,
  tokenHash: 'a'.repeat(64),
  tenant: SELLER,
  customer: MARIA,
  productId: null,
  returnUrl: 'https://loja.example.com/conta',
  expiresAt: '2026-03-10T16:00:00.000Z',
  createdAt: NOW,
  ...overrides,
});

let clock: FakeClock;
let subscriptions: FakeSubscriptionRepository;
let paymentMethods: FakePaymentMethodRepository;
let customers: FakeCustomerRepository;
let products: FakeProductRepository;
let portalConfigs: FakePortalConfigRepository;
let provider: FakePaymentProvider;
let mailer: RecordingMailer;
let reporter: FakeReporter;
let deps: PortalActionDeps & CardGuardDeps;
/** The portal's customer, as the card-testing guard sees the request. */
const BUYER = { ip: '203.0.113.20' };

beforeEach(async () => {
  clock = new FakeClock(NOW);
  const transactions = new FakeTransactionRepository(900);
  paymentMethods = new FakePaymentMethodRepository();
  subscriptions = new FakeSubscriptionRepository({ outbox: transactions.outbox });
  customers = new FakeCustomerRepository();
  products = new FakeProductRepository();
  portalConfigs = new FakePortalConfigRepository(products);
  provider = new FakePaymentProvider('fake');
  mailer = new RecordingMailer();
  reporter = new FakeReporter();
  products.seed(product(PRODUCT_ID, 'Clube do livro'));
  products.seed(product(OTHER_PRODUCT_ID, 'Curso de violão'));
  await customers.addProfile(profile(SELLER, MARIA, 'Maria Souza', 'maria@example.com'));
  await customers.addProfile(profile(SELLER, JOAO, 'João Lima', 'joao@example.com'));
  await paymentMethods.create(card(71, MARIA));
  await paymentMethods.create(card(72, MARIA));
  await paymentMethods.create(card(73, JOAO));
  await paymentMethods.create(card(74, MARIA, { status: 'expired', expiryYear: 2025 }));
  subscriptions.seed(subscription());
  subscriptions.seed(
    subscription({
      id: 302,
      customer: { ...JOAO, name: 'João Lima', email: 'joao@example.com', document: '11144477735' },
    }),
  );
  subscriptions.seed(subscription({ id: 303, tenant: OTHER_SELLER }));
  deps = {
    subscriptions,
    atomically: fakeAtomically,
    transactions,
    paymentMethods,
    payments: new FakeGatewayRouter({ test: provider, live: new FakePaymentProvider('live', false) }),
    scheduler: new FakeScheduler(),
    clock,
    ids: new SequentialIds(),
    customers,
    portalConfigs,
    team: new FakeTeamRepository(),
    mailer,
    pause: async () => undefined,
    reporter,
    rateLimits: new FakeRateLimitRepository(),
    cardKeys: { key: async () => new Uint8Array(32).fill(5) },
  };
});

/** The seller's portal configuration (replaced whole, as PUT /api/portal/configuration). */
const sellerConfig = (fields: PortalFields) => portalConfigs.replace(SELLER, undefined, fields, NOW);
const productConfig = (productId: number, fields: PortalFields) =>
  portalConfigs.replace(SELLER, productId, fields, NOW, product(productId, '').uuid);

const cancelBody = (raw: Record<string, unknown> = {}) => parseInput(portalCancelSchema, raw);
const cardBody = (raw: Record<string, unknown> = {}) =>
  parseInput(portalAddCardSchema, {
    cardNumber: '4111 1111 1111 1111',
    holderName: 'MARIA SOUZA',
    expiryMonth: 12,
    expiryYear: 2031,
    cvv: '123',
    ...raw,
  });

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  return promise.then(
    () => {
      throw new Error('expected the promise to reject');
    },
    (error: unknown) => {
      if (!(error instanceof AppError)) throw error;
      return error;
    },
  );
}

const stored = (id = 301, tenant = SELLER) => subscriptions.stored(tenant, id) as Subscription;

describe('portalConfigOf', () => {
  it("takes the session product's configuration, else the seller's, else the defaults", async () => {
    expect(await portalConfigOf(deps, session())).toEqual({ source: 'default', ...PORTAL_DEFAULTS });

    await sellerConfig({ businessName: 'Livraria Boa', allowViewInvoices: false });
    await productConfig(PRODUCT_ID, { primaryColor: '#112233' });

    expect(await portalConfigOf(deps, session())).toMatchObject({
      source: 'seller',
      businessName: 'Livraria Boa',
      allowViewInvoices: false,
    });
    // The product's configuration replaces the seller's whole: fields it leaves out take the defaults.
    expect(await portalConfigOf(deps, session({ productId: PRODUCT_ID }))).toMatchObject({
      source: 'product',
      primaryColor: '#112233',
      businessName: null,
      allowViewInvoices: true,
    });
    expect(await portalConfigOf(deps, session({ productId: OTHER_PRODUCT_ID }))).toMatchObject({
      source: 'seller',
      businessName: 'Livraria Boa',
    });
  });
});

describe('subscriptionConfigOf', () => {
  it("takes the subscription's own product's configuration, else the seller's, else the defaults", async () => {
    expect(await subscriptionConfigOf(deps, stored())).toEqual({ source: 'default', ...PORTAL_DEFAULTS });

    await sellerConfig({ businessName: 'Livraria Boa', allowCancelSubscription: false });
    expect(await subscriptionConfigOf(deps, stored())).toMatchObject({
      source: 'seller',
      allowCancelSubscription: false,
    });

    await productConfig(PRODUCT_ID, { allowCancelSubscription: true, requireCancelReason: true });
    await productConfig(OTHER_PRODUCT_ID, { allowCancelSubscription: false });
    expect(await subscriptionConfigOf(deps, stored())).toMatchObject({
      source: 'product',
      allowCancelSubscription: true,
      requireCancelReason: true,
    });
  });
});

describe('getPortal', () => {
  it("draws each subscription's actions and cancel rules by its own product's configuration", async () => {
    subscriptions.seed(
      subscription({
        id: 305,
        price: {
          ...subscription().price,
          product: {
            id: OTHER_PRODUCT_ID,
            uuid: product(OTHER_PRODUCT_ID, '').uuid,
            name: 'Curso de violão',
          },
        },
      }),
    );
    await productConfig(PRODUCT_ID, {
      allowCancelSubscription: false,
      allowUpdatePaymentMethod: false,
      allowViewInvoices: false,
    });
    await productConfig(OTHER_PRODUCT_ID, { cancelAtPeriodEndOnly: true, requireCancelReason: true });

    const portal = await getPortal(deps, session({ productId: OTHER_PRODUCT_ID }));

    expect(portal.configuration).toMatchObject({ source: 'product', allowCancelSubscription: true });
    const byId = new Map(portal.subscriptions.map((x) => [x.id, x]));
    expect(byId.get(301)).toMatchObject({
      actions: {
        cancel: false,
        pause: false,
        resume: false,
        reactivate: false,
        updatePaymentMethod: false,
        viewInvoices: false,
      },
      cancelRules: { atPeriodEndOnly: false, reasonRequired: false },
    });
    expect(byId.get(305)).toMatchObject({
      actions: { cancel: true, pause: true, updatePaymentMethod: true, viewInvoices: true },
      cancelRules: { atPeriodEndOnly: true, reasonRequired: true },
    });
  });

  it("answers the customer, the configuration, the customer's subscriptions with their actions and active cards", async () => {
    subscriptions.seed(
      subscription({ id: 304, status: 'canceled', dueAt: null, cancelledAt: NOW, cancelAt: NOW }),
    );
    await sellerConfig({ businessName: 'Livraria Boa' });

    const portal = await getPortal(deps, session());

    expect(portal).toEqual({
      sessionId: 500,
      expiresAt: '2026-03-10T16:00:00.000Z',
      returnUrl: 'https://loja.example.com/conta',
      customer: {
        id: 41,
        uuid: MARIA.uuid,
        name: 'Maria Souza',
        email: 'maria@example.com',
        phone: '11987654321',
        document: '52998224725',
      },
      configuration: { source: 'seller', ...PORTAL_DEFAULTS, businessName: 'Livraria Boa' },
      subscriptions: [
        {
          ...toSubscriptionView(stored(304)),
          actions: {
            cancel: false,
            pause: false,
            resume: false,
            reactivate: true,
            updatePaymentMethod: true,
            viewInvoices: true,
          },
          cancelRules: { atPeriodEndOnly: false, reasonRequired: false },
        },
        {
          ...toSubscriptionView(stored(301)),
          actions: {
            cancel: true,
            pause: true,
            resume: false,
            reactivate: false,
            updatePaymentMethod: true,
            viewInvoices: true,
          },
          cancelRules: { atPeriodEndOnly: false, reasonRequired: false },
        },
      ],
      paymentMethods: [expect.objectContaining({ id: 72 }), expect.objectContaining({ id: 71 })],
    });
    expect(JSON.stringify(portal)).not.toContain('tok_');
  });

  it('answers 404 Customer not found when the profile is gone', async () => {
    const error = await rejection(getPortal(deps, session({ customer: { id: 49, uuid: MARIA.uuid } })));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error.message).toBe('Customer not found');
  });
});

describe('actionsOf', () => {
  const config = { source: 'default' as const, ...PORTAL_DEFAULTS };
  const view = (status: SubscriptionStatus, paused = false) => ({
    status,
    pauseCollection: paused ? { behavior: 'void' as const, pausedAt: NOW } : null,
  });

  it.each([
    ['active', false, { cancel: true, pause: true, resume: false, reactivate: false }],
    ['active', true, { cancel: true, pause: false, resume: true, reactivate: false }],
    ['pending', false, { cancel: true, pause: false, resume: false, reactivate: false }],
    ['pending_cancellation', false, { cancel: true, pause: false, resume: false, reactivate: true }],
    ['pending_cancellation', true, { cancel: true, pause: false, resume: true, reactivate: true }],
    ['canceled', false, { cancel: false, pause: false, resume: false, reactivate: true }],
    ['failed', false, { cancel: false, pause: false, resume: false, reactivate: true }],
  ] as const)('offers what a %s subscription (paused: %s) allows', (status, paused, expected) => {
    expect(actionsOf(view(status, paused), config)).toEqual({
      ...expected,
      updatePaymentMethod: true,
      viewInvoices: true,
    });
  });

  it('offers no state action without allowCancelSubscription, no card change without allowUpdatePaymentMethod, no history without allowViewInvoices', () => {
    const off = {
      ...config,
      allowCancelSubscription: false,
      allowUpdatePaymentMethod: false,
      allowViewInvoices: false,
    };
    for (const status of ['active', 'pending_cancellation', 'canceled'] as const)
      expect(Object.values(actionsOf(view(status, true), off))).toEqual([
        false,
        false,
        false,
        false,
        false,
        false,
      ]);
  });

  it('offers cancel only on an active subscription when every cancel is one at period end', () => {
    const periodEndOnly = { ...config, cancelAtPeriodEndOnly: true };
    expect(actionsOf(view('active'), periodEndOnly).cancel).toBe(true);
    expect(actionsOf(view('pending'), periodEndOnly).cancel).toBe(false);
    expect(actionsOf(view('pending_cancellation'), periodEndOnly).cancel).toBe(false);
  });
});

describe('portalCancel', () => {
  it('cancels now by default, answers the subscription with its actions and e-mails the customer', async () => {
    await sellerConfig({
      businessName: 'Livraria Boa',
      customCancellationMessage: 'Volte quando quiser!\nAbraços',
    });

    const answer = await portalCancel(deps, session(), 301, cancelBody({ reason: 'Muito caro' }));

    expect(answer).toMatchObject({
      id: 301,
      status: 'canceled',
      cancelledAt: NOW,
      cancelReason: 'Muito caro',
    });
    expect(answer.actions).toEqual({
      cancel: false,
      pause: false,
      resume: false,
      reactivate: true,
      updatePaymentMethod: true,
      viewInvoices: true,
    });
    expect(stored().status).toBe('canceled');
    expect(await subscriptions.history(SELLER, 301)).toEqual([
      expect.objectContaining({
        eventType: 'subscription.canceled',
        eventData: { atPeriodEnd: false, reason: 'Muito caro', by: 'customer' },
      }),
    ]);
    expect(mailer.sent).toHaveLength(1);
    const mail = mailer.sent[0];
    expect(mail).toMatchObject({
      to: 'maria@example.com',
      tenant: SELLER,
      kind: 'subscription_cancellation',
    });
    expect(mail.subject).toBe('[TESTE] Assinatura cancelada: Clube do livro');
    expect(mail.text).toContain('Olá, Maria Souza!');
    expect(mail.text).toContain(
      'Confirmamos o cancelamento de sua assinatura de Clube do livro (Plano mensal)',
    );
    expect(mail.text).toContain('Volte quando quiser!\nAbraços');
    expect(mail.text).toContain('fale com Livraria Boa');
    expect(mail.html).toContain('Volte quando quiser!<br>Abraços');
  });

  it('cancels at the period end when the body asks, and the e-mail says until when', async () => {
    const answer = await portalCancel(deps, session(), 301, cancelBody({ atPeriodEnd: true }));

    expect(answer).toMatchObject({
      status: 'pending_cancellation',
      cancelAt: PERIOD_END,
      cancelAtPeriodEnd: true,
    });
    expect(mailer.sent[0].subject).toBe('[TESTE] Cancelamento agendado: Clube do livro');
    expect(mailer.sent[0].text).toContain('Ela continua ativa até 01/04/2026 às 12:00 (horário de Brasília)');
  });

  it('makes every cancel one at period end with cancelAtPeriodEndOnly, whatever the body says', async () => {
    await sellerConfig({ cancelAtPeriodEndOnly: true });

    const answer = await portalCancel(deps, session(), 301, cancelBody({ atPeriodEnd: false }));

    expect(answer).toMatchObject({ status: 'pending_cancellation', cancelAt: PERIOD_END });
  });

  it('requires a reason with requireCancelReason: 400 naming reason, nothing changed', async () => {
    await sellerConfig({ requireCancelReason: true });

    const error = await rejection(portalCancel(deps, session(), 301, cancelBody()));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.messages).toEqual(['reason is required']);
    expect(stored().version).toBe(1);
    expect(mailer.sent).toEqual([]);

    await expect(
      portalCancel(deps, session(), 301, cancelBody({ reason: 'Mudei de ideia' })),
    ).resolves.toMatchObject({
      cancelReason: 'Mudei de ideia',
    });
  });

  it('sends no e-mail when sendCancellationEmail is off', async () => {
    await sellerConfig({ sendCancellationEmail: false });

    await portalCancel(deps, session(), 301, cancelBody());

    expect(stored().status).toBe('canceled');
    expect(mailer.sent).toEqual([]);
  });

  it('cancels even when the e-mail cannot be sent, and reports the failure', async () => {
    mailer.failNext = 1;

    await expect(portalCancel(deps, session(), 301, cancelBody())).resolves.toMatchObject({
      status: 'canceled',
    });
    expect(reporter.reports).toEqual([
      {
        what: 'could not send a portal e-mail',
        error: expect.any(Error),
        context: { kind: 'subscription_cancellation' },
      },
    ]);
  });

  it('answers 403 Insufficient permissions without allowCancelSubscription, and cancels nothing', async () => {
    await sellerConfig({ allowCancelSubscription: false });

    const error = await rejection(portalCancel(deps, session(), 301, cancelBody()));
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error.message).toBe('Insufficient permissions');
    expect(stored().status).toBe('active');
  });

  it("uses the subscription's product's configuration over the seller's, whatever product the session names", async () => {
    await sellerConfig({ allowCancelSubscription: false });
    await productConfig(PRODUCT_ID, { allowCancelSubscription: true });

    await expect(portalCancel(deps, session(), 301, cancelBody())).resolves.toMatchObject({
      status: 'canceled',
    });
  });

  it("refuses what the subscription's product forbids with a session made for a product that allows it", async () => {
    await productConfig(PRODUCT_ID, { allowCancelSubscription: false, requireCancelReason: true });
    await productConfig(OTHER_PRODUCT_ID, { allowCancelSubscription: true });
    const other = session({ productId: OTHER_PRODUCT_ID });

    for (const action of [
      () => portalCancel(deps, other, 301, cancelBody()),
      () => portalPause(deps, other, 301),
      () => portalResume(deps, other, 301),
      () => portalReactivate(deps, other, 301),
    ]) {
      const error = await rejection(action());
      expect(error).toBeInstanceOf(ForbiddenError);
      expect(error.message).toBe('Insufficient permissions');
    }
    expect(stored()).toMatchObject({ status: 'active', pausedAt: null, version: 1 });
  });

  it("answers 404 Subscription not found for another customer's or another seller's subscription", async () => {
    for (const id of [302, 303, 999]) {
      const error = await rejection(portalCancel(deps, session(), id, cancelBody()));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.message).toBe('Subscription not found');
    }
    expect(stored(302).status).toBe('active');
    expect(stored(303, OTHER_SELLER).status).toBe('active');
    expect(mailer.sent).toEqual([]);
  });
});

describe('portalPause, portalResume and portalReactivate', () => {
  it('pause, resume and undo a scheduled cancellation for the customer', async () => {
    expect((await portalPause(deps, session(), 301)).pauseCollection).toEqual({
      behavior: 'void',
      pausedAt: NOW,
    });
    const resumed = await portalResume(deps, session(), 301);
    expect(resumed.pauseCollection).toBeNull();
    expect(resumed.actions.pause).toBe(true);

    await portalCancel(deps, session(), 301, cancelBody({ atPeriodEnd: true }));
    const reactivated = await portalReactivate(deps, session(), 301);
    expect(reactivated).toMatchObject({ status: 'active', cancelAt: null, cancelAtPeriodEnd: false });
    const history = await subscriptions.history(SELLER, 301);
    expect(history.map((h) => [h.eventType, h.eventData.by])).toEqual([
      ['subscription.activated', 'customer'],
      ['subscription.canceled', 'customer'],
      ['subscription.resumed', 'customer'],
      ['subscription.paused', 'customer'],
    ]);
  });

  it('all follow allowCancelSubscription: 403 when it is off', async () => {
    await sellerConfig({ allowCancelSubscription: false });
    subscriptions.seed(subscription({ id: 305, pausedAt: NOW }));
    subscriptions.seed(subscription({ id: 306, status: 'pending_cancellation', cancelAt: PERIOD_END }));

    for (const attempt of [
      portalPause(deps, session(), 301),
      portalResume(deps, session(), 305),
      portalReactivate(deps, session(), 306),
    ]) {
      expect(await rejection(attempt)).toBeInstanceOf(ForbiddenError);
    }
    expect([stored(301).version, stored(305).version, stored(306).version]).toEqual([1, 1, 1]);
  });

  it("answers 404 for another customer's subscription and 409 for a refused state", async () => {
    expect((await rejection(portalPause(deps, session(), 302))).message).toBe('Subscription not found');
    const refused = await rejection(portalResume(deps, session(), 301));
    expect(refused.statusCode).toBe(409);
    expect(refused.message).toBe('Subscription cannot be resumed: it is not paused');
  });
});

describe('portalUpdatePaymentMethod', () => {
  it("switches to another of the customer's cards and e-mails the customer", async () => {
    await sellerConfig({ businessName: 'Livraria Boa' });

    const answer = await portalUpdatePaymentMethod(deps, session(), 301, { paymentMethodId: 72 });

    expect(answer.paymentMethod).toEqual({ id: 72, cardLast4: '4072', cardBrand: 'mastercard' });
    expect(stored().paymentMethod?.id).toBe(72);
    expect(mailer.sent).toHaveLength(1);
    expect(mailer.sent[0]).toMatchObject({
      to: 'maria@example.com',
      kind: 'payment_method_updated',
      subject: '[TESTE] Forma de pagamento atualizada: Clube do livro',
    });
    expect(mailer.sent[0].text).toContain('foi atualizada para: Cartão de crédito Mastercard final 4072.');
  });

  it("answers 404 Payment method not found for another customer's card, or an unknown one", async () => {
    for (const paymentMethodId of [73, 999]) {
      const error = await rejection(portalUpdatePaymentMethod(deps, session(), 301, { paymentMethodId }));
      expect(error).toBeInstanceOf(NotFoundError);
      expect(error.message).toBe('Payment method not found');
    }
    expect(stored().paymentMethod?.id).toBe(71);
    expect(mailer.sent).toEqual([]);
  });

  it('answers 403 without allowUpdatePaymentMethod; no e-mail without sendPaymentMethodUpdatedEmail', async () => {
    await sellerConfig({ allowUpdatePaymentMethod: false });
    expect(
      await rejection(portalUpdatePaymentMethod(deps, session(), 301, { paymentMethodId: 72 })),
    ).toBeInstanceOf(ForbiddenError);
    expect(stored().paymentMethod?.id).toBe(71);

    await sellerConfig({ sendPaymentMethodUpdatedEmail: false });
    await portalUpdatePaymentMethod(deps, session(), 301, { paymentMethodId: 72 });
    expect(stored().paymentMethod?.id).toBe(72);
    expect(mailer.sent).toEqual([]);
  });
});

describe('portalAddCardAndUpdate', () => {
  it("tokenizes the card, keeps it as the customer's saved card and switches the subscription to it", async () => {
    const answer = await portalAddCardAndUpdate(deps, session(), 301, cardBody(), BUYER);

    expect(provider.tokenizeRequests).toEqual([
      {
        tenant: SELLER,
        // The card holder's phone from the profile (Asaas's creditCardHolderInfo); no address known.
        customer: {
          name: 'Maria Souza',
          document: '52998224725',
          email: 'maria@example.com',
          phone: '11987654321',
        },
        card: {
          number: '4111111111111111',
          holderName: 'MARIA SOUZA',
          expiryMonth: 12,
          expiryYear: 2031,
          cvv: '123',
        },
      },
    ]);
    const saved = (await paymentMethods.listByCustomer(SELLER, MARIA.uuid)).find((m) => m.last4 === '1111');
    expect(saved).toMatchObject({
      customer: MARIA,
      brand: 'visa',
      expiryMonth: 12,
      expiryYear: 2031,
      status: 'active',
    });
    expect(answer.paymentMethod).toEqual({ id: saved?.id, cardLast4: '1111', cardBrand: 'visa' });
    expect(stored().paymentMethod?.id).toBe(saved?.id);
    expect(mailer.sent[0].text).toContain('Cartão de crédito Visa final 1111');
    expect(JSON.stringify([answer, mailer.sent, [...paymentMethods.items.values()]])).not.toContain(
      '4111111111111111',
    );
  });

  it('answers 400 "recusado" without the issuer’s reason; nothing is saved or changed', async () => {
    const error = await rejection(
      portalAddCardAndUpdate(deps, session(), 301, cardBody({ cardNumber: '4000000000009995' }), BUYER),
    );

    expect(error.statusCode).toBe(400);
    expect(error.code).toBe('card_declined');
    expect(error.message).toBe('Cartão recusado. Tente outro cartão ou outra forma de pagamento.');
    expect((await paymentMethods.listByCustomer(SELLER, MARIA.uuid)).map((m) => m.id).sort()).toEqual([
      71, 72, 74,
    ]);
    expect(stored().version).toBe(1);
    expect(mailer.sent).toEqual([]);
  });

  it("schedules the new card's first expiry step once it is saved", async () => {
    const answer = await portalAddCardAndUpdate(deps, session(), 301, cardBody(), BUYER);

    const id = answer.paymentMethod?.id;
    expect((deps.scheduler as FakeScheduler).scheduled).toEqual([
      expect.objectContaining({
        payload: { job: 'payment-method-expiry', id: `${SELLER.sellerId}:test:${id}` },
      }),
    ]);
  });

  it('answers the card the customer already has saved, forgets the second token and saves nothing new', async () => {
    const first = await portalAddCardAndUpdate(deps, session(), 301, cardBody(), BUYER);
    await portalUpdatePaymentMethod(deps, session(), 301, { paymentMethodId: 71 });
    const before = (await paymentMethods.listByCustomer(SELLER, MARIA.uuid)).length;

    const again = await portalAddCardAndUpdate(deps, session(), 301, cardBody(), BUYER);

    expect(again.paymentMethod).toEqual(first.paymentMethod);
    expect(stored().paymentMethod?.id).toBe(first.paymentMethod?.id);
    expect((await paymentMethods.listByCustomer(SELLER, MARIA.uuid)).length).toBe(before);
    expect(provider.detached).toEqual(['tok_fake_t2']);
  });

  it('saves no card when the subscription changed at the same time (409)', async () => {
    subscriptions.beforeSave = () => {
      subscriptions.items.set(`${SELLER.sellerId}#test#301`, { ...stored(), version: stored().version + 1 });
      subscriptions.beforeSave = null;
    };

    const error = await rejection(portalAddCardAndUpdate(deps, session(), 301, cardBody(), BUYER));

    expect(error).toMatchObject({ statusCode: 409, reason: 'changed' });
    expect((await paymentMethods.listByCustomer(SELLER, MARIA.uuid)).map((m) => m.id).sort()).toEqual([
      71, 72, 74,
    ]);
    expect((deps.scheduler as FakeScheduler).scheduled).toEqual([]);
  });

  it('refuses a number that fails the Luhn check before the provider sees it', async () => {
    const error = await rejection(
      portalAddCardAndUpdate(deps, session(), 301, cardBody({ cardNumber: '4111111111111112' }), BUYER),
    );
    expect(error.messages).toEqual(['cardNumber is not a valid card number']);
    expect(provider.tokenizeRequests).toEqual([]);
  });

  it("answers 404 for another customer's subscription without sending the card to the provider", async () => {
    expect((await rejection(portalAddCardAndUpdate(deps, session(), 302, cardBody(), BUYER))).message).toBe(
      'Subscription not found',
    );
    expect(provider.tokenizeRequests).toEqual([]);
  });

  it('answers 403 without allowUpdatePaymentMethod before reading the card', async () => {
    await sellerConfig({ allowUpdatePaymentMethod: false });
    expect(await rejection(portalAddCardAndUpdate(deps, session(), 301, cardBody(), BUYER))).toBeInstanceOf(
      ForbiddenError,
    );
    expect(provider.tokenizeRequests).toEqual([]);
  });
});

describe('portalEvents', () => {
  it("answers the subscription's history, newest first", async () => {
    await portalPause(deps, session(), 301);
    await portalResume(deps, session(), 301);

    const events = await portalEvents(deps, session(), 301);

    expect(events.map((e) => e.eventType)).toEqual(['subscription.resumed', 'subscription.paused']);
  });

  it("answers 403 without allowViewInvoices and 404 for another customer's subscription", async () => {
    expect((await rejection(portalEvents(deps, session(), 302))).message).toBe('Subscription not found');
    await sellerConfig({ allowViewInvoices: false });
    expect(await rejection(portalEvents(deps, session(), 301))).toBeInstanceOf(ForbiddenError);
  });
});

describe('portalUpdateCustomerInfo', () => {
  const info = (raw: Record<string, unknown>) => parseInput(portalCustomerInfoSchema, raw);

  it("changes the seller's profile of the customer and answers the portal's customer", async () => {
    const answer = await portalUpdateCustomerInfo(
      deps,
      session(),
      info({ name: 'Maria S. Lima', email: 'maria.lima@example.com', phone: '(21) 99876-5432' }),
    );

    expect(answer).toEqual({
      id: 41,
      uuid: MARIA.uuid,
      name: 'Maria S. Lima',
      email: 'maria.lima@example.com',
      phone: '21998765432',
      document: '52998224725',
    });
    expect(customers.profile(SELLER, MARIA.uuid)).toMatchObject({
      name: 'Maria S. Lima',
      phone: '21998765432',
    });
  });

  it('validates as PATCH /api/v1/customers and needs at least one field', () => {
    expect(() => info({})).toThrow(ValidationError);
    try {
      info({ email: 'nope', phone: '123', document: '1' });
    } catch (error) {
      expect((error as ValidationError).messages).toEqual(
        expect.arrayContaining([
          'email must be a valid e-mail',
          'phone must have 10 or 11 digits',
          'document is not allowed',
        ]),
      );
    }
  });

  it('answers 403 without allowUpdateBillingInfo and changes nothing', async () => {
    await sellerConfig({ allowUpdateBillingInfo: false });
    expect(
      await rejection(portalUpdateCustomerInfo(deps, session(), info({ name: 'Outra' }))),
    ).toBeInstanceOf(ForbiddenError);
    expect(customers.profile(SELLER, MARIA.uuid)?.name).toBe('Maria Souza');
  });
});
