import { beforeEach, describe, expect, it } from 'vitest';
import {
  type Product,
  type ProductDeps,
  toView,
  updateProduct,
  updateProductSchema,
} from '#shared/domain/products/products';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError, NotFoundError, ValidationError } from '#shared/errors';
import { FakeClock } from '../support/fakes/clock';
import { SequentialIds } from '../support/fakes/ids';
import { FakeProductRepository } from '../support/fakes/product-repository';
import { PRODUCT_UUID, product as productFixture, SELLER } from '../support/fixtures';

const NOW = '2026-03-10T15:00:00.000Z';
const CREATED = '2026-01-05T10:00:00.000Z';
const OTHER_SELLER: Tenant = { sellerId: 8, environment: 'test' };
const BASE_URL = 'https://pay.example.com/';
const FIRST_EVENT_ID = `evt_${'1'.padStart(24, '0')}`;

const product = (overrides: Partial<Product> = {}) =>
  productFixture({
    description: 'Aulas gravadas',
    boleto: false,
    installments: 3,
    carne: { enabled: true, maxInstallments: 6, interestFactors: { '2': 10_200 } },
    createdAt: CREATED,
    updatedAt: CREATED,
    version: 4,
    ...overrides,
  });

/** The body as the route parses it: reais become centavos, factors ten-thousandths. */
const body = (raw: unknown) => updateProductSchema.parse(raw);

let products: FakeProductRepository;
let deps: ProductDeps;

beforeEach(() => {
  products = new FakeProductRepository();
  products.seed(product());
  deps = {
    products,
    clock: new FakeClock(NOW),
    ids: new SequentialIds(),
    publicBaseUrl: BASE_URL,
    nextId: async () => {
      throw new Error('an update must not take a new id');
    },
  };
});

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the promise to reject');
    },
    (error: unknown) => error,
  );
}

/** The stored product and the outbox are exactly as seeded. */
function expectUnchanged(tenant: Tenant = SELLER) {
  expect(products.stored(tenant, 42)).toEqual(product({ tenant }));
  expect(products.saves).toBe(0);
  expect(products.outbox.events).toEqual([]);
}

describe('updateProduct changes fields', () => {
  it('changes what the body sends, keeps the rest, bumps the version and answers the view', async () => {
    const view = await updateProduct(
      deps,
      SELLER,
      '42',
      body({ name: 'Curso de violão avançado', value: 59.9, boleto: true, installments: 6 }),
    );

    const expected = product({
      name: 'Curso de violão avançado',
      value: 5990,
      boleto: true,
      installments: 6,
      updatedAt: NOW,
      version: 5,
    });
    expect(products.stored(SELLER, 42)).toEqual(expected);
    expect(view).toEqual({
      id: 42,
      uuid: PRODUCT_UUID,
      sellerId: 7,
      environment: 'test',
      name: 'Curso de violão avançado',
      image: 'https://cdn.example/violao.png',
      value: 59.9,
      description: 'Aulas gravadas',
      pix: true,
      creditCard: true,
      boleto: true,
      installments: 6,
      carne: { enabled: true, maxInstallments: 6, interestFactors: { '2': 1.02 } },
      isActive: true,
      paymentLink: `https://pay.example.com/pay/${PRODUCT_UUID}`,
      createdAt: CREATED,
      updatedAt: NOW,
    });
  });

  it('keeps a legacy price below the minimum when the body does not send a value', async () => {
    products.seed(product({ value: 300 }));

    await updateProduct(deps, SELLER, '42', body({ name: 'Renamed' }));

    expect(products.stored(SELLER, 42)).toMatchObject({ name: 'Renamed', value: 300, version: 5 });
  });

  it('clears the description with null and keeps it when absent', async () => {
    await updateProduct(deps, SELLER, '42', body({ image: 'https://cdn.example/new.png' }));
    expect(products.stored(SELLER, 42)?.description).toBe('Aulas gravadas');

    await updateProduct(deps, SELLER, '42', body({ description: null }));

    expect(products.stored(SELLER, 42)).toMatchObject({
      description: null,
      image: 'https://cdn.example/new.png',
      version: 6,
    });
  });

  it('merges carne interest factors into the stored ones', async () => {
    await updateProduct(
      deps,
      SELLER,
      '42',
      body({ carne: { maxInstallments: 4, interestFactors: { '4': 1.0575 } } }),
    );

    expect(products.stored(SELLER, 42)?.carne).toEqual({
      enabled: true,
      maxInstallments: 4,
      interestFactors: { '2': 10_200, '4': 10_575 },
    });
  });

  it('finds the product by its uuid, in any case', async () => {
    const view = await updateProduct(deps, SELLER, PRODUCT_UUID.toUpperCase(), body({ pix: false }));

    expect(view.pix).toBe(false);
    expect(products.stored(SELLER, 42)?.pix).toBe(false);
  });

  it('edits an archived product, which stays archived', async () => {
    products.seed(product({ isActive: false }));

    const view = await updateProduct(deps, SELLER, '42', body({ name: 'Old course' }));

    expect(view).toMatchObject({ name: 'Old course', isActive: false });
    expect(products.stored(SELLER, 42)).toMatchObject({ isActive: false, version: 5 });
  });
});

