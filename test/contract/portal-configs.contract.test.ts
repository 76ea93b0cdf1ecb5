import { beforeEach, describe, expect, it } from 'vitest';
import { createPortalConfigRepository } from '#shared/adapters/dynamodb/portal-config-repository';
import { createProductRepository } from '#shared/adapters/dynamodb/product-repository';
import type { PortalConfigRepository, ProductRepository } from '#shared/domain/ports';
import type { PortalFields } from '#shared/domain/products/portal-config';
import type { Product } from '#shared/domain/products/products';
import type { Tenant } from '#shared/domain/tenant';
import { FakeClock } from '../support/fakes/clock';
import { FakePortalConfigRepository } from '../support/fakes/portal-config-repository';
import { FakeProductRepository } from '../support/fakes/product-repository';
import { product as productFixture } from '../support/fixtures';
import { freshTable } from './support';

const START = '2040-01-01T00:00:00.000Z';
const SELLER: Tenant = { sellerId: 1, environment: 'test' };
const LIVE: Tenant = { sellerId: 1, environment: 'live' };
const OTHER_SELLER: Tenant = { sellerId: 2, environment: 'test' };

interface Subject {
  portal: PortalConfigRepository;
  products: ProductRepository;
}

function product(id: number, tenant: Tenant = SELLER): Product {
  return productFixture({
    id,
    uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    tenant,
    name: `Produto ${id}`,
    image: 'https://cdn.example.com/p.png',
    value: 1_990,
    boleto: false,
    createdAt: START,
    updatedAt: START,
  });
}

const brand: PortalFields = {
  businessName: 'Loja Azul',
  logoUrl: 'https://cdn.example.com/logo.png',
  primaryColor: '#123ABC',
  allowCancelSubscription: false,
  customWelcomeText: 'Olá!\nBem-vindo.',
};

