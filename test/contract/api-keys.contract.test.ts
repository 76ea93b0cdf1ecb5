import { beforeEach, describe, expect, it } from 'vitest';
import { createApiKeyRepository } from '#shared/adapters/dynamodb/api-key-repository';
import {
  ApiKeyLimitError,
  type ApiKeyRecord,
  DuplicateKeyNameError,
  hashKey,
} from '#shared/domain/auth/api-keys';
import { rateWindow } from '#shared/domain/auth/rate-limit';
import type { ApiKeyRepository } from '#shared/domain/ports';
import { ConflictError } from '#shared/errors';
import { FakeApiKeyRepository } from '../support/fakes/api-key-repository';
import { FakeClock } from '../support/fakes/clock';
import { freshTable } from './support';

/** A window boundary: 2040-01-01T00:00:00Z is a whole minute. */
const START = '2040-01-01T00:00:00.000Z';
const DYNAMO = 'DynamoDB Local';

function record(n: number, overrides: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  const environment = overrides.environment ?? 'test';
  return {
    id: `key_${String(n).padStart(20, '0')}`,
    sellerId: 1,
    environment,
    name: `Key ${n}`,
    keyPreview: `sk_${environment}_…${String(n).padStart(4, '0')}`,
    permissions: 'write',
    createdAt: START,
    lastUsedAt: null,
    revokedAt: null,
    hash: hashKey(`sk_${environment}_secret-${n}`),
    ...overrides,
  };
}

/** The conflict a create throws, for asserting its class, reason and code together. */
async function conflictOf(write: Promise<unknown>) {
  const error = await write.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConflictError);
  const conflict = error as ConflictError;
  return { type: conflict.constructor.name, reason: conflict.reason, code: conflict.code };
}

