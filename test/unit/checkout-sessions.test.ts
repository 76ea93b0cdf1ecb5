import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  type CheckoutView,
  checkoutPayment,
  checkoutView,
  PAYMENT_NOT_FOUND,
  payCheckout,
} from '#shared/domain/checkout/public';
import { createSessionSchema, listSessionsSchema, redirectUrlProblem } from '#shared/domain/checkout/schemas';
import {
  type CheckoutSession,
  SESSION_CANNOT_BE_EXPIRED,
  SESSION_EXPIRY_JOB,
} from '#shared/domain/checkout/session';
import {
  completeWithTransaction,
  createSession,
  expireSession,
  expireSessionJob,
  getSession,
  listSessions,
  SESSION_SWEEP_HOURS,
  sweepSessionExpiries,
} from '#shared/domain/checkout/sessions';
import { cpfCheckDigits } from '#shared/domain/documents';
import type { Product } from '#shared/domain/products/products';
import type { Tenant } from '#shared/domain/tenant';
import type { Transaction } from '#shared/domain/transactions/transaction';
import { transition } from '#shared/domain/transactions/transitions';
import { ConflictError, NotFoundError, ValidationError } from '#shared/errors';
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
import { FAKE_GATEWAY_ID_BASE, FakePaymentProvider } from '../support/fakes/payment-provider';
import { FakePriceRepository } from '../support/fakes/price-repository';
import { FakeProductRepository } from '../support/fakes/product-repository';
import { FakeReporter } from '../support/fakes/reporter';
import { FakeScheduler } from '../support/fakes/scheduler';
import { FakeSubscriptionRepository } from '../support/fakes/subscription-repository';
import { FakeTeamRepository } from '../support/fakes/team-repository';
import { FakeTransactionRepository } from '../support/fakes/transaction-repository';
import { fakeAtomically } from '../support/fakes/unit-of-work';
import { PRODUCT_UUID, product as productFixture, SELLER } from '../support/fixtures';

const NOW = '2026-03-10T15:00:00.000Z';
const HOUR = 3_600_000;
const at = (ms: number) => new Date(Date.parse(NOW) + ms).toISOString();
const IN_24_HOURS = at(24 * HOUR);
const OTHER_SELLER: Tenant = { sellerId: 8, environment: 'test' };
const LIVE_SELLER: Tenant = { sellerId: 7, environment: 'live' };
const BASE_URL = 'https://pay.example.com';
/** The first prefixed id SequentialIds hands out: the first session of a test. */
/** A session id carries its product's uuid after the random part (issue 17). */
const SESSION_ID = `cs_test_${'1'.padStart(24, '0')}${PRODUCT_UUID.replace(/-/g, '')}`;
const FIRST_TRANSACTION_ID = 1001;
const FIRST_GATEWAY_ID = FAKE_GATEWAY_ID_BASE + 1;
const PRICE = 4990;
const AFFILIATE_ID = 31;

const BUYER = {
  name: 'Maria Silva',
  email: 'maria@example.com',
  document: '529.982.247-25',
  phone: '(11) 98765-4321',
};
const APPROVED_CARD = {
  number: '4111 1111 1111 1111',
  holderName: 'MARIA SILVA',
  expiryMonth: 12,
  expiryYear: 2030,
  cvv: '123',
};
const DECLINED_CARD = { ...APPROVED_CARD, number: '4000000000009995' };

const product = (overrides: Partial<Product> = {}) =>
  productFixture({ value: PRICE, description: 'Do zero ao primeiro show', installments: 6, ...overrides });

let clock: FakeClock;
let products: FakeProductRepository;
let sessions: FakeCheckoutSessionRepository;
let transactions: FakeTransactionRepository;
let affiliations: FakeAffiliationRepository;
let sandbox: FakePaymentProvider;
let scheduler: FakeScheduler;
let reporter: FakeReporter;
let deps: ReturnType<typeof makeDeps>;

function makeDeps() {
  return {
    sessions,
    team: new FakeTeamRepository(),
    products,
    portalConfigs: new FakePortalConfigRepository(products),
    transactions,
    affiliations,
    customers: new FakeCustomerRepository(501),
    atomically: fakeAtomically,
    paymentMethods: new FakePaymentMethodRepository(),
    attempts: new FakeAttemptRepository(),
    prices: new FakePriceRepository(),
    subscriptions: new FakeSubscriptionRepository(),
    payments: new FakeGatewayRouter({ test: sandbox, live: new FakePaymentProvider('live') }),
    scheduler,
    clock,
    ids: new SequentialIds(),
    publicBaseUrl: BASE_URL,
    allowLocalHttp: false,
    reporter,
  };
}

beforeEach(() => {
  clock = new FakeClock(NOW);
  products = new FakeProductRepository();
  products.seed(product());
  sessions = new FakeCheckoutSessionRepository();
  transactions = new FakeTransactionRepository(FIRST_TRANSACTION_ID);
  affiliations = new FakeAffiliationRepository({ exists: async () => true });
  sandbox = new FakePaymentProvider('sandbox');
  scheduler = new FakeScheduler();
  reporter = new FakeReporter();
  deps = makeDeps();
});

/** The request body as the route parses it. */
const body = (raw: Record<string, unknown> = {}) =>
  parseInput(createSessionSchema, { product_id: 42, ...raw });

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the promise to reject');
    },
    (error: unknown) => error,
  );
}

async function messagesOf(promise: Promise<unknown>): Promise<string[]> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).messages as string[];
}

async function conflictOf(promise: Promise<unknown>): Promise<ConflictError> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(ConflictError);
  return error as ConflictError;
}

/** A session created through the use case; answers it as stored. */
async function openSession(raw: Record<string, unknown> = {}): Promise<CheckoutSession> {
  const view = await createSession(deps, SELLER, body(raw));
  return (await sessions.get(view.id)) as CheckoutSession;
}

const pay = (ref: string, method: 'pix' | 'boleto' | 'card', card = APPROVED_CARD) =>
  payCheckout(deps, ref, {
    paymentMethod: method,
    customer: { ...BUYER },
    ...(method === 'card' ? { card } : {}),
  });

const storedTransaction = (id = FIRST_TRANSACTION_ID) => transactions.get(SELLER, id) as Promise<Transaction>;

