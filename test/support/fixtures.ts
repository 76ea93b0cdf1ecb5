import { expect } from 'vitest';
import type { Runtime } from '#infra/local/runtime';
import type { CustomerProfile } from '#shared/domain/customers/customer';
import type { Product } from '#shared/domain/products/products';
import type { Environment, Tenant } from '#shared/domain/tenant';
import type { client } from './runtime';

/**
 * The sellers, customers and products tests act with, defined once: domain objects for unit and
 * contract tests, request bodies and an HTTP scene builder for integration tests. Each builder takes
 * overrides; a test that relies on a value passes it rather than trusting the default.
 */

/** The seller unit and contract tests act as, in its sandbox. */
export const SELLER: Tenant = { sellerId: 7, environment: 'test' };

/** The product's public id in unit tests (one product per test). */
export const PRODUCT_UUID = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';

/** The time unit-test fixtures were created at. */
export const CREATED_AT = '2026-01-01T00:00:00.000Z';

/** A product as the domain holds it: the seller's R$ 49,90 course, every method on, one installment. */
export function product(overrides: Partial<Product> = {}): Product {
  return {
    id: 42,
    uuid: PRODUCT_UUID,
    tenant: SELLER,
    name: 'Curso de violão',
    image: 'https://cdn.example/violao.png',
    value: 4990,
    description: null,
    pix: true,
    creditCard: true,
    boleto: true,
    installments: 1,
    carne: { enabled: false, maxInstallments: 12, interestFactors: {} },
    isActive: true,
    createdAt: CREATED_AT,
    updatedAt: CREATED_AT,
    version: 1,
    ...overrides,
  };
}

/**
 * A seller's profile of a customer as the domain holds it: Maria, registered by the seller through
 * its API, with no address, no billing override and nothing overdue. `globalEmail` follows `email`
 * and `updatedAt` follows `createdAt` unless given.
 */
export function customerProfile(overrides: Partial<CustomerProfile> = {}): CustomerProfile {
  const email = overrides.email ?? 'maria@example.com';
  const createdAt = overrides.createdAt ?? CREATED_AT;
  return {
    tenant: SELLER,
    id: 11,
    uuid: '3f0c2c1e-8a77-4c55-9a8e-0b1d2e3f4a5b',
    document: '52998224725',
    personType: 'fisica',
    name: 'Maria Souza',
    email,
    phone: '11987654321',
    globalEmail: email,
    zipCode: null,
    street: null,
    number: null,
    complement: null,
    neighborhood: null,
    city: null,
    state: null,
    emailSource: 'seller',
    billingEmailOverride: null,
    overrideSetBy: null,
    overdueCount: 0,
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
}

/** The customer integration tests register (POST /api/v1/customers) and pay as. */
export const customerBody = {
  name: 'Maria Souza',
  email: 'maria@example.com',
  document: '52998224725',
  phone: '11987654321',
  personType: 'fisica',
};

/** The product integration tests create (POST /api/products): R$ 100,00. */
export const productBody = {
  name: 'Curso',
  image: 'https://cdn.example.com/c.png',
  value: 100,
};

type Body = Record<string, unknown>;

export interface SellerOptions {
  /** The seller's id, when the test chooses it; otherwise the file's next one. */
  sellerId?: number;
  /** Creates the seller's record under this name first (its id then comes from the store). */
  named?: string;
  /** The key's environment; `tenant` follows it. Default `test` (the sandbox). */
  environment?: Environment;
  /** The key's permissions. Default `write`. */
  permissions?: 'write' | 'read';
  /** Registers a customer with the key: `customerBody` with these fields over it. */
  customer?: Body;
  /** Creates a product with the key: `productBody` with these fields over it. */
  product?: Body;
}

/** What a seller scene holds: the dashboard token, one API key and, when asked, a customer and a product. */
export type SellerScene<O extends SellerOptions = SellerOptions> = {
  sellerId: number;
  jwt: string;
  key: string;
  keyId: string;
  tenant: Tenant;
} & (O extends { customer: Body } ? { customer: any } : unknown) &
  (O extends { product: Body } ? { product: any } : unknown);

/**
 * Sellers, customers and products made over HTTP against the file's runtime, as a seller makes them.
 * `firstSeller` keeps each test file's sellers apart; every request must succeed (201).
 */
export function sellerFixtures(
  current: () => { runtime: Runtime; api: ReturnType<typeof client> },
  firstSeller = 1,
) {
  let next = firstSeller;

  /** A seller id no other scene of this file used. */
  const nextSellerId = () => next++;

  /** An API key of the seller (its plain value and id). */
  async function apiKey(
    jwt: string,
    options: { environment?: Environment; permissions?: 'write' | 'read'; name?: string } = {},
  ): Promise<{ key: string; keyId: string }> {
    const body: Body = { name: options.name ?? 'k', environment: options.environment ?? 'test' };
    if (options.permissions) body.permissions = options.permissions;
    const res = await current().api.post('/api/api-keys', body, { token: jwt });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { key: res.body.key as string, keyId: res.body.id as string };
  }

  /** A customer registered with `key`: `customerBody` with `overrides` over it. */
  async function customer(key: string, overrides: Body = {}): Promise<any> {
    const res = await current().api.post(
      '/api/v1/customers',
      { ...customerBody, ...overrides },
      { token: key },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }

  /** A product created with `key`: `productBody` with `overrides` over it. */
  async function product(key: string, overrides: Body = {}): Promise<any> {
    const res = await current().api.post('/api/products', { ...productBody, ...overrides }, { token: key });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }

  /** A seller with a dashboard token signed at the test clock's time and one API key. */
  async function seller<O extends SellerOptions = Record<never, never>>(
    options: O = {} as O,
  ): Promise<SellerScene<O>> {
    const { runtime } = current();
    const now = runtime.clock.now();
    const sellerId =
      options.sellerId ??
      (options.named === undefined
        ? nextSellerId()
        : await runtime.deps.repos.sellers.create(options.named, now));
    const environment = options.environment ?? 'test';
    const jwt = await runtime.issuer.sign(sellerId, { now });
    const { key, keyId } = await apiKey(jwt, { environment, permissions: options.permissions });
    const scene: Body = { sellerId, jwt, key, keyId, tenant: { sellerId, environment } };
    if (options.customer) scene.customer = await customer(key, options.customer);
    if (options.product) scene.product = await product(key, options.product);
    return scene as SellerScene<O>;
  }

  return { nextSellerId, seller, apiKey, customer, product };
}
