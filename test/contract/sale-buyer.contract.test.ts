import { describe, expect, it } from 'vitest';
import { createCheckoutSessionRepository } from '#shared/adapters/dynamodb/checkout-session-repository';
import { createCustomerRepository } from '#shared/adapters/dynamodb/customer-repository';
import { createProductRepository } from '#shared/adapters/dynamodb/product-repository';
import { createTransactionRepository } from '#shared/adapters/dynamodb/transaction-repository';
import { atomically } from '#shared/adapters/dynamodb/unit-of-work';
import type { CheckoutSession } from '#shared/domain/checkout/session';
import { buyerStateOf } from '#shared/domain/customers/buyer';
import {
  BuyerChangedError,
  type BuyerWrite,
  type CustomerProfile,
  type GlobalCustomer,
} from '#shared/domain/customers/customer';
import type {
  Atomically,
  CheckoutSessionRepository,
  CustomerRepository,
  ProductRepository,
  TransactionRepository,
} from '#shared/domain/ports';
import type { Product } from '#shared/domain/products/products';
import type { Tenant } from '#shared/domain/tenant';
import type { Transaction } from '#shared/domain/transactions/transaction';
import { ConflictError } from '#shared/errors';
import { FakeCheckoutSessionRepository } from '../support/fakes/checkout-session-repository';
import { FakeCustomerRepository } from '../support/fakes/customer-repository';
import { FakeProductRepository } from '../support/fakes/product-repository';
import { FakeTransactionRepository } from '../support/fakes/transaction-repository';
import { fakeAtomically } from '../support/fakes/unit-of-work';
import { customerProfile, product } from '../support/fixtures';
import { freshTable } from './support';

const SELLER: Tenant = { sellerId: 7, environment: 'test' };
const OTHER_SELLER: Tenant = { sellerId: 8, environment: 'test' };
const CPF = '52998224725';
const AT = '2026-03-10T15:30:00.000Z';
const LATER = '2026-03-10T15:31:00.000Z';

const GLOBAL: GlobalCustomer = {
  id: 1,
  uuid: 'c0000000-0000-4000-8000-000000000001',
  environment: 'test',
  document: CPF,
  personType: 'fisica',
  name: 'Ana Souza',
  email: 'ana@example.com',
  phone: '11987654321',
  createdAt: AT,
};

const profileOf = (tenant: Tenant, overrides: Partial<CustomerProfile> = {}): CustomerProfile =>
  customerProfile({
    tenant,
    id: GLOBAL.id,
    uuid: GLOBAL.uuid,
    document: CPF,
    name: GLOBAL.name,
    email: GLOBAL.email,
    globalEmail: GLOBAL.email,
    phone: GLOBAL.phone,
    emailSource: 'buyer',
    createdAt: AT,
    updatedAt: AT,
    ...overrides,
  });

function sale(id: number, tenant: Tenant, customer: CustomerProfile): Transaction {
  return {
    id,
    uuid: `11111111-0000-4000-8000-${String(id).padStart(12, '0')}`,
    tenant,
    provider: 'sandbox',
    checkoutSessionId: null,
    clientReferenceId: null,
    affiliate: null,
    gatewayPayId: 9_000_000_000 + id,
    status: 'captured',
    paymentMethod: 'creditcard',
    value: 10_000,
    valueSeller: 9_000,
    installments: 1,
    customer: {
      id: customer.id,
      uuid: customer.uuid,
      name: customer.name,
      email: customer.email,
      document: customer.document,
      phone: customer.phone,
    },
    product: { id: 1, uuid: 'p0000000-0000-4000-8000-000000000001', name: 'Curso', value: 10_000 },
    pix: null,
    boleto: null,
    card: { brand: 'visa', last4: '4242' },
    failureCode: null,
    failureReason: null,
    refunds: [],
    refundedAmount: 0,
    paidAt: AT,
    canceledAt: null,
    deadline: null,
    metadata: {},
    createdAt: AT,
    updatedAt: AT,
    version: 1,
  };
}

async function changedOf(promise: Promise<unknown>): Promise<BuyerChangedError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BuyerChangedError);
  return error as BuyerChangedError;
}

type Repos = {
  customers: CustomerRepository;
  transactions: TransactionRepository;
  products: ProductRepository;
  sessions: CheckoutSessionRepository;
  atomically: Atomically;
};

const SESSION: CheckoutSession = {
  id: `cs_test_${'1'.padStart(24, '0')}`,
  tenant: SELLER,
  status: 'open',
  productId: 1,
  productUuid: 'p0000000-0000-4000-8000-000000000001',
  priceId: null,
  price: null,
  customer: {
    name: null,
    email: null,
    document: null,
    phone: null,
    zipCode: null,
    street: null,
    number: null,
    complement: null,
    neighborhood: null,
    city: null,
    state: null,
  },
  paymentMethods: ['pix', 'boleto', 'card'],
  metadata: {},
  successUrl: null,
  cancelUrl: null,
  clientReferenceId: null,
  affiliateId: null,
  transactionId: null,
  subscriptionId: null,
  payments: [],
  expiresAt: '2026-03-11T15:30:00.000Z',
  completedAt: null,
  expiredAt: null,
  createdAt: AT,
  updatedAt: AT,
  version: 1,
};

