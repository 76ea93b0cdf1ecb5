import { beforeEach, describe, expect, it } from 'vitest';
import { createIdempotencyRepository } from '#shared/adapters/dynamodb/idempotency-repository';
import {
  IDEMPOTENCY_TTL_SECONDS,
  IN_PROGRESS_LEASE_SECONDS,
  type StoredResponse,
} from '#shared/domain/idempotency';
import type { IdempotencyRepository } from '#shared/domain/ports';
import { ConflictError } from '#shared/errors';
import { FakeClock } from '../support/fakes/clock';
import { FakeIdempotencyRepository } from '../support/fakes/idempotency-repository';
import { freshTable } from './support';

const START = '2040-01-01T00:00:00.000Z';
const SCOPE = 'SELLER#1#test';
const FIRST = 'f'.repeat(64);
const OTHER = '0'.repeat(64);

const created: StoredResponse = {
  statusCode: 201,
  body: '{"id":7,"name":"Café com leite","value":12.5}',
  headers: { 'content-type': 'application/json', location: '/api/products/7' },
};

describe.each([
  ['in-memory fake', async (): Promise<IdempotencyRepository> => new FakeIdempotencyRepository()],
  [
    'DynamoDB Local',
    async (): Promise<IdempotencyRepository> => createIdempotencyRepository(await freshTable('idempotency')),
  ],
])('IdempotencyRepository contract (%s)', (_name, make) => {
  let repo: IdempotencyRepository;
  let clock: FakeClock;

  beforeEach(async () => {
    repo = await make();
    clock = new FakeClock(START);
  });

  describe('begin', () => {
    it('claims a key nobody used', async () => {
      expect(await repo.begin(SCOPE, 'order-1', FIRST, clock.now())).toEqual({ state: 'started' });
    });

    it('reports a claim still running, with the fingerprint of the request that holds it', async () => {
      await repo.begin(SCOPE, 'order-1', FIRST, clock.now());
      clock.advanceSeconds(5);
      expect(await repo.begin(SCOPE, 'order-1', FIRST, clock.now())).toEqual({
        state: 'in_progress',
        fingerprint: FIRST,
      });
      expect(await repo.begin(SCOPE, 'order-1', OTHER, clock.now())).toEqual({
        state: 'in_progress',
        fingerprint: FIRST,
      });
    });

    it('replays a completed claim: its fingerprint and the exact response stored', async () => {
      await repo.begin(SCOPE, 'order-1', FIRST, clock.now());
      clock.advanceSeconds(2);
      await repo.complete(SCOPE, 'order-1', created, clock.now());
      clock.advanceSeconds(3_600);
      const expected = { state: 'completed', fingerprint: FIRST, response: created };
      expect(await repo.begin(SCOPE, 'order-1', FIRST, clock.now())).toEqual(expected);
      expect(await repo.begin(SCOPE, 'order-1', OTHER, clock.now())).toEqual(expected);
    });

    it('lets exactly one of concurrent first requests claim the key', async () => {
      const outcomes = await Promise.all(
        [FIRST, OTHER, FIRST, OTHER, FIRST].map((f) => repo.begin(SCOPE, 'order-1', f, clock.now())),
      );
      expect(outcomes.filter((o) => o.state === 'started')).toHaveLength(1);
      expect(outcomes.filter((o) => o.state === 'in_progress')).toHaveLength(4);
    });

    it('keeps keys of another scope apart (another tenant can use the same key)', async () => {
      await repo.begin(SCOPE, 'order-1', FIRST, clock.now());
      await repo.complete(SCOPE, 'order-1', created, clock.now());
      expect(await repo.begin('SELLER#1#live', 'order-1', OTHER, clock.now())).toEqual({ state: 'started' });
      expect(await repo.begin('SELLER#2#test', 'order-1', OTHER, clock.now())).toEqual({ state: 'started' });
      expect(await repo.begin(SCOPE, 'order-2', OTHER, clock.now())).toEqual({ state: 'started' });
      expect((await repo.begin(SCOPE, 'order-1', OTHER, clock.now())).state).toBe('completed');
    });
  });

  describe('the in-progress lease', () => {
    it('holds the claim up to and including the lease’s last second', async () => {
      await repo.begin(SCOPE, 'order-1', FIRST, clock.now());
      clock.advanceSeconds(IN_PROGRESS_LEASE_SECONDS);
      expect(await repo.begin(SCOPE, 'order-1', OTHER, clock.now())).toEqual({
        state: 'in_progress',
        fingerprint: FIRST,
      });
    });

    it('lets a later request take over a claim whose request died, which then holds it itself', async () => {
      await repo.begin(SCOPE, 'order-1', FIRST, clock.now());
      clock.advanceSeconds(IN_PROGRESS_LEASE_SECONDS + 1);
      expect(await repo.begin(SCOPE, 'order-1', OTHER, clock.now())).toEqual({ state: 'started' });
      expect(await repo.begin(SCOPE, 'order-1', FIRST, clock.now())).toEqual({
        state: 'in_progress',
        fingerprint: OTHER,
      });
    });

    it('never applies to a completed claim', async () => {
      await repo.begin(SCOPE, 'order-1', FIRST, clock.now());
      await repo.complete(SCOPE, 'order-1', created, clock.now());
      clock.advanceSeconds(IN_PROGRESS_LEASE_SECONDS + 1);
      expect((await repo.begin(SCOPE, 'order-1', OTHER, clock.now())).state).toBe('completed');
    });
  });

  describe('expiry (24 hours from the claim)', () => {
    it('still replays the response in the claim’s last second, counted from begin, not complete', async () => {
      await repo.begin(SCOPE, 'order-1', FIRST, clock.now());
      clock.advanceSeconds(20);
      await repo.complete(SCOPE, 'order-1', created, clock.now());
      clock.set(new Date(Date.parse(START) + IDEMPOTENCY_TTL_SECONDS * 1000));
      expect(await repo.begin(SCOPE, 'order-1', OTHER, clock.now())).toEqual({
        state: 'completed',
        fingerprint: FIRST,
        response: created,
      });
    });

    it('frees the key once the claim has expired, even before the TTL deletes it', async () => {
      await repo.begin(SCOPE, 'order-1', FIRST, clock.now());
      clock.advanceSeconds(20);
      await repo.complete(SCOPE, 'order-1', created, clock.now());
      clock.set(new Date(Date.parse(START) + (IDEMPOTENCY_TTL_SECONDS + 1) * 1000));
      expect(await repo.begin(SCOPE, 'order-1', OTHER, clock.now())).toEqual({ state: 'started' });
      expect(await repo.begin(SCOPE, 'order-1', FIRST, clock.now())).toEqual({
        state: 'in_progress',
        fingerprint: OTHER,
      });
    });
  });

  describe('complete', () => {
    it('replaces the response of a claim completed twice with the last one', async () => {
      await repo.begin(SCOPE, 'order-1', FIRST, clock.now());
      await repo.complete(SCOPE, 'order-1', created, clock.now());
      const conflict: StoredResponse = { statusCode: 409, body: '{"code":"x"}', headers: {} };
      await repo.complete(SCOPE, 'order-1', conflict, clock.now());
      expect(await repo.begin(SCOPE, 'order-1', FIRST, clock.now())).toEqual({
        state: 'completed',
        fingerprint: FIRST,
        response: conflict,
      });
    });
  });

  describe('release', () => {
    it('frees an in-progress claim at once, so the same key starts again', async () => {
      await repo.begin(SCOPE, 'order-1', FIRST, clock.now());
      await repo.release(SCOPE, 'order-1');
      expect(await repo.begin(SCOPE, 'order-1', OTHER, clock.now())).toEqual({ state: 'started' });
    });

    it('refuses to release a completed claim (ConflictError, reason changed) and keeps replaying it', async () => {
      await repo.begin(SCOPE, 'order-1', FIRST, clock.now());
      await repo.complete(SCOPE, 'order-1', created, clock.now());
      const error = await repo.release(SCOPE, 'order-1').then(
        () => null,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ConflictError);
      expect(error).toMatchObject({ reason: 'changed', code: 'idempotency_not_in_progress' });
      expect((await repo.begin(SCOPE, 'order-1', FIRST, clock.now())).state).toBe('completed');
    });

    it('refuses to release a key that holds no claim (ConflictError, reason changed)', async () => {
      await expect(repo.release(SCOPE, 'never-claimed')).rejects.toMatchObject({
        name: 'ConflictError',
        reason: 'changed',
        code: 'idempotency_not_in_progress',
      });
    });

    it('releases only its own scope’s claim', async () => {
      await repo.begin(SCOPE, 'order-1', FIRST, clock.now());
      await repo.begin('SELLER#2#test', 'order-1', FIRST, clock.now());
      await repo.release('SELLER#2#test', 'order-1');
      expect(await repo.begin(SCOPE, 'order-1', OTHER, clock.now())).toEqual({
        state: 'in_progress',
        fingerprint: FIRST,
      });
    });
  });
});
