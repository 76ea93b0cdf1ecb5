import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Product } from '#shared/domain/products/products';
import { PRICE_NOT_FOUND, type SubscriptionPrice } from '#shared/domain/subscriptions/price';
import {
  createPrice,
  deactivatePrice,
  findPriceByRef,
  listPrices,
  resolvePrice,
} from '#shared/domain/subscriptions/prices';
import {
  cancelSubscriptionSchema,
  createPriceSchema,
  createSubscriptionSchema,
  listPricesQuerySchema,
  listSubscriptionsQuerySchema,
} from '#shared/domain/subscriptions/schemas';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError, NotFoundError, ValidationError } from '#shared/errors';
import { parseInput } from '#shared/validation';
import { FakeClock } from '../support/fakes/clock';
import { nthUuid, SequentialIds } from '../support/fakes/ids';
import { FakePriceRepository } from '../support/fakes/price-repository';
import { FakeProductRepository } from '../support/fakes/product-repository';
import { PRODUCT_UUID, product as productFixture, SELLER } from '../support/fixtures';

const NOW = '2026-03-10T15:00:00.000Z';
const OTHER_SELLER: Tenant = { sellerId: 8, environment: 'test' };
const LIVE_SELLER: Tenant = { sellerId: 7, environment: 'live' };

const product = (overrides: Partial<Product> = {}) =>
  productFixture({ name: 'Clube do livro', image: 'https://cdn.example/livro.png', ...overrides });

const monthly = { name: 'Mensal', unitAmount: 29.9, billingInterval: 'month' };

let clock: FakeClock;
let products: FakeProductRepository;
let prices: FakePriceRepository;
let deps: {
  prices: FakePriceRepository;
  products: FakeProductRepository;
  clock: FakeClock;
  ids: SequentialIds;
};

beforeEach(() => {
  clock = new FakeClock(NOW);
  products = new FakeProductRepository();
  prices = new FakePriceRepository(101);
  products.seed(product());
  deps = { prices, products, clock, ids: new SequentialIds() };
});

const create = (body: unknown, ref = '42', tenant = SELLER) =>
  createPrice(deps, tenant, ref, parseInput(createPriceSchema, body));

/** The 400 messages of a body, or [] when it is accepted. */
function problems(schema: Parameters<typeof parseInput>[0], body: unknown): string[] {
  try {
    parseInput(schema, body);
    return [];
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return error.messages as string[];
  }
}