describe.each([
  [
    'in-memory fake',
    async (): Promise<Subject> => {
      const products = new FakeProductRepository();
      return { products, portal: new FakePortalConfigRepository(products) };
    },
  ],
  [
    'DynamoDB Local',
    async (): Promise<Subject> => {
      const table = await freshTable('portal');
      return { products: createProductRepository(table), portal: createPortalConfigRepository(table) };
    },
  ],
])('PortalConfigRepository contract (%s)', (_name, make) => {
  let portal: PortalConfigRepository;
  let products: ProductRepository;
  let clock: FakeClock;
  const now = () => clock.now().toISOString();

  beforeEach(async () => {
    ({ portal, products } = await make());
    clock = new FakeClock(START);
  });

  describe('get, replace and merge', () => {
    it('answers null when there is no configuration, for the seller and for a product', async () => {
      expect(await portal.get(SELLER)).toBeNull();
      expect(await portal.get(SELLER, 7)).toBeNull();
    });

    it('creates a seller configuration with exactly the fields given, and reads it back', async () => {
      const stored = await portal.replace(SELLER, undefined, brand, now());
      expect(stored).toEqual({ productId: null, fields: brand, createdAt: START, updatedAt: START });
      expect(await portal.get(SELLER)).toEqual(stored);
    });

    it('replace removes the fields not sent, keeps createdAt and moves updatedAt', async () => {
      await portal.replace(SELLER, 7, brand, now());
      clock.advanceSeconds(60);
      const replaced = await portal.replace(
        SELLER,
        7,
        { primaryColor: '#FFF', requireCancelReason: true },
        now(),
      );
      const expected = {
        productId: 7,
        fields: { primaryColor: '#FFF', requireCancelReason: true },
        createdAt: START,
        updatedAt: '2040-01-01T00:01:00.000Z',
      };
      expect(replaced).toEqual(expected);
      expect(await portal.get(SELLER, 7)).toEqual(expected);
    });

    it('merge writes only the fields given over the stored ones, keeping createdAt', async () => {
      await portal.replace(SELLER, undefined, brand, now());
      clock.advanceSeconds(30);
      const merged = await portal.merge(
        SELLER,
        undefined,
        { primaryColor: '#000000', allowViewInvoices: false },
        now(),
      );
      const expected = {
        productId: null,
        fields: { ...brand, primaryColor: '#000000', allowViewInvoices: false },
        createdAt: START,
        updatedAt: '2040-01-01T00:00:30.000Z',
      };
      expect(merged).toEqual(expected);
      expect(await portal.get(SELLER)).toEqual(expected);
    });

    it('merge creates the configuration when there is none', async () => {
      const merged = await portal.merge(SELLER, 7, { sendCancellationEmail: false }, now());
      expect(merged).toEqual({
        productId: 7,
        fields: { sendCancellationEmail: false },
        createdAt: START,
        updatedAt: START,
      });
    });

    it('stores null as a value (a cleared text), distinct from a field left out', async () => {
      await portal.replace(SELLER, undefined, brand, now());
      const merged = await portal.merge(
        SELLER,
        undefined,
        { businessName: null, customWelcomeText: null },
        now(),
      );
      expect(merged.fields).toEqual({ ...brand, businessName: null, customWelcomeText: null });
      const replaced = await portal.replace(SELLER, undefined, { logoUrl: null }, now());
      expect(replaced.fields).toEqual({ logoUrl: null });
    });

    it('keeps a product’s configuration apart from the seller’s and from other products’', async () => {
      await portal.replace(SELLER, undefined, { primaryColor: '#111' }, now());
      await portal.replace(SELLER, 7, { primaryColor: '#777' }, now());
      await portal.replace(SELLER, 8, { primaryColor: '#888' }, now());
      expect((await portal.get(SELLER))?.fields).toEqual({ primaryColor: '#111' });
      expect((await portal.get(SELLER, 7))?.fields).toEqual({ primaryColor: '#777' });
      expect((await portal.get(SELLER, 8))?.fields).toEqual({ primaryColor: '#888' });
    });

    it('never shows another seller’s or the other environment’s configuration', async () => {
      await portal.replace(SELLER, undefined, brand, now());
      await portal.replace(SELLER, 7, brand, now());
      for (const tenant of [LIVE, OTHER_SELLER]) {
        expect(await portal.get(tenant)).toBeNull();
        expect(await portal.get(tenant, 7)).toBeNull();
      }
      const other = await portal.merge(LIVE, undefined, { primaryColor: '#ABC' }, now());
      expect(other.fields).toEqual({ primaryColor: '#ABC' });
      expect((await portal.get(SELLER))?.fields).toEqual(brand);
    });
  });

  describe('delete', () => {
    it('removes the configuration and answers true', async () => {
      await portal.replace(SELLER, 7, brand, now());
      expect(await portal.delete(SELLER, 7)).toBe(true);
      expect(await portal.get(SELLER, 7)).toBeNull();
    });

    it('answers false when there is none, also the second time', async () => {
      expect(await portal.delete(SELLER)).toBe(false);
      await portal.replace(SELLER, undefined, brand, now());
      expect(await portal.delete(SELLER)).toBe(true);
      expect(await portal.delete(SELLER)).toBe(false);
    });

    it('removes only the one it names: the seller’s, not a product’s, and not another tenant’s', async () => {
      await portal.replace(SELLER, undefined, brand, now());
      await portal.replace(SELLER, 7, brand, now());
      await portal.replace(LIVE, undefined, brand, now());
      expect(await portal.delete(OTHER_SELLER)).toBe(false);
      await portal.delete(SELLER);
      expect(await portal.get(SELLER)).toBeNull();
      expect((await portal.get(SELLER, 7))?.fields).toEqual(brand);
      expect((await portal.get(LIVE))?.fields).toEqual(brand);
    });
  });

  describe('readForProduct', () => {
    const sellerFields: PortalFields = { primaryColor: '#111111' };
    const productFields: PortalFields = { primaryColor: '#777777', requireCancelReason: true };

    /** Product 7 with its configuration (indexed by its uuid, as the use cases write it) and the seller's. */
    async function seedBoth() {
      const p = product(7);
      await products.create(p, []);
      const seller = await portal.replace(SELLER, undefined, sellerFields, now());
      const own = await portal.replace(SELLER, p.id, productFields, now(), p.uuid);
      return { p, seller, own };
    }

    it('by id: the product with its configuration and, when asked, the seller’s', async () => {
      const { seller, own } = await seedBoth();
      expect(await portal.readForProduct(SELLER, { id: 7 }, true)).toEqual({
        productId: 7,
        product: own,
        seller,
      });
      expect(await portal.readForProduct(SELLER, { id: 7 }, false)).toEqual({
        productId: 7,
        product: own,
        seller: null,
      });
    });

    it('by uuid: the product with its configuration and, when asked, the seller’s', async () => {
      const { p, seller, own } = await seedBoth();
      expect(await portal.readForProduct(SELLER, { uuid: p.uuid }, true)).toEqual({
        productId: 7,
        product: own,
        seller,
      });
      expect(await portal.readForProduct(SELLER, { uuid: p.uuid }, false)).toEqual({
        productId: 7,
        product: own,
        seller: null,
      });
    });

    it('a product without a configuration of its own: product null, the seller’s still given', async () => {
      const p = product(7);
      await products.create(p, []);
      const seller = await portal.replace(SELLER, undefined, sellerFields, now());
      const expected = { productId: 7, product: null, seller };
      expect(await portal.readForProduct(SELLER, { id: 7 }, true)).toEqual(expected);
      expect(await portal.readForProduct(SELLER, { uuid: p.uuid }, true)).toEqual(expected);
    });

    it('a product and seller with no configuration at all: both null', async () => {
      const p = product(7);
      await products.create(p, []);
      const expected = { productId: 7, product: null, seller: null };
      expect(await portal.readForProduct(SELLER, { id: 7 }, true)).toEqual(expected);
      expect(await portal.readForProduct(SELLER, { uuid: p.uuid }, true)).toEqual(expected);
    });

    it('the configuration merged later is the one read', async () => {
      const { p, seller } = await seedBoth();
      clock.advanceSeconds(5);
      const own = await portal.merge(SELLER, p.id, { allowViewInvoices: false }, now(), p.uuid);
      expect(own.fields).toEqual({ ...productFields, allowViewInvoices: false });
      expect(await portal.readForProduct(SELLER, { uuid: p.uuid }, true)).toEqual({
        productId: 7,
        product: own,
        seller,
      });
    });

    it('a missing product: productId null and no product configuration, even one left under its id', async () => {
      await portal.replace(SELLER, 9, productFields, now(), product(9).uuid);
      const expected = { productId: null, product: null, seller: null };
      expect(await portal.readForProduct(SELLER, { id: 9 }, false)).toEqual(expected);
      expect(await portal.readForProduct(SELLER, { uuid: product(9).uuid }, false)).toEqual(expected);
    });

    it('another seller’s or environment’s product reads as missing, by id and by uuid', async () => {
      const { p } = await seedBoth();
      for (const tenant of [LIVE, OTHER_SELLER]) {
        const expected = { productId: null, product: null, seller: null };
        expect(await portal.readForProduct(tenant, { id: 7 }, false)).toEqual(expected);
        expect(await portal.readForProduct(tenant, { uuid: p.uuid }, false)).toEqual(expected);
      }
    });

    it('the other environment’s product of the same id keeps its own configuration', async () => {
      await seedBoth();
      const live = product(7, LIVE);
      await products.create({ ...live, uuid: '00000000-0000-4000-8000-0000000000aa' }, []);
      const liveOwn = await portal.replace(
        LIVE,
        7,
        { primaryColor: '#ABCDEF' },
        now(),
        '00000000-0000-4000-8000-0000000000aa',
      );
      expect(await portal.readForProduct(LIVE, { id: 7 }, true)).toEqual({
        productId: 7,
        product: liveOwn,
        seller: null,
      });
      expect(
        await portal.readForProduct(LIVE, { uuid: '00000000-0000-4000-8000-0000000000aa' }, true),
      ).toEqual({
        productId: 7,
        product: liveOwn,
        seller: null,
      });
    });

    it('an archived product keeps its configuration', async () => {
      const { p, seller, own } = await seedBoth();
      await products.save({ ...p, isActive: false, version: 2 }, 1, [], { active: -1, archived: 1 });
      expect(await portal.readForProduct(SELLER, { id: 7 }, true)).toEqual({
        productId: 7,
        product: own,
        seller,
      });
      expect(await portal.readForProduct(SELLER, { uuid: p.uuid }, true)).toEqual({
        productId: 7,
        product: own,
        seller,
      });
    });
  });
});
