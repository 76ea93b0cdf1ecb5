import { beforeEach, describe, expect, it } from 'vitest';
import { createAffiliationRepository } from '#shared/adapters/dynamodb/affiliation-repository';
import { createSellerRepository } from '#shared/adapters/dynamodb/seller-repository';
import { type Affiliation, UnknownAffiliateError } from '#shared/domain/affiliates/affiliation';
import type { AffiliationRepository, SellerRepository } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError, isConflict } from '#shared/errors';
import { FakeAffiliationRepository } from '../support/fakes/affiliation-repository';
import { FakeSellerRepository } from '../support/fakes/seller-repository';
import { freshTable } from './support';

const START = '2040-01-01T00:00:00.000Z';
const LATER = '2040-01-02T00:00:00.000Z';
const LATEST = '2040-01-03T00:00:00.000Z';

interface Subject {
  affiliations: AffiliationRepository;
  sellers: SellerRepository;
}

const caught = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (e: unknown) => e,
  );

describe.each([
  [
    'in-memory fake',
    async (): Promise<Subject> => {
      const sellers = new FakeSellerRepository();
      return { sellers, affiliations: new FakeAffiliationRepository(sellers) };
    },
  ],
  [
    'DynamoDB Local',
    async (): Promise<Subject> => {
      const table = await freshTable('affiliations');
      return { sellers: createSellerRepository(table), affiliations: createAffiliationRepository(table) };
    },
  ],
])('AffiliationRepository contract (%s)', (_name, make) => {
  let repo: AffiliationRepository;
  let owner: Tenant;
  let affiliate: number;
  let otherAffiliate: number;

  const affiliation = (overrides: Partial<Affiliation> = {}): Affiliation => ({
    tenant: owner,
    productId: 7,
    affiliateId: affiliate,
    commissionBasisPoints: 1_250,
    status: 'active',
    createdAt: START,
    updatedAt: START,
    endedAt: null,
    ...overrides,
  });

  beforeEach(async () => {
    const subject = await make();
    repo = subject.affiliations;
    const at = new Date(START);
    owner = { sellerId: await subject.sellers.create('Produtora', at), environment: 'test' };
    affiliate = await subject.sellers.create('Afiliada', at);
    otherAffiliate = await subject.sellers.create('Outra afiliada', at);
  });

  it('stores an affiliation and reads it back whole', async () => {
    await repo.add(affiliation());
    expect(await repo.get(owner, 7, affiliate)).toEqual(affiliation());
  });

  it('answers null for a pair with no affiliation', async () => {
    await repo.add(affiliation());
    expect(await repo.get(owner, 7, otherAffiliate)).toBeNull();
    expect(await repo.get(owner, 8, affiliate)).toBeNull();
  });

  it('keeps affiliations to their tenant: another seller or environment reads nothing', async () => {
    await repo.add(affiliation());
    expect(await repo.get({ ...owner, environment: 'live' }, 7, affiliate)).toBeNull();
    expect(await repo.get({ sellerId: affiliate, environment: 'test' }, 7, affiliate)).toBeNull();
    expect(await repo.listByProduct({ ...owner, environment: 'live' }, 7)).toEqual([]);
  });

  it('refuses an affiliate that is not a seller and writes nothing', async () => {
    const error = await caught(repo.add(affiliation({ affiliateId: 999_999 })));
    expect(error).toBeInstanceOf(UnknownAffiliateError);
    expect(error).toMatchObject({
      statusCode: 400,
      messages: ['affiliateId must be the id of an existing seller'],
    });
    expect(await repo.get(owner, 7, 999_999)).toBeNull();
  });

  it('refuses a second active affiliation of the pair (already_exists) and keeps the first', async () => {
    await repo.add(affiliation());
    const error = await caught(repo.add(affiliation({ commissionBasisPoints: 5_000, createdAt: LATER })));
    expect(error).toBeInstanceOf(ConflictError);
    expect(isConflict(error, 'already_exists')).toBe(true);
    expect(await repo.get(owner, 7, affiliate)).toEqual(affiliation());
  });

  it('ends an active affiliation and answers it ended', async () => {
    await repo.add(affiliation());
    const ended = await repo.end(owner, 7, affiliate, LATER);
    const expected = affiliation({ status: 'ended', endedAt: LATER, updatedAt: LATER });
    expect(ended).toEqual(expected);
    expect(await repo.get(owner, 7, affiliate)).toEqual(expected);
  });

  it('answers null when ending a pair with no affiliation (or another tenant’s)', async () => {
    expect(await repo.end(owner, 7, affiliate, LATER)).toBeNull();
    await repo.add(affiliation());
    expect(await repo.end({ ...owner, environment: 'live' }, 7, affiliate, LATER)).toBeNull();
    expect((await repo.get(owner, 7, affiliate))?.status).toBe('active');
  });

  it('leaves an ended affiliation as it is when ended again (invalid_state, carrying it)', async () => {
    await repo.add(affiliation());
    await repo.end(owner, 7, affiliate, LATER);
    const error = await caught(repo.end(owner, 7, affiliate, LATEST));
    expect(isConflict(error, 'invalid_state')).toBe(true);
    const expected = affiliation({ status: 'ended', endedAt: LATER, updatedAt: LATER });
    expect((error as ConflictError).current).toEqual(expected);
    expect(await repo.get(owner, 7, affiliate)).toEqual(expected);
  });

  it('replaces an ended affiliation with a new active one', async () => {
    await repo.add(affiliation());
    await repo.end(owner, 7, affiliate, LATER);
    const again = affiliation({ commissionBasisPoints: 3_000, createdAt: LATEST, updatedAt: LATEST });
    await repo.add(again);
    expect(await repo.get(owner, 7, affiliate)).toEqual(again);
  });

  it('lists the affiliations of one product only, by affiliate id, filtered by status', async () => {
    await repo.add(affiliation({ affiliateId: otherAffiliate, commissionBasisPoints: 500 }));
    await repo.add(affiliation());
    // Products 70 and 700 share the digits of 7: their affiliations must not leak into 7's list.
    await repo.add(affiliation({ productId: 70 }));
    await repo.add(affiliation({ productId: 700 }));
    await repo.add(affiliation({ productId: 6 }));
    await repo.end(owner, 7, otherAffiliate, LATER);

    const all = await repo.listByProduct(owner, 7);
    expect(all.map((a) => [a.affiliateId, a.status])).toEqual([
      [affiliate, 'active'],
      [otherAffiliate, 'ended'],
    ]);
    expect(all[1]).toEqual(
      affiliation({
        affiliateId: otherAffiliate,
        commissionBasisPoints: 500,
        status: 'ended',
        endedAt: LATER,
        updatedAt: LATER,
      }),
    );
    expect((await repo.listByProduct(owner, 7, 'active')).map((a) => a.affiliateId)).toEqual([affiliate]);
    expect((await repo.listByProduct(owner, 7, 'ended')).map((a) => a.affiliateId)).toEqual([otherAffiliate]);
    expect(await repo.listByProduct(owner, 8)).toEqual([]);
  });
});