describe('price request', () => {
  it.each([
    [{ ...monthly, unitAmount: 0 }, 'unitAmount must be at least 5'],
    [{ ...monthly, unitAmount: 4.99 }, 'unitAmount must be at least 5'],
    [
      { ...monthly, unitAmount: -5 },
      'unitAmount must be a non-negative amount in Reais with at most 2 decimal places',
    ],
    [
      { ...monthly, unitAmount: 10.001 },
      'unitAmount must be a non-negative amount in Reais with at most 2 decimal places',
    ],
    [{ ...monthly, unitAmount: '29.90' }, 'unitAmount must be a number'],
    [{ name: 'Mensal', billingInterval: 'month' }, 'unitAmount must be a number'],
    [{ ...monthly, billingInterval: 'day' }, 'billingInterval must be one of: week, month, year'],
    [{ name: 'Mensal', unitAmount: 29.9 }, 'billingInterval is required'],
    [{ ...monthly, name: '   ' }, 'name must not be empty'],
    [{ unitAmount: 29.9, billingInterval: 'month' }, 'name is required'],
    [{ ...monthly, intervalCount: 0 }, 'intervalCount must be at least 1'],
    [{ ...monthly, intervalCount: 1.5 }, 'intervalCount must be an integer'],
    [{ ...monthly, intervalCount: 13 }, 'intervalCount must be at most 12 when billingInterval is month'],
    [
      { ...monthly, billingInterval: 'week', intervalCount: 53 },
      'intervalCount must be at most 52 when billingInterval is week',
    ],
    [
      { ...monthly, billingInterval: 'year', intervalCount: 2 },
      'intervalCount must be at most 1 when billingInterval is year',
    ],
    [{ ...monthly, trialDays: -1 }, 'trialDays must be at least 0'],
    [{ ...monthly, trialDays: 731 }, 'trialDays must be at most 730'],
    [{ ...monthly, trialDays: 1.5 }, 'trialDays must be a whole number of days'],
    [{ ...monthly, currency: 'BRL' }, 'currency is not allowed'],
  ])('refuses %j with "%s"', (body, message) => {
    expect(problems(createPriceSchema, body)).toContain(message);
  });

  it('accepts exactly 5.00 and the longest intervals, and defaults intervalCount 1 and trialDays 0', () => {
    expect(parseInput(createPriceSchema, { ...monthly, unitAmount: 5 })).toEqual({
      name: 'Mensal',
      unitAmount: 500,
      billingInterval: 'month',
      intervalCount: 1,
      trialDays: 0,
    });
    for (const [billingInterval, intervalCount] of [
      ['week', 52],
      ['month', 12],
      ['year', 1],
    ] as const)
      expect(problems(createPriceSchema, { ...monthly, billingInterval, intervalCount })).toEqual([]);
    expect(parseInput(createPriceSchema, { ...monthly, trialDays: 730 }).trialDays).toBe(730);
  });

  it('reads every amount of 5.00 or more with two decimals as exact centavos', () => {
    fc.assert(
      fc.property(fc.integer({ min: 500, max: 99_999_999 }), (centavos) => {
        const body = { ...monthly, unitAmount: centavos / 100 };
        expect(parseInput(createPriceSchema, body).unitAmount).toBe(centavos);
      }),
    );
  });

  it('refuses every amount under 5.00, 0 included', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 499 }), (centavos) => {
        expect(problems(createPriceSchema, { ...monthly, unitAmount: centavos / 100 })).toEqual([
          'unitAmount must be at least 5',
        ]);
      }),
    );
  });

  it('reads the active filter of a price list', () => {
    expect(parseInput(listPricesQuerySchema, {})).toEqual({ active: undefined });
    expect(parseInput(listPricesQuerySchema, { active: 'true' })).toEqual({ active: true });
    expect(parseInput(listPricesQuerySchema, { active: 'false' })).toEqual({ active: false });
    expect(problems(listPricesQuerySchema, { active: 'yes' })).toEqual(['active must be true or false']);
  });
});

describe('subscription requests', () => {
  const body = { customerId: 5, priceId: 12, paymentMethodId: 9 };

  it('takes priceId as a number, a numeric string or a uuid (lower-cased)', () => {
    expect(parseInput(createSubscriptionSchema, body).priceId).toBe('12');
    expect(parseInput(createSubscriptionSchema, { ...body, priceId: '12' }).priceId).toBe('12');
    expect(
      parseInput(createSubscriptionSchema, { ...body, priceId: PRODUCT_UUID.toUpperCase() }).priceId,
    ).toBe(PRODUCT_UUID);
  });

  it.each([
    [{ ...body, priceId: 'price_12' }, 'priceId must be a price id or uuid'],
    [{ ...body, priceId: 1.5 }, 'priceId must be a price id or uuid'],
    [{ ...body, priceId: true }, 'priceId must be a price id or uuid'],
    [{ customerId: 5, paymentMethodId: 9 }, 'priceId is required'],
    [{ ...body, customerId: undefined }, 'customerId is required'],
    [{ ...body, customerId: '5' }, 'customerId must be a customer id (a positive integer)'],
    [{ ...body, customerId: 0 }, 'customerId must be a customer id (a positive integer)'],
    [{ ...body, paymentMethodId: -1 }, 'paymentMethodId must be a payment method id (a positive integer)'],
    [{ ...body, paymentMethodId: undefined }, 'paymentMethodId is required'],
    [{ ...body, trialDays: 731 }, 'trialDays must be at most 730'],
    [{ ...body, metadata: { plan: 3 } }, 'metadata.plan must be a string'],
    [{ ...body, quantity: 2 }, 'quantity is not allowed'],
  ])('refuses %j with "%s"', (input, message) => {
    expect(problems(createSubscriptionSchema, input)).toContain(message);
  });

  it('refuses a cancel body with a wrong type or an unknown field', () => {
    expect(parseInput(cancelSubscriptionSchema, {})).toEqual({});
    expect(problems(cancelSubscriptionSchema, { atPeriodEnd: 'yes' })).toEqual([
      'atPeriodEnd must be a boolean',
    ]);
    expect(problems(cancelSubscriptionSchema, { reason: 'x'.repeat(501) })).toEqual([
      'reason must be at most 500 characters long',
    ]);
    expect(problems(cancelSubscriptionSchema, { when: 'now' })).toEqual(['when is not allowed']);
  });

  it('reads the list filters and refuses unknown values', () => {
    expect(
      parseInput(listSubscriptionsQuerySchema, { status: 'active', customerId: '3', productId: '4' }),
    ).toEqual({
      status: 'active',
      customerId: 3,
      productId: 4,
      page: 1,
      limit: 20,
    });
    expect(problems(listSubscriptionsQuerySchema, { status: 'paused' })).toEqual([
      'status must be one of: pending, active, pending_cancellation, canceled, failed',
    ]);
    expect(problems(listSubscriptionsQuerySchema, { customerId: 'abc' })).toEqual([
      'customerId must be a customer id (a positive integer)',
    ]);
    expect(problems(listSubscriptionsQuerySchema, { limit: '101' })).toEqual([
      'limit must be an integer from 1 to 100',
    ]);
    expect(problems(listSubscriptionsQuerySchema, { sort: 'id' })).toEqual(['sort is not allowed']);
  });
});