/** Confirms a pending payment at the provider, as a paid notification does (no session work). */
async function markPaid(id = FIRST_TRANSACTION_ID): Promise<Transaction> {
  return (await transition(deps, await storedTransaction(id), 'pay')).transaction;
}

const sessionEvents = () => sessions.outbox.names();

describe('createSession', () => {
  it('answers the open session with every spec field, for 24 hours, by every method of the product', async () => {
    const view = await createSession(deps, SELLER, body());

    expect(view).toEqual({
      id: SESSION_ID,
      object: 'checkout.session',
      status: 'open',
      url: `${BASE_URL}/checkout/${SESSION_ID}`,
      product_id: 42,
      price_id: null,
      customer_email: null,
      customer_name: null,
      customer: {
        'customer.name': null,
        'customer.email': null,
        'customer.document': null,
        'customer.phone': null,
        'customer.zip_code': null,
        'customer.street': null,
        'customer.number': null,
        'customer.complement': null,
        'customer.neighborhood': null,
        'customer.city': null,
        'customer.state': null,
      },
      payment_methods: ['pix', 'boleto', 'card'],
      metadata: {},
      success_url: null,
      cancel_url: null,
      client_reference_id: null,
      affiliate_id: null,
      transaction_id: null,
      subscription_id: null,
      environment: 'test',
      expires_at: IN_24_HOURS,
      completed_at: null,
      created_at: NOW,
      updated_at: NOW,
    });
  });

  it('stores the session at version 1 in the tenant with no event, and its id names the environment', async () => {
    products.seed(product({ tenant: LIVE_SELLER }));

    const test = await createSession(deps, SELLER, body());
    const live = await createSession(deps, LIVE_SELLER, body());

    expect(test.id).toMatch(/^cs_test_\d{24}[0-9a-f]{32}$/);
    expect(live.id).toMatch(/^cs_live_\d{24}[0-9a-f]{32}$/);
    expect(await sessions.get(test.id)).toMatchObject({
      tenant: SELLER,
      status: 'open',
      productId: 42,
      productUuid: PRODUCT_UUID,
      payments: [],
      version: 1,
    });
    expect((await sessions.get(live.id))?.tenant).toEqual(LIVE_SELLER);
    expect(sessionEvents()).toEqual([]);
  });

  it("defaults the payment methods to the product's, in the page's order", async () => {
    products.seed(product({ pix: false }));

    const view = await createSession(deps, SELLER, body());

    expect(view.payment_methods).toEqual(['boleto', 'card']);
  });

  it('keeps the methods asked for, once each, in the order given', async () => {
    const view = await createSession(deps, SELLER, body({ payment_methods: ['card', 'pix', 'card'] }));

    expect(view.payment_methods).toEqual(['card', 'pix']);
  });

  it('keeps the prefill normalized, the metadata, the redirects and the client reference', async () => {
    const view = await createSession(
      deps,
      SELLER,
      body({
        customer: {
          'customer.name': ' Maria Silva ',
          'customer.email': 'maria@example.com',
          'customer.document': '529.982.247-25',
          'customer.phone': '(11) 98765-4321',
          'customer.zip_code': '01310-100',
          'customer.state': 'sp',
        },
        metadata: { order: 'A-1' },
        success_url: 'https://shop.example/ok?session={SESSION_ID}',
        cancel_url: 'https://shop.example/cart',
        client_reference_id: 'pedido-77',
      }),
    );

    expect(view).toMatchObject({
      customer_name: 'Maria Silva',
      customer_email: 'maria@example.com',
      metadata: { order: 'A-1' },
      success_url: 'https://shop.example/ok?session={SESSION_ID}',
      cancel_url: 'https://shop.example/cart',
      client_reference_id: 'pedido-77',
    });
    expect(view.customer).toMatchObject({
      'customer.document': '52998224725',
      'customer.phone': '11987654321',
      'customer.zip_code': '01310100',
      'customer.state': 'SP',
      'customer.city': null,
    });
  });

  describe('refusals (400 naming the field, nothing written)', () => {
    function expectNothingWritten() {
      expect(sessions.items.size).toBe(0);
      expect(scheduler.scheduled).toEqual([]);
    }

    it.each([
      ['a product nobody created', 99, 'product_id names no product of this account'],
      ["another seller's product", 43, 'product_id names no product of this account'],
      ["the other environment's product", 44, 'product_id names no product of this account'],
      ['a deactivated product', 45, 'product_id names a deactivated product'],
      ['a product priced 0', 46, 'product_id names a product with no price (0): it cannot be sold'],
    ])('refuses %s', async (_case, productId, message) => {
      products.seed(product({ id: 43, tenant: OTHER_SELLER }));
      products.seed(product({ id: 44, tenant: LIVE_SELLER }));
      products.seed(product({ id: 45, isActive: false }));
      products.seed(product({ id: 46, value: 0 }));

      expect(await messagesOf(createSession(deps, SELLER, body({ product_id: productId })))).toEqual([
        message,
      ]);
      expectNothingWritten();
    });

    it('refuses a price_id that names no subscription price', async () => {
      expect(await messagesOf(createSession(deps, SELLER, body({ price_id: 'price_1' })))).toEqual([
        'price_id names no active subscription price of this product',
      ]);
      expectNothingWritten();
    });

    it('refuses a method the product does not accept, naming it', async () => {
      products.seed(product({ boleto: false, creditCard: false }));

      expect(
        await messagesOf(createSession(deps, SELLER, body({ payment_methods: ['boleto', 'pix', 'card'] }))),
      ).toEqual(['payment_methods: this product does not accept boleto, card']);
      expectNothingWritten();
    });

    it('collects every refusal in one answer', async () => {
      const messages = await messagesOf(
        createSession(
          deps,
          SELLER,
          body({
            product_id: 99,
            price_id: 'price_1',
            success_url: 'http://shop.example/ok',
            cancel_url: 'ftp://shop.example/cancel',
            expires_at: at(10 * 60_000),
          }),
        ),
      );

      expect(messages).toEqual([
        'product_id names no product of this account',
        'price_id names no active subscription price of this product',
        'success_url must use HTTPS',
        'cancel_url must use HTTPS',
        'expires_at must be from 30 minutes to 7 days after now',
      ]);
      expectNothingWritten();
    });
  });

  describe('expires_at', () => {
    const WINDOW_MESSAGE = 'expires_at must be from 30 minutes to 7 days after now';

    it.each([
      ['30 minutes', at(30 * 60_000)],
      ['7 days', at(7 * 24 * HOUR)],
      ['2 hours, written in Sao Paulo time', '2026-03-10T14:00:00-03:00'],
    ])('accepts %s from now, stored as UTC', async (_case, expiresAt) => {
      const view = await createSession(deps, SELLER, body({ expires_at: expiresAt }));

      expect(view.expires_at).toBe(new Date(expiresAt).toISOString());
    });

    it.each([
      ['a millisecond under 30 minutes', at(30 * 60_000 - 1)],
      ['a millisecond over 7 days', at(7 * 24 * HOUR + 1)],
      ['now', NOW],
      ['an instant in the past', at(-HOUR)],
    ])('refuses %s', async (_case, expiresAt) => {
      expect(await messagesOf(createSession(deps, SELLER, body({ expires_at: expiresAt })))).toEqual([
        WINDOW_MESSAGE,
      ]);
    });

    it('counts the window from the clock, not from anything else', async () => {
      clock.set(at(HOUR));

      const view = await createSession(deps, SELLER, body());

      expect(view.expires_at).toBe(at(25 * HOUR));
      expect(view.created_at).toBe(at(HOUR));
    });
  });

  describe('redirect URLs', () => {
    it.each([
      'https://shop.example/ok',
      'https://shop.example:8443/ok?s={SESSION_ID}#done',
      'https://{SESSION_ID}.shop.example/',
    ])('accepts %s', async (url) => {
      const view = await createSession(deps, SELLER, body({ success_url: url, cancel_url: url }));

      expect([view.success_url, view.cancel_url]).toEqual([url, url]);
    });

    it.each([
      ['http://shop.example/ok', 'success_url must use HTTPS'],
      ['http://127.0.0.1:3000/ok', 'success_url must use HTTPS'],
      ['http://localhost/ok', 'success_url must use HTTPS'],
      ['https://user:secret@shop.example/ok', 'success_url must not contain credentials'],
      ['javascript:alert(1)', 'success_url must use HTTPS'],
    ])('refuses %s outside the local runtime', async (url, message) => {
      expect(await messagesOf(createSession(deps, SELLER, body({ success_url: url })))).toEqual([message]);
    });

    it.each(['http://127.0.0.1:3000/ok', 'http://localhost:4000/ok', 'http://[::1]:3000/ok'])(
      'accepts plain HTTP to this machine (%s) in the local runtime only',
      async (url) => {
        deps.allowLocalHttp = true;

        const view = await createSession(deps, SELLER, body({ success_url: url, cancel_url: url }));

        expect(view.success_url).toBe(url);
      },
    );

    it.each(['http://shop.example/ok', 'http://127.0.0.2/ok', 'http://user:pw@localhost/ok'])(
      'still refuses %s in the local runtime',
      async (url) => {
        deps.allowLocalHttp = true;

        expect(await messagesOf(createSession(deps, SELLER, body({ cancel_url: url })))).toHaveLength(1);
      },
    );
  });

  describe('affiliate_id', () => {
    const affiliation = (status: 'active' | 'ended') => ({
      tenant: SELLER,
      productId: 42,
      affiliateId: AFFILIATE_ID,
      commissionBasisPoints: 1_250,
      status,
      createdAt: NOW,
      updatedAt: NOW,
      endedAt: status === 'ended' ? NOW : null,
    });

    it('keeps an active affiliate of the product', async () => {
      affiliations.seed(affiliation('active'));

      const view = await createSession(deps, SELLER, body({ affiliate_id: AFFILIATE_ID }));

      expect(view.affiliate_id).toBe(AFFILIATE_ID);
    });

    it.each([
      ['ended', () => affiliations.seed(affiliation('ended'))],
      ['never affiliated', () => undefined],
      ['affiliated to another product', () => affiliations.seed({ ...affiliation('active'), productId: 43 })],
    ])('refuses an affiliate %s, writing nothing', async (_case, arrange) => {
      arrange();

      expect(await messagesOf(createSession(deps, SELLER, body({ affiliate_id: AFFILIATE_ID })))).toEqual([
        'affiliate_id must be an active affiliate of the product',
      ]);
      expect(sessions.items.size).toBe(0);
      expect(scheduler.scheduled).toEqual([]);
    });
  });

  describe('the expiry schedule', () => {
    it('schedules the expiry job at expires_at, named after the session', async () => {
      const view = await createSession(deps, SELLER, body({ expires_at: at(2 * HOUR) }));

      expect(scheduler.scheduled).toEqual([
        {
          name: `cs-expiry-${view.id}`,
          at: new Date(at(2 * HOUR)),
          payload: { job: SESSION_EXPIRY_JOB, id: view.id },
        },
      ]);
      expect(SESSION_EXPIRY_JOB).toBe('checkout-session-expiry');
      expect(reporter.reports).toEqual([]);
    });

    it('still creates the session when the schedule fails, reporting the error (the sweep covers it)', async () => {
      const outage = new Error('scheduler throttled');
      scheduler.failWith = outage;

      const view = await createSession(deps, SELLER, body());

      expect(view.status).toBe('open');
      expect(await sessions.get(view.id)).not.toBeNull();
      expect(reporter.errors).toEqual([outage]);
      expect(await sessions.dueExpiries(new Date(IN_24_HOURS), SESSION_SWEEP_HOURS)).toEqual([view.id]);
    });
  });
});