describe('updateProduct emits product.updated through the outbox', () => {
  it('writes one product.updated event, carrying the view, in the same save as the product', async () => {
    const view = await updateProduct(deps, SELLER, '42', body({ value: 10 }));

    expect(products.outbox.batches).toEqual([
      [
        {
          tenant: SELLER,
          envelope: { id: FIRST_EVENT_ID, event: 'product.updated', timestamp: NOW, data: view },
        },
      ],
    ]);
    expect(view.value).toBe(10);
    expect(products.saves).toBe(1);
  });

  it('emits one event per update, each with its own id', async () => {
    await updateProduct(deps, SELLER, '42', body({ name: 'A' }));
    await updateProduct(deps, SELLER, '42', body({ name: 'B' }));

    expect(
      products.outbox.events.map((e) => [e.envelope.id, (e.envelope.data as { name: string }).name]),
    ).toEqual([
      [FIRST_EVENT_ID, 'A'],
      [`evt_${'2'.padStart(24, '0')}`, 'B'],
    ]);
  });
});

describe('updateProduct refuses', () => {
  it('a concurrent change (lost optimistic lock) with the repository 409 concurrent_update, writing nothing', async () => {
    const concurrent = product({
      name: 'Changed elsewhere',
      version: 5,
      updatedAt: '2026-03-10T14:59:59.000Z',
    });
    products.beforeSave = () => {
      products.seed(concurrent);
      products.beforeSave = null;
    };

    const error = await rejection(updateProduct(deps, SELLER, '42', body({ name: 'Mine' })));

    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ statusCode: 409, code: 'concurrent_update', reason: 'changed' });
    expect(products.stored(SELLER, 42)).toEqual(concurrent);
    expect(products.outbox.events).toEqual([]);
  });

  it('checks the version it read: the save expects version 4 and writes version 5', async () => {
    const saves: [number, number][] = [];
    const save = products.save.bind(products);
    products.save = async (next, expectedVersion, events, counters) => {
      saves.push([next.version, expectedVersion]);
      return save(next, expectedVersion, events, counters);
    };

    await updateProduct(deps, SELLER, '42', body({ name: 'Mine' }));

    expect(saves).toEqual([[5, 4]]);
  });

  it.each([
    ['by numeric id', '42'],
    ['by uuid', PRODUCT_UUID],
  ])("another seller's product %s as not found, writing nothing", async (_how, id) => {
    products.items.clear();
    products.seed(product({ tenant: OTHER_SELLER }));

    const error = await rejection(updateProduct(deps, SELLER, id, body({ name: 'Stolen' })));

    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).messages).toBe('Product not found');
    expectUnchanged(OTHER_SELLER);
  });

  it("the seller's own product in the other environment as not found", async () => {
    const live: Tenant = { sellerId: 7, environment: 'live' };
    products.items.clear();
    products.seed(product({ tenant: live }));

    const error = await rejection(updateProduct(deps, SELLER, PRODUCT_UUID, body({ name: 'Mixed' })));

    expect(error).toBeInstanceOf(NotFoundError);
    expectUnchanged(live);
  });

  it.each(['43', 'not-an-id', '1234567890123456'])(
    'an id that matches no product (%s) as not found',
    async (id) => {
      const error = await rejection(updateProduct(deps, SELLER, id, body({ name: 'X' })));

      expect(error).toBeInstanceOf(NotFoundError);
      expectUnchanged();
    },
  );

  it('a change that leaves no payment method, writing nothing', async () => {
    const error = await rejection(updateProduct(deps, SELLER, '42', body({ pix: false, creditCard: false })));

    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).messages).toEqual([
      'at least one payment method (pix, creditCard, boleto) must be enabled',
    ]);
    expectUnchanged();
  });

  it('interest factors beyond the new carne maximum, writing nothing', async () => {
    const error = await rejection(
      updateProduct(
        deps,
        SELLER,
        '42',
        body({ carne: { maxInstallments: 2, interestFactors: { '3': 1.03 } } }),
      ),
    );

    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).messages).toEqual([
      'carne.interestFactors has factors beyond carne.maxInstallments: 3',
    ]);
    expectUnchanged();
  });
});

describe('toView of an updated product', () => {
  it('is what the event carries', async () => {
    await updateProduct(deps, SELLER, '42', body({ name: 'Same view' }));

    const storedProduct = products.stored(SELLER, 42) as Product;
    expect(products.outbox.events[0].envelope.data).toEqual(toView(storedProduct, BASE_URL));
  });
});