describe('createPrice', () => {
  it('creates an active price of the product with a snapshot of its name and answers it in Reais', async () => {
    const view = await create({ ...monthly, intervalCount: 3, trialDays: 7 });
    expect(view).toEqual({
      id: 101,
      uuid: nthUuid(1),
      object: 'subscription_price',
      productId: 42,
      productUuid: PRODUCT_UUID,
      product: { id: 42, name: 'Clube do livro' },
      name: 'Mensal',
      unitAmount: 29.9,
      billingInterval: 'month',
      intervalCount: 3,
      trialDays: 7,
      isActive: true,
      environment: 'test',
      createdAt: NOW,
      updatedAt: NOW,
    });
    expect(await prices.get(SELLER, 101)).toMatchObject({ unitAmount: 2990, version: 1, tenant: SELLER });
  });

  it('finds the product by uuid as well as by integer id', async () => {
    expect((await create(monthly, PRODUCT_UUID)).productId).toBe(42);
  });

  it.each([
    ['another seller', OTHER_SELLER],
    ['the live environment', LIVE_SELLER],
  ])('answers 404 Product not found for a product of %s', async (_, tenant) => {
    await expect(create(monthly, '42', tenant)).rejects.toThrow(new NotFoundError('Product not found'));
    await expect(create(monthly, PRODUCT_UUID, tenant)).rejects.toThrow(
      new NotFoundError('Product not found'),
    );
    expect(prices.items.size).toBe(0);
  });

  it('answers 404 for a missing or deactivated product, and for an id that is neither number nor uuid', async () => {
    products.seed(product({ id: 43, uuid: nthUuid(900), isActive: false }));
    for (const ref of ['99', '43', 'abc'])
      await expect(create(monthly, ref)).rejects.toThrow(new NotFoundError('Product not found'));
    expect(prices.items.size).toBe(0);
  });
});

describe('listPrices', () => {
  it('lists the prices of the product newest first, filtered by active', async () => {
    const first = await create(monthly);
    const second = await create({ ...monthly, name: 'Anual', billingInterval: 'year' });
    products.seed(product({ id: 50, uuid: nthUuid(901) }));
    await create(monthly, '50');
    await deactivatePrice(deps, SELLER, '42', String(first.id));
    const ids = (r: { data: { id: number }[] }) => r.data.map((p) => p.id);
    expect(ids(await listPrices(deps, SELLER, '42'))).toEqual([second.id, first.id]);
    expect(ids(await listPrices(deps, SELLER, PRODUCT_UUID))).toEqual([second.id, first.id]);
    expect(ids(await listPrices(deps, SELLER, '42', true))).toEqual([second.id]);
    expect(ids(await listPrices(deps, SELLER, '42', false))).toEqual([first.id]);
  });

  it('answers an empty list for a product without prices, deactivated products included', async () => {
    products.seed(product({ id: 43, uuid: nthUuid(900), isActive: false }));
    expect(await listPrices(deps, SELLER, '42')).toEqual({ data: [] });
    expect(await listPrices(deps, SELLER, '43')).toEqual({ data: [] });
  });

  it("answers 404 for another seller's product, even one with prices", async () => {
    await create(monthly);
    for (const ref of ['42', PRODUCT_UUID, '99', 'x'])
      await expect(listPrices(deps, OTHER_SELLER, ref)).rejects.toThrow(
        new NotFoundError('Product not found'),
      );
  });
});