describe('getSession and listSessions', () => {
  const listQuery = (raw: Record<string, unknown> = {}) => parseInput(listSessionsSchema, raw);

  it("answers another seller's or environment's session exactly like a missing one", async () => {
    const s = await openSession();

    expect((await getSession(deps, SELLER, s.id)).data.id).toBe(s.id);
    for (const tenant of [OTHER_SELLER, LIVE_SELLER]) {
      const error = await rejection(getSession(deps, tenant, s.id));
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as NotFoundError).message).toBe('Checkout session not found');
    }
    const missing = await rejection(getSession(deps, SELLER, 'cs_test_nothing'));
    expect((missing as NotFoundError).message).toBe('Checkout session not found');
  });

  it('lists with the totals of the spec and the e-mail in lower case', async () => {
    for (let i = 0; i < 3; i++) {
      await openSession({ customer: { 'customer.email': 'Maria@Example.com' } });
      clock.advanceSeconds(60);
    }
    await openSession();

    const page = await listSessions(
      deps,
      SELLER,
      listQuery({ customer_email: 'MARIA@example.COM', limit: '2' }),
    );

    expect(page).toMatchObject({ count: 2, totalCount: 3, totalPages: 2 });
    expect(page.data.map((s) => s.created_at)).toEqual([at(120_000), at(60_000)]);
  });

  it('refuses a created_from after created_to', async () => {
    expect(
      await messagesOf(listSessions(deps, SELLER, listQuery({ created_from: at(HOUR), created_to: NOW }))),
    ).toEqual(['created_from must not be after created_to']);
  });

  it('takes the created bounds as instants: a range whose text sorts the other way is valid', async () => {
    // 15:00Z to 12:30-03:00 (15:30Z): the text of the first sorts after the second's.
    await openSession();

    const page = await listSessions(
      deps,
      SELLER,
      listQuery({ created_from: '2026-03-10T15:00:00Z', created_to: '2026-03-10T12:30:00-03:00' }),
    );

    expect(page.data.map((s) => s.id)).toEqual([SESSION_ID]);
  });

  it('refuses a created_from after created_to when only the instants show it', async () => {
    // 12:30-03:00 is 15:30Z, after 15:00Z, although its text sorts first.
    expect(
      await messagesOf(
        listSessions(
          deps,
          SELLER,
          listQuery({ created_from: '2026-03-10T12:30:00-03:00', created_to: '2026-03-10T15:00:00Z' }),
        ),
      ),
    ).toEqual(['created_from must not be after created_to']);
  });
});

