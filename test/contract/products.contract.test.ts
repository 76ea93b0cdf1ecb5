import { describe, expect, it } from 'vitest';
import { createProductRepository } from '#shared/adapters/dynamodb/product-repository';
import { inUnitOfWork } from '#shared/adapters/dynamodb/unit-of-work';
import type { ProductRepository } from '#shared/domain/ports';
import type { Product } from '#shared/domain/products/products';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError, ValidationError } from '#shared/errors';
import { FakeProductRepository } from '../support/fakes/product-repository';
import { product as productFixture } from '../support/fixtures';
import { freshTable } from './support';

const SELLER: Tenant = { sellerId: 7, environment: 'test' };
const OTHER_SELLER: Tenant = { sellerId: 8, environment: 'test' };
const LIVE: Tenant = { sellerId: 7, environment: 'live' };

/** Ids sort by creation; the clock is fixed, so each product's time is derived from its id. */
const at = (id: number) => new Date(Date.UTC(2026, 0, 5, 10, 0, id)).toISOString();
const uuidOf = (t: Tenant, id: number) =>
  `00000000-0000-4000-8${t.environment === 'live' ? '1' : '0'}${String(t.sellerId).padStart(2, '0')}-${String(id).padStart(12, '0')}`;

function product(id: number, overrides: Partial<Product> = {}): Product {
  const tenant = overrides.tenant ?? SELLER;
  return productFixture({
    id,
    uuid: uuidOf(tenant, id),
    tenant,
    name: `Produto ${id}`,
    image: `https://cdn.example/${id}.png`,
    value: 4990 + id,
    boleto: false,
    installments: 3,
    createdAt: at(id),
    updatedAt: at(id),
    ...overrides,
  });
}

/** The repository's way to archive: the product moves tabs and the counters follow. */
async function archive(repo: ProductRepository, p: Product): Promise<Product> {
  const next = { ...p, isActive: false, updatedAt: at(100), version: p.version + 1 };
  await repo.save(next, p.version, [], { active: -1, archived: 1 });
  return next;
}

async function conflictOf(promise: Promise<unknown>): Promise<ConflictError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConflictError);
  return error as ConflictError;
}

const ids = (page: { items: Product[] }) => page.items.map((p) => p.id);