describe.each([
  ['in-memory fake', async (): Promise<ApiKeyRepository> => new FakeApiKeyRepository()],
  [DYNAMO, async (): Promise<ApiKeyRepository> => createApiKeyRepository(await freshTable('apikeys'))],
])('ApiKeyRepository contract (%s)', (_name, make) => {
  let repo: ApiKeyRepository;
  let clock: FakeClock;

  beforeEach(async () => {
    repo = await make();
    clock = new FakeClock(START);
  });

  describe('create and list', () => {
    it('lists a created key exactly as it was given, never used nor revoked', async () => {
      const key = record(1, { permissions: 'read' });
      await repo.create(key);
      expect(await repo.list(1)).toEqual([key]);
    });

    it('lists a seller’s keys newest first, the id breaking ties between keys created in one instant', async () => {
      const a = record(1, { createdAt: '2040-01-01T00:00:01.000Z' });
      const b = record(2, { createdAt: '2040-01-01T00:00:03.000Z' });
      const c = record(3, { createdAt: '2040-01-01T00:00:02.000Z' });
      const d = record(4, { createdAt: '2040-01-01T00:00:02.000Z' });
      for (const k of [a, b, c, d]) await repo.create(k);
      expect((await repo.list(1)).map((k) => k.id)).toEqual([b.id, d.id, c.id, a.id]);
    });

    it('filters by environment when asked, and lists both environments otherwise', async () => {
      const test = record(1, { environment: 'test', createdAt: '2040-01-01T00:00:01.000Z' });
      const live = record(2, { environment: 'live', createdAt: '2040-01-01T00:00:02.000Z' });
      await repo.create(test);
      await repo.create(live);
      expect(await repo.list(1, 'test')).toEqual([test]);
      expect(await repo.list(1, 'live')).toEqual([live]);
      expect(await repo.list(1)).toEqual([live, test]);
    });

    it('never lists another seller’s keys', async () => {
      await repo.create(record(1, { sellerId: 1 }));
      const other = record(2, { sellerId: 2 });
      await repo.create(other);
      expect(await repo.list(2)).toEqual([other]);
      expect(await repo.list(3)).toEqual([]);
    });
  });

  describe('uniqueness', () => {
    it('refuses a second active key with the same name in the same environment, writing nothing', async () => {
      const first = record(1, { name: 'Production' });
      await repo.create(first);
      const second = record(2, { name: 'Production' });
      expect(await conflictOf(repo.create(second))).toEqual({
        type: DuplicateKeyNameError.name,
        reason: 'already_exists',
        code: 'duplicate_api_key_name',
      });
      expect(await repo.list(1)).toEqual([first]);
      expect(await repo.authenticate(second.hash, clock.now(), rateWindow(clock.now()))).toBeNull();
    });

    it('compares names ignoring case', async () => {
      await repo.create(record(1, { name: 'Production' }));
      await expect(repo.create(record(2, { name: 'PRODUCTION' }))).rejects.toBeInstanceOf(
        DuplicateKeyNameError,
      );
    });

    it('allows the same name in the other environment and for another seller', async () => {
      await repo.create(record(1, { name: 'Main', environment: 'test' }));
      await repo.create(record(2, { name: 'Main', environment: 'live' }));
      await repo.create(record(3, { name: 'Main', sellerId: 2 }));
      expect((await repo.list(1)).map((k) => k.name)).toEqual(['Main', 'Main']);
      expect((await repo.list(2)).map((k) => k.name)).toEqual(['Main']);
    });

    it('refuses a key whose hash is already stored with a plain already_exists conflict', async () => {
      const first = record(1);
      await repo.create(first);
      expect(await conflictOf(repo.create(record(2, { hash: first.hash })))).toEqual({
        type: ConflictError.name,
        reason: 'already_exists',
        code: 'already_exists',
      });
      expect(await repo.list(1)).toEqual([first]);
    });

    it('refuses a second key with the same id for one seller (already_exists), not for another seller', async () => {
      const first = record(1);
      await repo.create(first);
      const sameId = record(2, { id: first.id });
      expect(await conflictOf(repo.create(sameId))).toEqual({
        type: ConflictError.name,
        reason: 'already_exists',
        code: 'already_exists',
      });
      expect(await repo.list(1)).toEqual([first]);
      const otherSeller = record(3, { id: first.id, sellerId: 2 });
      await repo.create(otherSeller);
      expect(await repo.list(2)).toEqual([otherSeller]);
    });

    it('lets exactly one of concurrent creates with the same name win; the others are conflicts', async () => {
      const attempts = [1, 2, 3, 4, 5].map((n) => record(n, { name: 'Race' }));
      const results = await Promise.allSettled(attempts.map((k) => repo.create(k)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const losers = results.flatMap((r) => (r.status === 'rejected' ? [r.reason] : []));
      expect(losers).toHaveLength(4);
      for (const loser of losers) expect(loser).toBeInstanceOf(ConflictError);
      expect((await repo.list(1)).map((k) => k.name)).toEqual(['Race']);
    });

    it('frees the name once its key is revoked', async () => {
      const first = record(1, { name: 'Rotated' });
      await repo.create(first);
      await repo.revoke(1, first.id, clock.now());
      const second = record(2, { name: 'Rotated', createdAt: '2040-01-01T00:01:00.000Z' });
      await repo.create(second);
      expect((await repo.list(1)).map((k) => [k.id, k.revokedAt])).toEqual([
        [second.id, null],
        [first.id, START],
      ]);
    });
  });

  describe('revoke', () => {
    it('answers the revoked record, and the list shows it revoked', async () => {
      const key = record(1);
      await repo.create(key);
      clock.advanceSeconds(90);
      const revoked = await repo.revoke(1, key.id, clock.now());
      expect(revoked).toEqual({ ...key, revokedAt: '2040-01-01T00:01:30.000Z' });
      expect(await repo.list(1)).toEqual([revoked]);
    });

    it('answers null for a key already revoked, keeping the first revocation time', async () => {
      const key = record(1);
      await repo.create(key);
      await repo.revoke(1, key.id, clock.now());
      clock.advanceSeconds(60);
      expect(await repo.revoke(1, key.id, clock.now())).toBeNull();
      expect((await repo.list(1))[0].revokedAt).toBe(START);
    });

    it('answers null for an unknown id and for another seller’s key, which stays active', async () => {
      const key = record(1, { sellerId: 1 });
      await repo.create(key);
      expect(await repo.revoke(1, 'key_unknown', clock.now())).toBeNull();
      expect(await repo.revoke(2, key.id, clock.now())).toBeNull();
      expect(await repo.list(1)).toEqual([key]);
      expect(await repo.authenticate(key.hash, clock.now(), rateWindow(clock.now()))).not.toBeNull();
    });

    // DELETE /api/api-keys/{id} answers this record: a used key shows when it was last used.
    it('answers the revoked record with the time it was last used', async () => {
      const key = record(1);
      await repo.create(key);
      await repo.authenticate(key.hash, clock.now(), rateWindow(clock.now()));
      clock.advanceSeconds(30);
      const revoked = await repo.revoke(1, key.id, clock.now());
      expect(revoked).toEqual({ ...key, lastUsedAt: START, revokedAt: '2040-01-01T00:00:30.000Z' });
      expect(await repo.list(1)).toEqual([revoked]);
    });
  });

  describe('authenticate', () => {
    const at = (seconds: number) => new Date(Date.parse(START) + seconds * 1000);
    const auth = (hash: string, seconds: number) =>
      repo.authenticate(hash, at(seconds), rateWindow(at(seconds)));

    it('answers null for a hash it does not know', async () => {
      expect(await auth(hashKey('sk_test_unknown'), 0)).toBeNull();
    });

    it('answers the record with lastUsedAt stamped and the request counted, and the list shows the use', async () => {
      const key = record(1);
      await repo.create(key);
      expect(await auth(key.hash, 5)).toEqual({
        record: { ...key, lastUsedAt: '2040-01-01T00:00:05.000Z' },
        count: 1,
        sharesSellerLimit: false,
      });
      expect((await repo.list(1))[0].lastUsedAt).toBe('2040-01-01T00:00:05.000Z');
    });

    it('counts every request of one fixed minute and starts again at 1 in the next', async () => {
      const key = record(1);
      await repo.create(key);
      const counts = [];
      for (const s of [0, 10, 59, 60, 61, 119, 120]) counts.push((await auth(key.hash, s))?.count);
      expect(counts).toEqual([1, 2, 3, 1, 2, 3, 1]);
    });

    it('starts at 1 after an idle gap of an even number of minutes (the slot of that parity is stale)', async () => {
      const key = record(1);
      await repo.create(key);
      for (const s of [0, 1, 2]) await auth(key.hash, s);
      expect((await auth(key.hash, 120))?.count).toBe(1);
      expect((await auth(key.hash, 121))?.count).toBe(2);
      expect((await auth(key.hash, 360))?.count).toBe(1);
    });

    it('starts at 1 after an idle gap of an odd number of minutes', async () => {
      const key = record(1);
      await repo.create(key);
      for (const s of [0, 1]) await auth(key.hash, s);
      expect((await auth(key.hash, 180))?.count).toBe(1);
    });

    it('counts concurrent requests of one minute exactly once each', async () => {
      const key = record(1);
      await repo.create(key);
      const counts = await Promise.all(Array.from({ length: 12 }, (_, i) => auth(key.hash, i)));
      expect(counts.map((c) => c?.count).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
        Array.from({ length: 12 }, (_, i) => i + 1),
      );
    });

    it('counts each key on its own', async () => {
      const a = record(1);
      const b = record(2);
      await repo.create(a);
      await repo.create(b);
      await auth(a.hash, 0);
      await auth(a.hash, 1);
      expect((await auth(b.hash, 2))?.count).toBe(1);
      expect((await auth(a.hash, 3))?.count).toBe(3);
    });

    it('tells a revoked key (isRevoked) from an active or unknown one', async () => {
      const key = record(1);
      await repo.create(key);
      expect(await repo.isRevoked(key.hash)).toBe(false);
      expect(await repo.isRevoked(hashKey('sk_test_unknown'))).toBe(false);
      await repo.revoke(1, key.id, at(10));
      expect(await repo.isRevoked(key.hash)).toBe(true);
    });

    it('answers null for a revoked key and no longer stamps it', async () => {
      const key = record(1);
      await repo.create(key);
      await auth(key.hash, 0);
      await repo.revoke(1, key.id, at(10));
      expect(await auth(key.hash, 20)).toBeNull();
      expect(await auth(key.hash, 120)).toBeNull();
      expect((await repo.list(1))[0]).toEqual({
        ...key,
        lastUsedAt: START,
        revokedAt: '2040-01-01T00:00:10.000Z',
      });
    });
  });
  describe('the cap and the shared limit', () => {
    const at = (seconds: number) => new Date(Date.parse(START) + seconds * 1000);
    const shares = async (hash: string) =>
      (await repo.authenticate(hash, at(0), rateWindow(at(0))))?.sharesSellerLimit;

    it('refuses a key past the maximum of active keys of the seller and environment, with ApiKeyLimitError', async () => {
      for (let n = 1; n <= 3; n++) await repo.create(record(n), 3);
      const error = await repo.create(record(4), 3).then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ApiKeyLimitError);
      expect(error).toMatchObject({ statusCode: 409, code: 'limit_reached' });
      expect((await repo.list(1)).map((k) => k.id)).not.toContain(record(4).id);
      // The other environment and other sellers have places of their own.
      await repo.create(record(5, { environment: 'live' }), 3);
      await repo.create(record(6, { sellerId: 2 }), 3);
    });

    it('gives a revoked key’s place back', async () => {
      for (let n = 1; n <= 2; n++) await repo.create(record(n), 2);
      await repo.revoke(1, record(1).id, at(1));
      await repo.create(record(3), 2);
      expect((await repo.list(1, 'test')).filter((k) => !k.revokedAt)).toHaveLength(2);
    });

    it('never lets concurrent creates past the cap, each refusal a 409', async () => {
      const outcomes = await Promise.allSettled([1, 2, 3, 4, 5].map((n) => repo.create(record(n), 3)));
      const made = outcomes.filter((o) => o.status === 'fulfilled').length;
      expect(made).toBeGreaterThanOrEqual(1);
      expect(made).toBeLessThanOrEqual(3);
      expect(await repo.list(1, 'test')).toHaveLength(made);
      for (const o of outcomes)
        if (o.status === 'rejected') expect(o.reason).toMatchObject({ statusCode: 409 });
    });

    it("says a key shares its seller's limit when its seller has another active key in its environment", async () => {
      const first = record(1);
      await repo.create(first, 50);
      expect(await shares(first.hash)).toBe(false);
      const live = record(2, { environment: 'live' });
      await repo.create(live, 50);
      expect(await shares(first.hash)).toBe(false);
      const second = record(3);
      await repo.create(second, 50);
      expect(await shares(first.hash)).toBe(true);
      expect(await shares(second.hash)).toBe(true);
      expect(await shares(live.hash)).toBe(false);
    });
  });
});