describe('expireSession (by call)', () => {
  it('expires an open session with checkout.session.expired carrying the spec fields', async () => {
    const s = await openSession({ metadata: { order: 'A-1' }, client_reference_id: 'pedido-77' });
    clock.set(at(HOUR));

    const { data } = await expireSession(deps, SELLER, s.id);

    expect(data).toMatchObject({
      id: s.id,
      status: 'expired',
      updated_at: at(HOUR),
      expires_at: IN_24_HOURS,
    });
    expect(await sessions.get(s.id)).toMatchObject({ status: 'expired', expiredAt: at(HOUR), version: 2 });
    const [expired] = sessions.outbox.events;
    expect(sessionEvents()).toEqual(['checkout.session.expired']);
    expect(expired.tenant).toEqual(SELLER);
    expect(expired.envelope.data).toEqual({
      id: s.id,
      status: 'expired',
      product_id: 42,
      metadata: { order: 'A-1' },
      client_reference_id: 'pedido-77',
      expires_at: IN_24_HOURS,
    });
  });

  it('answers 409 for a session that is not open, and emits nothing more', async () => {
    const s = await openSession();
    await expireSession(deps, SELLER, s.id);

    const again = await conflictOf(expireSession(deps, SELLER, s.id));

    expect([again.statusCode, again.message, again.code]).toEqual([
      409,
      SESSION_CANNOT_BE_EXPIRED,
      'session_not_open',
    ]);
    expect(sessionEvents()).toEqual(['checkout.session.expired']);
  });

  it('answers 409 for a complete session', async () => {
    const s = await openSession();
    await pay(s.id, 'card');

    const error = await conflictOf(expireSession(deps, SELLER, s.id));

    expect(error.message).toBe(SESSION_CANNOT_BE_EXPIRED);
    expect((await sessions.get(s.id))?.status).toBe('complete');
  });

  it("answers another seller's session as not found, leaving it open", async () => {
    const s = await openSession();

    expect(await rejection(expireSession(deps, OTHER_SELLER, s.id))).toBeInstanceOf(NotFoundError);
    expect((await sessions.get(s.id))?.status).toBe('open');
  });

  it('makes its pending pix and boleto unpayable: canceled at the provider and moved to cancel', async () => {
    const s = await openSession();
    await pay(s.id, 'pix');
    await pay(s.id, 'boleto');

    await expireSession(deps, SELLER, s.id);

    expect(sandbox.canceled).toEqual([FIRST_GATEWAY_ID, FIRST_GATEWAY_ID + 1]);
    expect((await storedTransaction(FIRST_TRANSACTION_ID)).status).toBe('cancel');
    expect((await storedTransaction(FIRST_TRANSACTION_ID + 1)).status).toBe('cancel');
  });

  it('completes instead when a payment was already confirmed, and answers 409', async () => {
    const s = await openSession();
    await pay(s.id, 'pix');
    await markPaid();

    const error = await conflictOf(expireSession(deps, SELLER, s.id));

    expect(error.message).toBe(SESSION_CANNOT_BE_EXPIRED);
    expect(await sessions.get(s.id)).toMatchObject({
      status: 'complete',
      transactionId: FIRST_TRANSACTION_ID,
    });
    expect(sessionEvents()).toEqual(['checkout.session.completed']);
    expect(sandbox.canceled).toEqual([]);
  });
});