describe.each([
  ['in-memory fake', async (): Promise<ProductRepository> => new FakeProductRepository()],
  ['DynamoDB Local', async (): Promise<ProductRepository> => createProductRepository(await freshTable())],
])('ProductRepository contract (%s)', (_name, make) => {
  describe('create and read', () => {
    it('reads back every field of a created product by id and by uuid', async () => {
      const repo = await make();
      const created = product(1, {
        description: 'Aulas gravadas',
        carne: { enabled: true, maxInstallments: 6, interestFactors: { '2': 10_200, '6': 11_500 } },
        boleto: true,
        installments: 6,
      });
      await repo.create(created, []);

      expect(await repo.get(SELLER, 1)).toEqual(created);
      expect(await repo.findByUuid(created.uuid)).toEqual(created);
    });

    it('reads the product by uuid as every save left it, and lists it once', async () => {
      const repo = await make();
      const created = product(1, { boleto: true, installments: 6 });
      await repo.create(created, []);
      expect(await repo.findByUuid(created.uuid)).toEqual(created);

      const archived = await archive(repo, created);
      expect(await repo.findByUuid(created.uuid)).toEqual(archived);
      expect(await repo.findByUuid(uuidOf(SELLER, 2))).toBeNull();
      // The uuid copy is no second product: lists see one.
      expect((await repo.list(SELLER, { tab: 'all', page: 1, limit: 10 })).items).toEqual([archived]);
    });

    it('answers null for an id or uuid nobody created', async () => {
      const repo = await make();
      await repo.create(product(1), []);

      expect(await repo.get(SELLER, 2)).toBeNull();
      expect(await repo.findByUuid(uuidOf(SELLER, 2))).toBeNull();
    });

    it('refuses a second create of the same id with ConflictError already_exists and keeps the first', async () => {
      const repo = await make();
      await repo.create(product(1), []);

      const error = await conflictOf(repo.create(product(1, { name: 'Outro' }), []));
      expect(error.reason).toBe('already_exists');
      expect((await repo.get(SELLER, 1))?.name).toBe('Produto 1');
      expect((await repo.list(SELLER, { tab: 'active', page: 1, limit: 10 })).totalCount).toBe(1);
    });
  });

  describe('tenant isolation', () => {
    it("does not show another seller's or the other environment's product by id", async () => {
      const repo = await make();
      await repo.create(product(1), []);

      expect(await repo.get(OTHER_SELLER, 1)).toBeNull();
      expect(await repo.get(LIVE, 1)).toBeNull();
    });

    it('keeps the same id apart per tenant', async () => {
      const repo = await make();
      await repo.create(product(1, { name: 'Teste' }), []);
      await repo.create(product(1, { tenant: LIVE, name: 'Produção' }), []);
      await repo.create(product(1, { tenant: OTHER_SELLER, name: 'Outro vendedor' }), []);

      expect((await repo.get(SELLER, 1))?.name).toBe('Teste');
      expect((await repo.get(LIVE, 1))?.name).toBe('Produção');
      expect((await repo.get(OTHER_SELLER, 1))?.name).toBe('Outro vendedor');
    });

    it("finds any tenant's product by uuid (the payment link is public) and names its owner", async () => {
      const repo = await make();
      await repo.create(product(3, { tenant: OTHER_SELLER }), []);

      const found = await repo.findByUuid(uuidOf(OTHER_SELLER, 3));
      expect(found?.tenant).toEqual(OTHER_SELLER);
      expect(found?.id).toBe(3);
    });

    it("lists only the tenant's own products, with its own totals", async () => {
      const repo = await make();
      await repo.create(product(1), []);
      await repo.create(product(2), []);
      await repo.create(product(3, { tenant: OTHER_SELLER }), []);
      await repo.create(product(4, { tenant: LIVE }), []);

      const mine = await repo.list(SELLER, { tab: 'all', page: 1, limit: 10 });
      expect(ids(mine)).toEqual([2, 1]);
      expect(mine.totalCount).toBe(2);
      const live = await repo.list(LIVE, { tab: 'active', page: 1, limit: 10 });
      expect(ids(live)).toEqual([4]);
      expect(live.totalCount).toBe(1);
    });
  });

  describe('save (optimistic lock)', () => {
    it('replaces the product when the expected version is the stored one', async () => {
      const repo = await make();
      const p = product(1, { version: 3 });
      await repo.create(p, []);
      const next = { ...p, name: 'Curso novo', value: 9990, updatedAt: at(50), version: 4 };

      await repo.save(next, 3, []);

      expect(await repo.get(SELLER, 1)).toEqual(next);
      expect(await repo.findByUuid(p.uuid)).toEqual(next);
    });

    it('refuses a stale version with ConflictError changed (concurrent_update) and keeps the stored product', async () => {
      const repo = await make();
      const p = product(1);
      await repo.create(p, []);
      await repo.save({ ...p, name: 'Primeiro', version: 2 }, 1, []);

      const error = await conflictOf(repo.save({ ...p, name: 'Segundo', version: 2 }, 1, []));
      expect(error.reason).toBe('changed');
      expect(error.code).toBe('concurrent_update');
      const stored = await repo.get(SELLER, 1);
      expect(stored?.name).toBe('Primeiro');
      expect(stored?.version).toBe(2);
    });

    it('refuses to save a product that was never created (changed), writing nothing', async () => {
      const repo = await make();

      const error = await conflictOf(repo.save(product(9, { version: 2 }), 1, []));
      expect(error.reason).toBe('changed');
      expect(await repo.get(SELLER, 9)).toBeNull();
    });

    it("refuses a save under another tenant's key (changed)", async () => {
      const repo = await make();
      const p = product(1);
      await repo.create(p, []);

      const error = await conflictOf(repo.save({ ...p, tenant: OTHER_SELLER, version: 2 }, 1, []));
      expect(error.reason).toBe('changed');
      expect(await repo.get(OTHER_SELLER, 1)).toBeNull();
    });

    it('does not move the tab counters when the save is refused', async () => {
      const repo = await make();
      const p = product(1);
      await repo.create(p, []);

      await conflictOf(repo.save({ ...p, isActive: false, version: 6 }, 5, [], { active: -1, archived: 1 }));
      const active = await repo.list(SELLER, { tab: 'active', page: 1, limit: 10 });
      expect(ids(active)).toEqual([1]);
      expect(active.totalCount).toBe(1);
      expect((await repo.list(SELLER, { tab: 'archived', page: 1, limit: 10 })).totalCount).toBe(0);
    });
  });

  describe('list', () => {
    async function seeded() {
      const repo = await make();
      for (let id = 1; id <= 7; id++) await repo.create(product(id), []);
      return repo;
    }

    it('lists newest first with the total of the tab', async () => {
      const repo = await seeded();

      const page = await repo.list(SELLER, { tab: 'active', page: 1, limit: 10 });
      expect(ids(page)).toEqual([7, 6, 5, 4, 3, 2, 1]);
      expect(page.totalCount).toBe(7);
    });

    it('pages by page and limit, every page carrying the full total', async () => {
      const repo = await seeded();

      const pages = [];
      for (let n = 1; n <= 4; n++) pages.push(await repo.list(SELLER, { tab: 'active', page: n, limit: 3 }));
      expect(pages.map(ids)).toEqual([[7, 6, 5], [4, 3, 2], [1], []]);
      expect(pages.map((p) => p.totalCount)).toEqual([7, 7, 7, 7]);
    });

    it('answers an empty page with total 0 for a tenant without products', async () => {
      const repo = await make();

      for (const tab of ['active', 'archived', 'all'] as const)
        expect(await repo.list(SELLER, { tab, page: 1, limit: 10 })).toEqual({ items: [], totalCount: 0 });
    });

    it('moves an archived product to the archived tab and both counters with it', async () => {
      const repo = await seeded();
      const five = (await repo.get(SELLER, 5)) as Product;
      const two = (await repo.get(SELLER, 2)) as Product;
      await archive(repo, five);
      const archivedTwo = await archive(repo, two);

      const active = await repo.list(SELLER, { tab: 'active', page: 1, limit: 10 });
      expect(ids(active)).toEqual([7, 6, 4, 3, 1]);
      expect(active.totalCount).toBe(5);
      const archived = await repo.list(SELLER, { tab: 'archived', page: 1, limit: 10 });
      expect(ids(archived)).toEqual([5, 2]);
      expect(archived.totalCount).toBe(2);
      expect(archived.items[1]).toEqual(archivedTwo);
      const all = await repo.list(SELLER, { tab: 'all', page: 1, limit: 10 });
      expect(ids(all)).toEqual([7, 6, 5, 4, 3, 2, 1]);
      expect(all.totalCount).toBe(7);
    });

    it('pages the all tab across active and archived products with the sum of both counters', async () => {
      const repo = await seeded();
      await archive(repo, (await repo.get(SELLER, 6)) as Product);
      await archive(repo, (await repo.get(SELLER, 3)) as Product);

      const first = await repo.list(SELLER, { tab: 'all', page: 1, limit: 4 });
      const second = await repo.list(SELLER, { tab: 'all', page: 2, limit: 4 });
      expect([ids(first), ids(second)]).toEqual([
        [7, 6, 5, 4],
        [3, 2, 1],
      ]);
      expect([first.totalCount, second.totalCount]).toEqual([7, 7]);
    });

    it('searches a part of the name ignoring case and accents, totalling the matches', async () => {
      const repo = await make();
      await repo.create(product(1, { name: 'Curso de Violão' }), []);
      await repo.create(product(2, { name: 'Camiseta' }), []);
      await repo.create(product(3, { name: 'VIOLAO usado' }), []);
      await repo.create(product(4, { name: 'Aulas de violino' }), []);
      await repo.create(product(5, { name: 'Capa para violão', tenant: OTHER_SELLER }), []);

      const found = await repo.list(SELLER, { tab: 'active', search: 'violão', page: 1, limit: 10 });
      expect(ids(found)).toEqual([3, 1]);
      expect(found.totalCount).toBe(2);
      const paged = await repo.list(SELLER, { tab: 'all', search: 'VIOL', page: 2, limit: 2 });
      expect(ids(paged)).toEqual([1]);
      expect(paged.totalCount).toBe(3);
    });

    it('searches within the tab', async () => {
      const repo = await make();
      await repo.create(product(1, { name: 'Violão azul' }), []);
      const red = product(2, { name: 'Violão vermelho' });
      await repo.create(red, []);
      await archive(repo, red);

      const active = await repo.list(SELLER, { tab: 'active', search: 'violao', page: 1, limit: 10 });
      expect([ids(active), active.totalCount]).toEqual([[1], 1]);
      const archived = await repo.list(SELLER, { tab: 'archived', search: 'violao', page: 1, limit: 10 });
      expect([ids(archived), archived.totalCount]).toEqual([[2], 1]);
    });
  });

  describe('page (cursor)', () => {
    async function walk(repo: ProductRepository, tenant: Tenant, query: { active?: boolean; limit: number }) {
      const pages: number[][] = [];
      let cursor: string | undefined;
      do {
        const page = await repo.page(tenant, { ...query, cursor });
        pages.push(ids(page));
        cursor = page.cursor;
        if (pages.length > 10) throw new Error('the cursor never ends');
      } while (cursor);
      return pages;
    }

    it('pages every product newest first, the last page without a cursor and no counter among them', async () => {
      const repo = await make();
      for (let id = 1; id <= 7; id++) await repo.create(product(id), []);
      await archive(repo, (await repo.get(SELLER, 4)) as Product);

      expect(await walk(repo, SELLER, { limit: 3 })).toEqual([[7, 6, 5], [4, 3, 2], [1]]);
      expect(await walk(repo, SELLER, { limit: 7 })).toEqual([[7, 6, 5, 4, 3, 2, 1]]);
    });

    it('pages only the active or only the archived products', async () => {
      const repo = await make();
      for (let id = 1; id <= 5; id++) await repo.create(product(id), []);
      await archive(repo, (await repo.get(SELLER, 2)) as Product);
      await archive(repo, (await repo.get(SELLER, 5)) as Product);

      expect(await walk(repo, SELLER, { active: true, limit: 2 })).toEqual([[4, 3], [1]]);
      expect(await walk(repo, SELLER, { active: false, limit: 2 })).toEqual([[5, 2]]);
    });

    it("shows only the tenant's products and refuses another tenant's cursor (ValidationError)", async () => {
      const repo = await make();
      for (let id = 1; id <= 3; id++) await repo.create(product(id), []);
      await repo.create(product(9, { tenant: OTHER_SELLER }), []);
      await repo.create(product(8, { tenant: LIVE }), []);

      expect(await walk(repo, OTHER_SELLER, { limit: 5 })).toEqual([[9]]);
      expect(await walk(repo, LIVE, { limit: 5 })).toEqual([[8]]);
      const { cursor } = await repo.page(SELLER, { limit: 1 });
      expect(cursor).toBeDefined();
      for (const attempt of [
        repo.page(OTHER_SELLER, { limit: 1, cursor }),
        repo.page(SELLER, { limit: 1, cursor: 'not-a-cursor' }),
      ])
        expect(
          await attempt.then(
            () => null,
            (e: unknown) => e,
          ),
        ).toBeInstanceOf(ValidationError);
    });

    it('answers an empty page without a cursor for a tenant without products', async () => {
      const repo = await make();

      expect(await repo.page(SELLER, { limit: 10 })).toEqual({ items: [], cursor: undefined });
    });
  });
});

describe('ProductRepository on DynamoDB: the uuid copy', () => {
  it('reads a product by uuid in the BatchGetItem of the other reads its unit of work starts with it', async () => {
    const table = await freshTable();
    const repo = createProductRepository(table);
    const created = product(1);
    await repo.create(created, []);
    const sent: string[] = [];
    table.client.middlewareStack.add(
      (next, context) => async (args) => {
        sent.push(String(context.commandName));
        return next(args);
      },
      { step: 'initialize', name: 'countCommands' },
    );

    const [found, byId] = await inUnitOfWork(() =>
      Promise.all([repo.findByUuid(created.uuid), repo.get(SELLER, 1)]),
    );
    expect(found).toEqual(created);
    expect(byId).toEqual(created);
    expect(sent).toEqual(['BatchGetItemCommand']);
  });
});