describe('deactivatePrice', () => {
  it('deactivates by price id or uuid and answers the price; a second time answers it unchanged', async () => {
    const price = await create(monthly);
    clock.advanceSeconds(60);
    const done = await deactivatePrice(deps, SELLER, '42', price.uuid.toUpperCase());
    expect(done).toEqual({ ...price, isActive: false, updatedAt: clock.now().toISOString() });
    clock.advanceSeconds(60);
    expect(await deactivatePrice(deps, SELLER, PRODUCT_UUID, String(price.id))).toEqual(done);
    expect((await prices.get(SELLER, price.id))?.version).toBe(2);
  });

  it('answers 404 Price not found for a price of another product, of another seller, or a malformed one', async () => {
    const price = await create(monthly);
    products.seed(product({ id: 50, uuid: nthUuid(901) }));
    await expect(deactivatePrice(deps, SELLER, '50', String(price.id))).rejects.toThrow(
      new NotFoundError(PRICE_NOT_FOUND),
    );
    for (const ref of ['999', nthUuid(77), 'price_1'])
      await expect(deactivatePrice(deps, SELLER, '42', ref)).rejects.toThrow(
        new NotFoundError(PRICE_NOT_FOUND),
      );
    products.seed(product({ id: 42, tenant: OTHER_SELLER, uuid: nthUuid(902) }));
    await expect(deactivatePrice(deps, OTHER_SELLER, '42', String(price.id))).rejects.toThrow(
      new NotFoundError(PRICE_NOT_FOUND),
    );
    expect((await prices.get(SELLER, price.id))?.isActive).toBe(true);
  });

  it("answers 404 Product not found for another seller's product", async () => {
    const price = await create(monthly);
    for (const ref of ['42', PRODUCT_UUID])
      await expect(deactivatePrice(deps, OTHER_SELLER, ref, String(price.id))).rejects.toThrow(
        new NotFoundError('Product not found'),
      );
  });

  it('answers the price when a concurrent request deactivated it first, and the 409 when it changed otherwise', async () => {
    const price = await create(monthly);
    const stored = (await prices.get(SELLER, price.id)) as SubscriptionPrice;
    const racing = { ...deps, prices: Object.create(prices) as FakePriceRepository };
    racing.prices.save = async (next, previous) => {
      await prices.save({ ...stored, isActive: false, version: 2 }, stored);
      return prices.save(next, previous);
    };
    expect((await deactivatePrice(racing, SELLER, '42', String(price.id))).isActive).toBe(false);

    const other = await create({ ...monthly, name: 'Outro' });
    const otherStored = (await prices.get(SELLER, other.id)) as SubscriptionPrice;
    racing.prices.save = async (next, previous) => {
      await prices.save({ ...otherStored, name: 'Renamed', version: 2 }, otherStored);
      return prices.save(next, previous);
    };
    await expect(deactivatePrice(racing, SELLER, '42', String(other.id))).rejects.toBeInstanceOf(
      ConflictError,
    );
  });
});

describe('resolvePrice', () => {
  it('answers an active price of the product by id or uuid, and null for anything else', async () => {
    const price = await create(monthly);
    const inactive = await create({ ...monthly, name: 'Velho' });
    await deactivatePrice(deps, SELLER, '42', String(inactive.id));
    expect((await resolvePrice(deps, SELLER, 42, String(price.id)))?.id).toBe(price.id);
    expect((await resolvePrice(deps, SELLER, 42, price.uuid))?.id).toBe(price.id);
    expect(await resolvePrice(deps, SELLER, 42, String(inactive.id))).toBeNull();
    expect(await resolvePrice(deps, SELLER, 43, String(price.id))).toBeNull();
    expect(await resolvePrice(deps, OTHER_SELLER, 42, String(price.id))).toBeNull();
    expect(await resolvePrice(deps, OTHER_SELLER, 42, price.uuid)).toBeNull();
    expect(await resolvePrice(deps, SELLER, 42, 'price_1')).toBeNull();
    expect((await findPriceByRef(deps, SELLER, String(inactive.id)))?.isActive).toBe(false);
  });
});