describe('expireSessionJob (by time)', () => {
  it('skips a session that is not due yet, changing nothing', async () => {
    const s = await openSession();
    clock.set(at(24 * HOUR - 1));

    expect(await expireSessionJob(deps, s.id)).toEqual({ skipped: 'not due' });
    expect((await sessions.get(s.id))?.status).toBe('open');
  });

  it('expires a due session once: firing twice emits one event', async () => {
    const s = await openSession();
    clock.set(IN_24_HOURS);

    const first = await expireSessionJob(deps, s.id);
    const second = await expireSessionJob(deps, s.id);

    expect(first).toEqual({ expired: s.id });
    expect(second).toEqual({ skipped: 'expired' });
    expect(sessionEvents()).toEqual(['checkout.session.expired']);
    expect(await sessions.get(s.id)).toMatchObject({ status: 'expired', expiredAt: IN_24_HOURS, version: 2 });
  });

  it('skips a missing or a complete session', async () => {
    const s = await openSession();
    await pay(s.id, 'card');
    clock.set(IN_24_HOURS);

    expect(await expireSessionJob(deps, 'cs_test_nothing')).toEqual({ skipped: 'missing' });
    expect(await expireSessionJob(deps, s.id)).toEqual({ skipped: 'complete' });
    expect(sessionEvents()).toEqual(['checkout.session.completed']);
  });

  it('completes instead of expiring when a payment was paid but the completion never happened', async () => {
    const s = await openSession();
    await pay(s.id, 'pix');
    await pay(s.id, 'boleto');
    await markPaid(FIRST_TRANSACTION_ID + 1);
    clock.set(IN_24_HOURS);

    expect(await expireSessionJob(deps, s.id)).toEqual({ complete: s.id });
    expect(await sessions.get(s.id)).toMatchObject({
      status: 'complete',
      transactionId: FIRST_TRANSACTION_ID + 1,
      completedAt: IN_24_HOURS,
      expiredAt: null,
    });
    expect(sessionEvents()).toEqual(['checkout.session.completed']);
    expect(sessions.outbox.events[0]?.envelope.data).toMatchObject({
      transaction_id: FIRST_TRANSACTION_ID + 1,
    });
  });

  it('retries the cancellation for an already expired session after the provider failed', async () => {
    const s = await openSession();
    await pay(s.id, 'pix');
    clock.set(IN_24_HOURS);
    const cancel = sandbox.cancel.bind(sandbox);
    const outage = new Error('provider down');
    sandbox.cancel = async () => {
      throw outage;
    };

    expect(await rejection(expireSessionJob(deps, s.id))).toBe(outage);
    expect((await sessions.get(s.id))?.status).toBe('expired');
    expect((await storedTransaction()).status).toBe('pendingPix');

    sandbox.cancel = cancel;
    expect(await expireSessionJob(deps, s.id)).toEqual({ skipped: 'expired' });
    expect(sandbox.canceled).toEqual([FIRST_GATEWAY_ID]);
    expect((await storedTransaction()).status).toBe('cancel');
    expect(await expireSessionJob(deps, s.id)).toEqual({ skipped: 'expired' });
    expect(sandbox.canceled).toEqual([FIRST_GATEWAY_ID]);
    expect(sessionEvents()).toEqual(['checkout.session.expired']);
  });

  it('fails the job on a cancellation the provider refuses, for its retry to finish', async () => {
    const s = await openSession();
    await pay(s.id, 'pix');
    clock.set(IN_24_HOURS);
    sandbox.cancel = async () => {
      throw new Error('provider down');
    };

    await expect(expireSessionJob(deps, s.id)).rejects.toThrow('provider down');
    expect((await sessions.get(s.id))?.status).toBe('expired');
    expect(reporter.reports).toEqual([]);
  });

  it('reports a cancellation the provider refuses on an expire call and goes on with the next payment', async () => {
    const s = await openSession();
    await pay(s.id, 'pix');
    await pay(s.id, 'boleto');
    const cancel = sandbox.cancel.bind(sandbox);
    sandbox.cancel = async (id: number) => {
      if (id === FIRST_GATEWAY_ID) throw new Error('provider down');
      return cancel(id);
    };

    const { data } = await expireSession(deps, SELLER, s.id);

    expect(data.status).toBe('expired');
    expect(reporter.reports).toEqual([
      {
        what: 'could not cancel a session payment',
        error: new Error('provider down'),
        context: { id: FIRST_TRANSACTION_ID },
      },
    ]);
    expect((await storedTransaction(FIRST_TRANSACTION_ID + 1)).status).toBe('cancel');
  });
});

describe('completeWithTransaction', () => {
  it('completes the session of a paid payment once, with checkout.session.completed of the spec', async () => {
    const s = await openSession({
      metadata: { order: 'A-1' },
      customer: { 'customer.email': 'maria@example.com' },
    });
    await pay(s.id, 'pix');
    const paid = await markPaid();
    clock.set(at(HOUR));

    const first = await completeWithTransaction(deps, paid);
    const second = await completeWithTransaction(deps, paid);

    expect(first).toMatchObject({
      status: 'complete',
      transactionId: FIRST_TRANSACTION_ID,
      completedAt: at(HOUR),
    });
    expect(second).toEqual(first);
    expect(sessions.closes).toBe(1);
    expect(sessions.outbox.events.map((e) => e.envelope.data)).toEqual([
      {
        id: s.id,
        status: 'complete',
        product_id: 42,
        transaction_id: FIRST_TRANSACTION_ID,
        customer_email: 'maria@example.com',
        metadata: { order: 'A-1' },
        client_reference_id: null,
        completed_at: at(HOUR),
      },
    ]);
  });

  it('completes exactly once when two confirmations race', async () => {
    const s = await openSession();
    await pay(s.id, 'pix');
    const paid = await markPaid();

    const [a, b] = await Promise.all([
      completeWithTransaction(deps, paid),
      completeWithTransaction(deps, paid),
    ]);

    expect(a?.status).toBe('complete');
    expect(b).toEqual(a);
    expect(sessionEvents()).toEqual(['checkout.session.completed']);
  });

  it('reads the session again when it changed under it (a payment recorded meanwhile) and completes', async () => {
    const s = await openSession();
    await pay(s.id, 'pix');
    const paid = await markPaid();
    sessions.beforeClose = async () => {
      sessions.beforeClose = null;
      await sessions.addPayment(
        s.id,
        { transactionId: 2002, transactionUuid: 'x', method: 'boleto', createdAt: NOW },
        NOW,
      );
    };

    const done = await completeWithTransaction(deps, paid);

    expect(done).toMatchObject({ status: 'complete', version: 4 });
    expect(done?.payments.map((p) => p.transactionId)).toEqual([FIRST_TRANSACTION_ID, 2002]);
  });

  it('ignores a transaction that is not paid, has no session, is not recorded on it, or is another tenant', async () => {
    const s = await openSession();
    await pay(s.id, 'pix');
    const pending = await storedTransaction();
    const paid = await markPaid();

    expect(await completeWithTransaction(deps, pending)).toBeNull();
    expect(await completeWithTransaction(deps, { ...paid, checkoutSessionId: null })).toBeNull();
    expect(await completeWithTransaction(deps, { ...paid, id: 999 })).toBeNull();
    expect(await completeWithTransaction(deps, { ...paid, tenant: OTHER_SELLER })).toBeNull();
    expect(await completeWithTransaction(deps, { ...paid, checkoutSessionId: 'cs_test_nothing' })).toBeNull();
    expect((await sessions.get(s.id))?.status).toBe('open');
    expect(sessionEvents()).toEqual([]);
  });

  it('leaves an expired session expired when its payment is confirmed late', async () => {
    const s = await openSession();
    await pay(s.id, 'pix');
    const pending = await storedTransaction();
    await expireSession(deps, SELLER, s.id);
    const late = { ...pending, status: 'payedPix' as const };

    expect(await completeWithTransaction(deps, late)).toMatchObject({ status: 'expired' });
    expect(sessionEvents()).toEqual(['checkout.session.expired']);
  });
});

