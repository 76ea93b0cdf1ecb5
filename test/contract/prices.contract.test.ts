import { describe, expect, it } from 'vitest';
import { createPriceRepository } from '#shared/adapters/dynamodb/price-repository';
import type { PriceRepository } from '#shared/domain/ports';
import type { SubscriptionPrice } from '#shared/domain/subscriptions/price';
import type { Tenant } from '#shared/domain/tenant';
import { FakePriceRepository } from '../support/fakes/price-repository';
import { conflictOf, freshTable } from './support';

const SELLER: Tenant = { sellerId: 7, environment: 'test' };
const OTHER_SELLER: Tenant = { sellerId: 8, environment: 'test' };
const LIVE: Tenant = { sellerId: 7, environment: 'live' };
const at = (n: number) => new Date(Date.UTC(2026, 2, 1, 9, n)).toISOString();
const PRODUCTS = {
  1: { id: 1, uuid: 'p0000000-0000-4000-8000-000000000001', name: 'Clube do Livro' },
  2: { id: 2, uuid: 'p0000000-0000-4000-8000-000000000002', name: 'Academia Online' },
} as const;

function price(
  id: number,
  overrides: Partial<SubscriptionPrice> & { productOf?: 1 | 2 } = {},
): SubscriptionPrice {
  const { productOf = 1, ...rest } = overrides;
  return {
    id,
    uuid: `9a000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    tenant: SELLER,
    product: { ...PRODUCTS[productOf] },
    name: `Plano ${id}`,
    unitAmount: 2_990 + id,
    billingInterval: 'month',
    intervalCount: 1,
    trialDays: 0,
    isActive: true,
    createdAt: at(id),
    updatedAt: at(id),
    version: 1,
    ...rest,
  };
}

describe.each([
  ['in-memory fake', async (): Promise<PriceRepository> => new FakePriceRepository()],
  ['DynamoDB Local', async (): Promise<PriceRepository> => createPriceRepository(await freshTable())],
])('PriceRepository contract (%s)', (_name, make) => {
  it('hands out increasing ids, starting at 1', async () => {
    const repo = await make();

    expect([await repo.nextId(), await repo.nextId(), await repo.nextId()]).toEqual([1, 2, 3]);
  });

  it('reads back every field by id and by uuid', async () => {
    const repo = await make();
    const yearly = price(1, { billingInterval: 'year', intervalCount: 1, trialDays: 30, name: 'Anual' });
    const weekly = price(2, { billingInterval: 'week', intervalCount: 2, productOf: 2 });
    for (const p of [yearly, weekly]) await repo.create(p);

    expect(await repo.get(SELLER, 1)).toEqual(yearly);
    expect(await repo.findByUuid(SELLER, weekly.uuid)).toEqual(weekly);
  });

  it("answers null for a missing price, and for another seller's or environment's by id and by uuid", async () => {
    const repo = await make();
    const mine = price(1);
    const theirs = price(2, { tenant: OTHER_SELLER });
    await repo.create(mine);
    await repo.create(theirs);

    expect(await repo.get(SELLER, 3)).toBeNull();
    expect(await repo.get(SELLER, 2)).toBeNull();
    expect(await repo.get(LIVE, 1)).toBeNull();
    expect(await repo.findByUuid(SELLER, theirs.uuid)).toBeNull();
    expect(await repo.findByUuid(LIVE, mine.uuid)).toBeNull();
    expect(await repo.findByUuid(SELLER, '9a000000-0000-4000-8000-000000000999')).toBeNull();
    expect(await repo.findByUuid(OTHER_SELLER, theirs.uuid)).toEqual(theirs);
  });

  it('refuses a second create of the same id with ConflictError already_exists, keeping the first', async () => {
    const repo = await make();
    await repo.create(price(1));

    const error = await conflictOf(repo.create(price(1, { name: 'Outro' })));

    expect(error.reason).toBe('already_exists');
    expect(await repo.get(SELLER, 1)).toEqual(price(1));
  });

  it("lists a product's prices newest first, active or not, none of another product or tenant", async () => {
    const repo = await make();
    for (const p of [
      price(1),
      price(2, { productOf: 2 }),
      price(3, { isActive: false }),
      price(4),
      price(5, { tenant: OTHER_SELLER }),
      price(6, { tenant: LIVE }),
    ])
      await repo.create(p);

    expect(await repo.listByProduct(SELLER, 1)).toEqual([price(4), price(3, { isActive: false }), price(1)]);
    expect((await repo.listByProduct(SELLER, 2)).map((p) => p.id)).toEqual([2]);
    expect((await repo.listByProduct(LIVE, 1)).map((p) => p.id)).toEqual([6]);
    expect(await repo.listByProduct(SELLER, 9)).toEqual([]);
  });

  it('saves on the version read (a deactivation), and refuses a stale version with ConflictError changed', async () => {
    const repo = await make();
    const p = price(1);
    await repo.create(p);
    const inactive = { ...p, isActive: false, updatedAt: at(30), version: 2 };

    await repo.save(inactive, p);
    const error = await conflictOf(repo.save({ ...p, name: 'Tarde', version: 2 }, p));

    expect(error.reason).toBe('changed');
    expect(await repo.get(SELLER, 1)).toEqual(inactive);
    expect(await repo.listByProduct(SELLER, 1)).toEqual([inactive]);
    expect((await conflictOf(repo.save({ ...price(9), version: 2 }, price(9)))).reason).toBe('changed');
  });
});