const PRODUCT: Product = product({
  id: 1,
  uuid: 'p0000000-0000-4000-8000-000000000001',
  name: 'Curso',
  image: 'https://cdn.example/1.png',
  value: 10_000,
  createdAt: AT,
  updatedAt: AT,
});

describe.each([
  [
    'in-memory fake',
    async (): Promise<Repos> => ({
      customers: new FakeCustomerRepository(),
      transactions: new FakeTransactionRepository(),
      products: new FakeProductRepository(),
      sessions: new FakeCheckoutSessionRepository(),
      atomically: fakeAtomically,
    }),
  ],
  [
    'DynamoDB Local',
    async (): Promise<Repos> => {
      const table = await freshTable();
      return {
        customers: createCustomerRepository(table),
        transactions: createTransactionRepository(table),
        products: createProductRepository(table),
        sessions: createCheckoutSessionRepository(table),
        atomically,
      };
    },
  ],
])('a sale and its buyer in one unit of work (%s)', (_name, make) => {
  const write = (repos: Repos, id: number, tenant: Tenant, buyer: BuyerWrite, customer: CustomerProfile) =>
    repos.atomically(async () => {
      await repos.customers.addBuyer(buyer);
      await repos.transactions.create(sale(id, tenant, customer), []);
    });

  it('writes a new buyer, its profile and the sale together', async () => {
    const repos = await make();
    const profile = profileOf(SELLER);

    await write(repos, 1, SELLER, { kind: 'newGlobal', global: GLOBAL, profile }, profile);

    expect(await repos.customers.findGlobal('test', CPF)).toEqual(GLOBAL);
    expect(await repos.customers.findProfile(SELLER, GLOBAL.uuid)).toEqual(profile);
    expect((await repos.transactions.get(SELLER, 1))?.customer.id).toBe(GLOBAL.id);
    expect(
      (await repos.customers.list(SELLER, { search: { kind: 'all' }, overdueOnly: false, skip: 0, take: 5 }))
        .total,
    ).toBe(1);
  });

  it('refuses a "new" document that is registered and writes no sale', async () => {
    const repos = await make();
    const profile = profileOf(SELLER);
    await write(repos, 1, SELLER, { kind: 'newGlobal', global: GLOBAL, profile }, profile);
    const other = { ...GLOBAL, id: 2, uuid: 'c0000000-0000-4000-8000-000000000002' };
    const otherProfile = profileOf(OTHER_SELLER, { id: 2, uuid: other.uuid });

    await changedOf(
      write(
        repos,
        2,
        OTHER_SELLER,
        { kind: 'newGlobal', global: other, profile: otherProfile },
        otherProfile,
      ),
    );

    expect(await repos.customers.findGlobal('test', CPF)).toEqual(GLOBAL);
    expect(await repos.transactions.get(OTHER_SELLER, 2)).toBeNull();
    expect(await repos.customers.findProfile(OTHER_SELLER, other.uuid)).toBeNull();
  });

  it('adds a profile of a known global, and refuses a second one of the tenant', async () => {
    const repos = await make();
    const mine = profileOf(SELLER);
    await write(repos, 1, SELLER, { kind: 'newGlobal', global: GLOBAL, profile: mine }, mine);
    const theirs = profileOf(OTHER_SELLER);

    await write(repos, 2, OTHER_SELLER, { kind: 'newProfile', profile: theirs }, theirs);
    await changedOf(
      write(repos, 3, OTHER_SELLER, { kind: 'newProfile', profile: { ...theirs, updatedAt: LATER } }, theirs),
    );

    expect(await repos.transactions.get(OTHER_SELLER, 3)).toBeNull();
    expect(await repos.customers.findProfile(OTHER_SELLER, GLOBAL.uuid)).toEqual(theirs);
  });

  it('refuses a new profile of a global that already lists the tenant (a profile moved to it)', async () => {
    const repos = await make();
    const moved = profileOf(SELLER, {
      id: 9,
      uuid: 'c0000000-0000-4000-8000-000000000009',
      document: '11144477735',
    });
    const elsewhere = { ...GLOBAL, id: 9, uuid: moved.uuid, document: '11144477735' };
    await repos.customers.createGlobal(elsewhere, moved);
    await repos.customers.createGlobal(GLOBAL, profileOf(OTHER_SELLER));
    const next = { ...moved, document: CPF, updatedAt: LATER };
    const spare = { id: 10, uuid: 'c0000000-0000-4000-8000-000000000010' };
    await repos.customers.relinkProfile({ current: moved, next, target: GLOBAL, createTarget: false, spare });
    // A sale that read the global before the move: it assumes no profile of this seller.
    const fresh = profileOf(SELLER);

    await changedOf(write(repos, 1, SELLER, { kind: 'newProfile', profile: fresh }, fresh));

    // What the sale reads again: the seller is linked to the global through the moved profile.
    expect(buyerStateOf(await repos.customers.findBuyer(CPF), SELLER)).toMatchObject({
      global: { uuid: GLOBAL.uuid, profileRefs: { [SELLER.sellerId]: { id: 9, uuid: moved.uuid } } },
      linked: true,
    });
    expect(await repos.transactions.get(SELLER, 1)).toBeNull();
    expect(await repos.customers.findProfile(SELLER, GLOBAL.uuid)).toBeNull();
  });

  it("writes nothing of an existing customer: the sale alone, the seller's profile as stored", async () => {
    const repos = await make();
    const profile = profileOf(SELLER, { city: 'Campinas', emailSource: 'seller' });
    await repos.customers.createGlobal(GLOBAL, profile);
    const typed = { ...profile, name: 'Outra Pessoa', email: 'outra@example.com' };

    await write(repos, 1, SELLER, { kind: 'existing', tenant: SELLER, global: GLOBAL }, typed);

    expect((await repos.transactions.get(SELLER, 1))?.customer).toMatchObject({
      id: GLOBAL.id,
      name: 'Outra Pessoa',
      email: 'outra@example.com',
    });
    expect(await repos.customers.findProfile(SELLER, GLOBAL.uuid)).toEqual(profile);
    expect(await repos.customers.findGlobal('test', CPF)).toEqual(GLOBAL);
  });

  describe("the buyer read with the sale's product (issue 17)", () => {
    /** The sale's read for the product's tenant, as a container that never saw the buyer makes it. */
    async function readFor(repos: Repos, product: Product) {
      const [found, records] = await Promise.all([
        repos.products.findByUuid(product.uuid),
        repos.customers.findBuyer(CPF),
      ]);
      expect(found).toEqual(product);
      return buyerStateOf(records, product.tenant);
    }
    const theirProduct = {
      ...PRODUCT,
      id: 2,
      uuid: 'p0000000-0000-4000-8000-000000000002',
      tenant: OTHER_SELLER,
    };

    it("finds no buyer for a new document, the seller's own registered buyer, and another seller's", async () => {
      const repos = await make();
      await repos.products.create(PRODUCT, []);
      await repos.products.create(theirProduct, []);
      expect(await readFor(repos, PRODUCT)).toEqual({});

      // Registered through POST /api/v1/customers' path, not a sale.
      await repos.customers.createGlobal(GLOBAL, profileOf(SELLER));

      expect(await readFor(repos, PRODUCT)).toEqual({ global: GLOBAL, linked: true });
      expect(await readFor(repos, theirProduct)).toEqual({ global: GLOBAL, linked: false });
      await repos.customers.addProfile(profileOf(OTHER_SELLER));
      expect(await readFor(repos, theirProduct)).toEqual({ global: GLOBAL, linked: true });
    });
  });

  describe("a checkout session's payment in the sale's unit of work", () => {
    const payment = (id: number) => ({
      transactionId: id,
      transactionUuid: sale(id, SELLER, profileOf(SELLER)).uuid,
      method: 'card' as const,
      createdAt: LATER,
    });

    it('records the payment on an open session with the sale, and refuses a closed one writing nothing', async () => {
      const repos = await make();
      const profile = profileOf(SELLER);
      await repos.sessions.create(SESSION, []);

      await repos.atomically(async () => {
        await repos.customers.addBuyer({ kind: 'newGlobal', global: GLOBAL, profile });
        await repos.transactions.create(sale(1, SELLER, profile), []);
        await repos.sessions.addPayment(SESSION.id, payment(1), LATER);
      });
      expect(await repos.sessions.get(SESSION.id)).toMatchObject({
        payments: [payment(1)],
        updatedAt: LATER,
        version: 2,
      });

      await repos.sessions.close(
        { ...SESSION, status: 'expired', payments: [payment(1)], version: 3 },
        {
          ...SESSION,
          version: 2,
        },
        [],
      );
      const error = await repos
        .atomically(async () => {
          await repos.customers.addBuyer({ kind: 'existing', tenant: SELLER, global: GLOBAL });
          await repos.transactions.create(sale(2, SELLER, profile), []);
          await repos.sessions.addPayment(SESSION.id, payment(2), LATER);
        })
        .then(
          () => null,
          (e: unknown) => e,
        );
      expect(error).toBeInstanceOf(ConflictError);
      expect((error as ConflictError).reason).toBe('invalid_state');
      expect(await repos.transactions.get(SELLER, 2)).toBeNull();
      expect((await repos.sessions.get(SESSION.id))?.payments).toEqual([payment(1)]);
    });
  });
});