describe('sweepSessionExpiries', () => {
  it('runs the expiry job for each session due in the buckets, skipping closed and not-due ones', async () => {
    const due = await openSession({ expires_at: at(HOUR) });
    const completed = await openSession({ expires_at: at(HOUR) });
    await pay(completed.id, 'card');
    const later = await openSession({ expires_at: at(5 * HOUR) });
    clock.set(at(2 * HOUR));

    const result = await sweepSessionExpiries(deps);

    expect(result).toEqual({ due: 2, processed: 2 });
    expect((await sessions.get(due.id))?.status).toBe('expired');
    expect((await sessions.get(completed.id))?.status).toBe('complete');
    expect((await sessions.get(later.id))?.status).toBe('open');
    expect(sessionEvents()).toEqual(['checkout.session.completed', 'checkout.session.expired']);
  });

  it(`looks back ${SESSION_SWEEP_HOURS} hours of buckets, no further`, async () => {
    const old = await openSession({ expires_at: at(HOUR) });
    const recent = await openSession({ expires_at: at(3 * HOUR) });
    clock.set(at((SESSION_SWEEP_HOURS + 2) * HOUR));

    expect(await sweepSessionExpiries(deps)).toEqual({ due: 1, processed: 1 });
    expect((await sessions.get(old.id))?.status).toBe('open');
    expect((await sessions.get(recent.id))?.status).toBe('expired');
  });

  it('reports a session whose expiry fails and goes on with the others', async () => {
    const failing = await openSession({ expires_at: at(HOUR) });
    await pay(failing.id, 'pix');
    const fine = await openSession({ expires_at: at(HOUR) });
    sandbox.cancel = async () => {
      throw new Error('provider down');
    };
    clock.set(at(2 * HOUR));

    const result = await sweepSessionExpiries(deps);

    expect(result).toEqual({ due: 2, processed: 1 });
    expect(reporter.reports.map((r) => r.context)).toEqual([{ id: failing.id }]);
    expect((await sessions.get(fine.id))?.status).toBe('expired');
  });
});

describe('checkoutView', () => {
  const view = (ref: string) => checkoutView(deps, ref);
  const state = (v: CheckoutView) => [v.state, v.unavailableReason];

  it('shows an open session: its product, methods, prefill, redirect and expiry, no payment yet', async () => {
    const s = await openSession({
      payment_methods: ['card', 'pix'],
      customer: { 'customer.name': 'Maria Silva' },
      success_url: 'https://shop.example/ok?s={SESSION_ID}',
      cancel_url: 'https://shop.example/cart',
    });

    expect(await view(s.id)).toEqual({
      kind: 'session',
      ref: s.id,
      state: 'open',
      unavailableReason: null,
      environment: 'test',
      product: {
        uuid: PRODUCT_UUID,
        name: 'Curso de violão',
        description: 'Do zero ao primeiro show',
        image: 'https://cdn.example/violao.png',
        value: 49.9,
        methods: ['card', 'pix'],
        maxInstallments: 6,
      },
      price: null,
      customer: { ...s.customer, name: 'Maria Silva' },
      successUrl: `https://shop.example/ok?s=${s.id}`,
      cancelUrl: 'https://shop.example/cart',
      expiresAt: IN_24_HOURS,
      payment: null,
      seller: { name: '', logoUrl: null, brandColor: null },
    });
  });

  it("shows a product's payment link with every method of the product, by its uuid in any case", async () => {
    const v = await view(PRODUCT_UUID.toUpperCase());

    expect(v).toMatchObject({
      kind: 'product',
      ref: PRODUCT_UUID,
      state: 'open',
      successUrl: null,
      expiresAt: null,
      payment: null,
    });
    expect(v.product.methods).toEqual(['pix', 'boleto', 'card']);
  });

  it('offers only the methods the product still accepts', async () => {
    const s = await openSession({ payment_methods: ['card', 'pix'] });
    products.seed(product({ creditCard: false }));

    expect((await view(s.id)).product.methods).toEqual(['pix']);
  });

  it('is complete after the payment, showing it paid with the redirect and without the card', async () => {
    const s = await openSession({ success_url: 'https://shop.example/ok/{SESSION_ID}' });
    await pay(s.id, 'card');

    const v = await view(s.id);

    expect(state(v)).toEqual(['complete', null]);
    expect(v.payment).toMatchObject({
      status: 'paid',
      method: 'card',
      value: 49.9,
      card: null,
      redirectUrl: `https://shop.example/ok/${s.id}`,
    });
  });

  it('is expired once expires_at is reached, before anything expired it', async () => {
    const s = await openSession();

    clock.set(at(24 * HOUR - 1));
    expect(state(await view(s.id))).toEqual(['open', null]);
    clock.set(IN_24_HOURS);
    expect(state(await view(s.id))).toEqual(['expired', null]);
    expect((await sessions.get(s.id))?.status).toBe('open');
  });

  it('is expired after an expire call', async () => {
    const s = await openSession();
    await expireSession(deps, SELLER, s.id);

    expect(state(await view(s.id))).toEqual(['expired', null]);
  });

  it('is unavailable when the product was deactivated or priced 0 since, for sessions and links alike', async () => {
    const s = await openSession();

    products.seed(product({ isActive: false }));
    expect(state(await view(s.id))).toEqual(['unavailable', 'inactive']);
    expect(state(await view(PRODUCT_UUID))).toEqual(['unavailable', 'inactive']);

    products.seed(product({ value: 0 }));
    expect(state(await view(s.id))).toEqual(['unavailable', 'not_for_sale']);
    expect(state(await view(PRODUCT_UUID))).toEqual(['unavailable', 'not_for_sale']);
  });

  it('shows the latest pending pix with its code and QR image', async () => {
    const s = await openSession();
    await pay(s.id, 'pix');

    const { payment } = await view(s.id);

    expect(payment).toMatchObject({
      status: 'pending',
      method: 'pix',
      pix: { qrCode: `pix-qr-${FIRST_GATEWAY_ID}`, expiresAt: IN_24_HOURS },
      boleto: null,
      failure: null,
      redirectUrl: null,
    });
    expect(payment?.pix?.qrCodeImage).toMatch(/^data:image\/svg\+xml/);
  });

  it.each([
    ['an unknown session', 'cs_test_nothing'],
    ['an unknown product uuid', '00000000-0000-4000-8000-000000000000'],
    ['text that is neither', 'not-a-ref'],
  ])('answers 404 Checkout not found for %s', async (_case, ref) => {
    const error = await rejection(view(ref));

    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).message).toBe('Checkout not found');
  });

  it('answers 404 for a session whose product is gone', async () => {
    const s = await openSession();
    products.items.clear();

    expect(await rejection(view(s.id))).toBeInstanceOf(NotFoundError);
  });
});

