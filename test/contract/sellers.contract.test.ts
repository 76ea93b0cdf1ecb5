import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#shared/adapters/dynamodb/keys';
import { createSellerRepository } from '#shared/adapters/dynamodb/seller-repository';
import type { SellerRepository } from '#shared/domain/ports';
import { ConflictError } from '#shared/errors';
import { FakeClock } from '../support/fakes/clock';
import { FakeSellerRepository } from '../support/fakes/seller-repository';
import { freshTable } from './support';

const START = '2040-01-01T00:00:00.000Z';

interface Subject {
  repo: SellerRepository;
  /** A seller stored under `id` behind the repository's back (an id the counter has not reached). */
  occupy(id: number): Promise<void>;
}

describe.each([
  [
    'in-memory fake',
    async (): Promise<Subject> => {
      const repo = new FakeSellerRepository();
      return {
        repo,
        occupy: async (id) => {
          repo.seed({ id, name: 'Imported', createdAt: START });
        },
      };
    },
  ],
  [
    'DynamoDB Local',
    async (): Promise<Subject> => {
      const table = await freshTable('sellers');
      return {
        repo: createSellerRepository(table),
        occupy: (id) =>
          table.put({
            ...keys.seller(id),
            entity: 'seller',
            version: 1,
            id,
            name: 'Imported',
            createdAt: START,
          }),
      };
    },
  ],
])('SellerRepository contract (%s)', (_name, make) => {
  let subject: Subject;
  let repo: SellerRepository;
  let clock: FakeClock;

  beforeEach(async () => {
    subject = await make();
    repo = subject.repo;
    clock = new FakeClock(START);
  });

  it('numbers sellers 1, 2, 3 … from an empty store', async () => {
    expect(await repo.create('Loja A', clock.now())).toBe(1);
    expect(await repo.create('Loja B', clock.now())).toBe(2);
    expect(await repo.create('Loja C', clock.now())).toBe(3);
  });

  it('gives concurrent creates distinct ids', async () => {
    const ids = await Promise.all([1, 2, 3, 4, 5].map((n) => repo.create(`Loja ${n}`, clock.now())));
    expect(ids.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5]);
  });

  it('knows a created seller exists', async () => {
    const id = await repo.create('Loja A', clock.now());
    expect(await repo.exists(id)).toBe(true);
  });

  it('answers false for ids never created', async () => {
    await repo.create('Loja A', clock.now());
    expect(await repo.exists(0)).toBe(false);
    expect(await repo.exists(2)).toBe(false);
    expect(await repo.exists(999_999)).toBe(false);
  });

  it('creates two sellers with the same name (names are not unique)', async () => {
    const a = await repo.create('Loja', clock.now());
    const b = await repo.create('Loja', clock.now());
    expect([a, b]).toEqual([1, 2]);
    expect([await repo.exists(a), await repo.exists(b)]).toEqual([true, true]);
  });

  it('refuses to overwrite a seller whose id is taken (already_exists) and moves on to the next id', async () => {
    await subject.occupy(1);
    const error = await repo.create('Loja A', clock.now()).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConflictError);
    expect(error).toMatchObject({ reason: 'already_exists', code: 'already_exists' });
    expect(await repo.create('Loja A', clock.now())).toBe(2);
  });
});
