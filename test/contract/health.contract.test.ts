import { beforeEach, describe, expect, it } from 'vitest';
import { createHealthRepository } from '#shared/adapters/dynamodb/health-repository';
import type { HealthRepository } from '#shared/domain/ports';
import { FakeClock } from '../support/fakes/clock';
import { FakeHealthRepository } from '../support/fakes/health-repository';
import { freshTable } from './support';

const START = '2040-01-01T00:00:00.000Z';

describe.each([
  ['in-memory fake', async (): Promise<HealthRepository> => new FakeHealthRepository()],
  [
    'DynamoDB Local',
    async (): Promise<HealthRepository> => createHealthRepository(await freshTable('health')),
  ],
])('HealthRepository contract (%s)', (_name, make) => {
  let repo: HealthRepository;
  let clock: FakeClock;

  beforeEach(async () => {
    repo = await make();
    clock = new FakeClock(START);
  });

  describe('ping', () => {
    it('resolves when the store answers, even on an empty store', async () => {
      await expect(repo.ping(new AbortController().signal)).resolves.toBeUndefined();
    });

    it('rejects with an AbortError when its signal is already aborted (the check gave up)', async () => {
      const controller = new AbortController();
      controller.abort();
      await expect(repo.ping(controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
    });
  });

  describe('heartbeat', () => {
    it('reads null before the first heartbeat', async () => {
      expect(await repo.readHeartbeat()).toBeNull();
    });

    it('reads back the time of a heartbeat, to the millisecond, as the first run', async () => {
      clock.set('2040-01-01T00:05:00.123Z');
      await repo.writeHeartbeat(clock.now());
      expect(await repo.readHeartbeat()).toEqual({
        lastRunAt: new Date('2040-01-01T00:05:00.123Z'),
        runs: 1,
      });
    });

    it('counts every heartbeat and keeps the time of the last one', async () => {
      for (let i = 0; i < 3; i++) {
        await repo.writeHeartbeat(clock.now());
        clock.advanceSeconds(300);
      }
      expect(await repo.readHeartbeat()).toEqual({
        lastRunAt: new Date('2040-01-01T00:10:00.000Z'),
        runs: 3,
      });
    });

    it('counts concurrent heartbeats once each', async () => {
      await Promise.all(Array.from({ length: 5 }, () => repo.writeHeartbeat(clock.now())));
      expect(await repo.readHeartbeat()).toEqual({ lastRunAt: new Date(START), runs: 5 });
    });

    it('is not touched by a ping', async () => {
      await repo.ping(new AbortController().signal);
      expect(await repo.readHeartbeat()).toBeNull();
    });
  });
});