describe('payCheckout', () => {
  it('records a pix on the session, the sale carrying the session, its reference and a capped expiry', async () => {
    const s = await openSession({
      expires_at: at(HOUR),
      client_reference_id: 'pedido-77',
      metadata: { a: '1' },
    });
    clock.set(at(60_000));

    const outcome = await pay(s.id, 'pix');

    expect(outcome).toMatchObject({ status: 'pending', method: 'pix', value: 49.9, installments: 1 });
    expect(sandbox.requests[0]?.expiresAt).toBe(at(HOUR));
    expect(await storedTransaction()).toMatchObject({
      checkoutSessionId: s.id,
      clientReferenceId: 'pedido-77',
      metadata: { a: '1' },
      deadline: at(HOUR),
    });
    expect(await sessions.get(s.id)).toMatchObject({
      status: 'open',
      version: 2,
      updatedAt: at(60_000),
      payments: [
        {
          transactionId: FIRST_TRANSACTION_ID,
          transactionUuid: outcome.paymentId,
          method: 'pix',
          createdAt: at(60_000),
        },
      ],
    });
    expect(sessionEvents()).toEqual([]);
  });

  it('completes the session at once on an approved card, the number sent without its spaces', async () => {
    const s = await openSession({ success_url: 'https://shop.example/ok' });

    const outcome = await pay(s.id, 'card');

    expect(sandbox.requests[0]?.card?.number).toBe('4111111111111111');
    expect(outcome).toMatchObject({ status: 'paid', redirectUrl: 'https://shop.example/ok' });
    expect(await sessions.get(s.id)).toMatchObject({
      status: 'complete',
      transactionId: FIRST_TRANSACTION_ID,
    });
    expect(sessionEvents()).toEqual(['checkout.session.completed']);
  });

  it('leaves the session open after a declined card, saying "recusado" and no reason to the buyer', async () => {
    const s = await openSession();

    const outcome = await pay(s.id, 'card', DECLINED_CARD);

    expect(outcome).toMatchObject({
      status: 'declined',
      failure: {
        code: 'card_declined',
        message: 'Cartão recusado. Tente outro cartão ou outra forma de pagamento.',
      },
      redirectUrl: null,
    });
    expect((await sessions.get(s.id))?.status).toBe('open');
    expect((await pay(s.id, 'card')).status).toBe('paid');
  });

  it('pays a payment link with no session to record it on', async () => {
    const outcome = await pay(PRODUCT_UUID, 'card');

    expect(outcome).toMatchObject({ status: 'paid', redirectUrl: null });
    expect((await storedTransaction()).checkoutSessionId).toBeNull();
    expect(sessions.items.size).toBe(0);
  });

  it('refuses a method the session does not offer with a 400 listing the ones it does, charging nothing', async () => {
    const s = await openSession({ payment_methods: ['pix', 'card'] });

    expect(await messagesOf(pay(s.id, 'boleto'))).toEqual(['paymentMethod must be one of: pix, card']);
    expect(sandbox.requests).toEqual([]);
    expect(transactions.all()).toEqual([]);
  });

  it.each([
    [
      'complete',
      async (s: CheckoutSession) => {
        await pay(s.id, 'card');
      },
      'This checkout session is already complete',
    ],
    [
      'expired by call',
      async (s: CheckoutSession) => {
        await expireSession(deps, SELLER, s.id);
      },
      'This checkout session has expired',
    ],
    [
      'past its expiry',
      async () => {
        clock.set(IN_24_HOURS);
      },
      'This checkout session has expired',
    ],
    [
      'of a deactivated product',
      async () => {
        products.seed(product({ isActive: false }));
      },
      'This product is not for sale',
    ],
  ])('refuses a session %s with 409 checkout_not_open, charging nothing', async (_case, arrange, message) => {
    const s = await openSession();
    await arrange(s);
    const charged = sandbox.requests.length;

    const error = await conflictOf(pay(s.id, 'pix'));

    expect([error.statusCode, error.code, error.message]).toEqual([409, 'checkout_not_open', message]);
    expect(sandbox.requests).toHaveLength(charged);
  });

  describe('when the session closes while the provider charges', () => {
    it('cancels a pending pix at the provider and answers 409', async () => {
      const s = await openSession();
      sessions.beforeAddPayment = async () => {
        sessions.beforeAddPayment = null;
        await expireSession(deps, SELLER, s.id);
      };

      const error = await conflictOf(pay(s.id, 'pix'));

      expect([error.code, error.message]).toEqual(['checkout_not_open', 'This checkout session has expired']);
      expect(sandbox.canceled).toEqual([FIRST_GATEWAY_ID]);
      expect((await storedTransaction()).status).toBe('cancel');
      expect((await sessions.get(s.id))?.payments).toEqual([]);
    });

    it('refunds an approved card in full and answers 409, recording nothing on the session', async () => {
      const s = await openSession({ expires_at: at(HOUR) });
      const charge = sandbox.createCharge.bind(sandbox);
      sandbox.createCharge = async (request) => {
        clock.set(at(HOUR));
        return charge(request);
      };

      const error = await conflictOf(pay(s.id, 'card'));

      expect(error.code).toBe('checkout_not_open');
      expect(sandbox.refunds).toEqual([{ gatewayPayId: FIRST_GATEWAY_ID, amountCentavos: PRICE }]);
      expect(await storedTransaction()).toMatchObject({
        status: 'reversed',
        refundedAmount: PRICE,
        refunds: [expect.objectContaining({ amount: PRICE })],
      });
      expect(await sessions.get(s.id)).toMatchObject({ status: 'open', payments: [] });
      expect(sessionEvents()).toEqual([]);
    });

    it('leaves a declined card as it is: nothing to undo', async () => {
      const s = await openSession({ expires_at: at(HOUR) });
      const charge = sandbox.createCharge.bind(sandbox);
      sandbox.createCharge = async (request) => {
        clock.set(at(HOUR));
        return charge(request);
      };

      await conflictOf(pay(s.id, 'card', DECLINED_CARD));

      expect(sandbox.refunds).toEqual([]);
      expect(sandbox.canceled).toEqual([]);
      expect((await storedTransaction()).status).toBe('denied');
    });
  });
});

describe('checkoutPayment (the page polling a payment)', () => {
  it('answers the pending pix, then completes the session once the payment is paid', async () => {
    const s = await openSession({ success_url: 'https://shop.example/ok' });
    const paymentId = (await pay(s.id, 'pix')).paymentId as string;

    expect((await checkoutPayment(deps, s.id, paymentId)).status).toBe('pending');
    await markPaid();
    const paid = await checkoutPayment(deps, s.id, paymentId.toUpperCase());
    await checkoutPayment(deps, s.id, paymentId);

    expect(paid).toMatchObject({ status: 'paid', pix: null, redirectUrl: 'https://shop.example/ok' });
    expect(await sessions.get(s.id)).toMatchObject({
      status: 'complete',
      transactionId: FIRST_TRANSACTION_ID,
    });
    expect(sessionEvents()).toEqual(['checkout.session.completed']);
  });

  it("answers 404 for another page's payment or for text that is no payment id", async () => {
    const s = await openSession();
    const other = await openSession();
    const paymentId = (await pay(s.id, 'pix')).paymentId as string;
    const linkPayment = (await pay(PRODUCT_UUID, 'pix')).paymentId as string;

    for (const [ref, id] of [
      [other.id, paymentId],
      [PRODUCT_UUID, paymentId],
      [s.id, linkPayment],
      [s.id, 'not-a-uuid'],
    ]) {
      const error = await rejection(checkoutPayment(deps, ref, id));
      expect(error).toBeInstanceOf(NotFoundError);
      expect((error as NotFoundError).message).toBe(PAYMENT_NOT_FOUND);
    }
    expect((await checkoutPayment(deps, PRODUCT_UUID, linkPayment)).status).toBe('pending');
  });
});

describe('properties', () => {
  const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];
  const path = fc.webPath();

  it('accepts every HTTPS URL without credentials, wherever it runs', () => {
    fc.assert(
      fc.property(
        fc.webUrl({ validSchemes: ['https'], withQueryParameters: true, withFragments: true }),
        fc.boolean(),
        (url, local) => {
          expect(redirectUrlProblem('success_url', url, local)).toBeNull();
        },
      ),
    );
  });

  it('refuses plain HTTP to any other host, wherever it runs', () => {
    fc.assert(
      fc.property(
        fc.webUrl({ validSchemes: ['http'] }).filter((u) => !LOOPBACK.includes(new URL(u).hostname)),
        fc.boolean(),
        (url, local) => {
          expect(redirectUrlProblem('cancel_url', url, local)).toBe('cancel_url must use HTTPS');
        },
      ),
    );
  });

  it('accepts plain HTTP to this machine exactly when the local runtime allows it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...LOOPBACK, 'LOCALHOST'),
        fc.option(fc.integer({ min: 1, max: 65_535 }), { nil: undefined }),
        path,
        fc.boolean(),
        (host, port, rest, local) => {
          const url = `http://${host}${port === undefined ? '' : `:${port}`}${rest}`;
          expect(redirectUrlProblem('success_url', url, local)).toBe(
            local ? null : 'success_url must use HTTPS',
          );
        },
      ),
    );
  });

  it('refuses credentials in any redirect', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('https', 'http'),
        fc.stringMatching(/^[a-z0-9]{1,8}$/),
        fc.constantFrom('shop.example', 'localhost'),
        fc.boolean(),
        (scheme, user, host, local) => {
          expect(redirectUrlProblem('success_url', `${scheme}://${user}:pw@${host}/`, local)).toBe(
            'success_url must not contain credentials',
          );
        },
      ),
    );
  });

  it('keeps the prefill digits-only whatever mask the seller typed', () => {
    const digits = (n: number) =>
      fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((d) => d.join(''));
    const cpf = digits(9)
      .map((base) => `${base}${cpfCheckDigits(base)}`)
      .filter((d) => !/^(\d)\1+$/.test(d));
    fc.assert(
      fc.property(cpf, digits(11), digits(8), fc.boolean(), (document, phone, zip, masked) => {
        const raw = masked
          ? {
              'customer.document': `${document.slice(0, 3)}.${document.slice(3, 6)}.${document.slice(6, 9)}-${document.slice(9)}`,
              'customer.phone': `(${phone.slice(0, 2)}) ${phone.slice(2, 7)}-${phone.slice(7)}`,
              'customer.zip_code': `${zip.slice(0, 5)}-${zip.slice(5)}`,
            }
          : { 'customer.document': document, 'customer.phone': phone, 'customer.zip_code': zip };
        const parsed = createSessionSchema.parse({ product_id: 42, customer: raw });
        expect(parsed.customer).toMatchObject({ document, phone, zipCode: zip, name: null, email: null });
      }),
    );
  });

  it('names the dotted field of a wrong prefill value', () => {
    const error = (() => {
      try {
        parseInput(createSessionSchema, {
          product_id: 42,
          customer: { 'customer.document': '111.111.111-11', 'customer.phone': '123' },
        });
      } catch (e) {
        return e as ValidationError;
      }
    })();

    expect(error?.messages).toEqual([
      'customer.customer.document is not a valid CPF or CNPJ',
      'customer.customer.phone must have 10 or 11 digits',
    ]);
  });
});
