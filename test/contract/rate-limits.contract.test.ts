import { beforeEach, describe, expect, it } from 'vitest';
import {
  createFailedAuthCounter,
  createRateLimitRepository,
} from '#shared/adapters/dynamodb/rate-limit-repository';
import { rateWindow } from '#shared/domain/auth/rate-limit';
import type { RateLimitRepository } from '#shared/domain/ports';
import { FakeRateLimitRepository } from '../support/fakes/rate-limit-repository';
import { freshTable } from './support';

/** A window boundary: 2040-01-01T00:00:00Z is a whole minute. */
const START = Date.parse('2040-01-01T00:00:00.000Z');
const at = (seconds: number) => new Date(START + seconds * 1000);

describe.each([
  ['in-memory fake', async (): Promise<RateLimitRepository> => new FakeRateLimitRepository()],
  [
    'DynamoDB Local',
    async (): Promise<RateLimitRepository> => createRateLimitRepository(await freshTable('rate')),
  ],
])('RateLimitRepository contract (%s)', (_name, make) => {
  let repo: RateLimitRepository;
  const hit = (principal: string, seconds: number) =>
    repo.hit(principal, at(seconds), rateWindow(at(seconds)));
  const hits = async (principal: string, seconds: number[]) => {
    const counts: number[] = [];
    for (const s of seconds) counts.push(await hit(principal, s));
    return counts;
  };

  beforeEach(async () => {
    repo = await make();
  });

  it('counts a principal’s requests within one fixed minute, from 1', async () => {
    expect(await hits('ip:203.0.113.7', [0, 1, 30, 59])).toEqual([1, 2, 3, 4]);
  });

  it('starts again at 1 when the next minute begins, whatever was counted before', async () => {
    expect(await hits('ip:203.0.113.7', [58, 59, 60, 61, 120])).toEqual([1, 2, 1, 2, 1]);
  });

  it('starts at 1 after an idle gap of an even number of minutes', async () => {
    expect(await hits('sub:seller-1', [0, 1, 2, 120, 121, 600])).toEqual([1, 2, 3, 1, 2, 1]);
  });

  it('starts at 1 after an idle gap of an odd number of minutes', async () => {
    expect(await hits('sub:seller-1', [0, 1, 180, 181])).toEqual([1, 2, 1, 2]);
  });

  it('counts concurrent requests exactly once each, also the first ones after an idle gap', async () => {
    const concurrent = (seconds: number) =>
      Promise.all(Array.from({ length: 10 }, () => hit('ip:203.0.113.9', seconds))).then((c) =>
        c.sort((a, b) => a - b),
      );
    const oneToTen = Array.from({ length: 10 }, (_, i) => i + 1);
    expect(await concurrent(0)).toEqual(oneToTen);
    expect(await concurrent(120)).toEqual(oneToTen);
  });

  it('keeps one count per principal', async () => {
    await hits('ip:203.0.113.7', [0, 1, 2]);
    expect(await hit('ip:203.0.113.8', 3)).toBe(1);
    expect(await hit('sub:203.0.113.7', 4)).toBe(1);
    expect(await hit('ip:203.0.113.7', 5)).toBe(4);
  });

  it('peeks at the counts of several principals without counting, each in its own window', async () => {
    await hits('ip:203.0.113.7', [0, 1, 2]);
    await hits('card:abc', [10]);
    const hour = (seconds: number) => {
      const index = Math.floor((START / 1000 + seconds) / 3600);
      return { index, startsAt: new Date(index * 3_600_000), resetsAt: new Date((index + 1) * 3_600_000) };
    };
    await repo.hit('seller:1', at(5), hour(5));
    await repo.hit('seller:1', at(3000), hour(3000));
    const peek = (seconds: number) =>
      repo.peek(
        [
          { principal: 'ip:203.0.113.7', window: rateWindow(at(seconds)) },
          { principal: 'card:abc', window: rateWindow(at(seconds)) },
          { principal: 'seller:1', window: hour(seconds) },
          { principal: 'ip:never-seen', window: rateWindow(at(seconds)) },
        ],
        at(seconds),
      );
    expect((await peek(30)).map((s) => s.count)).toEqual([3, 1, 2, 0]);
    expect((await peek(30)).map((s) => s.count)).toEqual([3, 1, 2, 0]);
    // The next minute: the minute counters read 0, the hour's still 2.
    expect((await peek(61)).map((s) => s.count)).toEqual([0, 0, 2, 0]);
    expect((await peek(3601)).map((s) => s.count)).toEqual([0, 0, 0, 0]);
    expect(await repo.peek([], at(0))).toEqual([]);
  });

  it('holds a principal until a time, never shortening a longer hold', async () => {
    const state = async (seconds: number) =>
      (await repo.peek([{ principal: 'card:held', window: rateWindow(at(seconds)) }], at(seconds)))[0];
    expect(await state(0)).toEqual({ count: 0, heldUntil: null });
    await repo.hold('card:held', at(600));
    expect((await state(1)).heldUntil).toEqual(at(600));
    await repo.hold('card:held', at(300));
    expect((await state(2)).heldUntil).toEqual(at(600));
    await repo.hold('card:held', at(900));
    expect((await state(3)).heldUntil).toEqual(at(900));
    // Ended by the time of the read: no hold.
    expect((await state(900)).heldUntil).toBeNull();
    // A hold does not count, and counting does not hold.
    expect(await hit('card:held', 901)).toBe(1);
    expect(await state(902)).toEqual({ count: 1, heldUntil: null });
  });

  it('keeps counting past the limit (the caller decides what 101 means)', async () => {
    const counts = await hits(
      'ip:198.51.100.1',
      Array.from({ length: 101 }, (_, i) => Math.floor(i / 2)),
    );
    expect(counts.at(-1)).toBe(101);
    expect(counts).toEqual(Array.from({ length: 101 }, (_, i) => i + 1));
  });
});

describe('FailedAuthCounter (DynamoDB Local)', () => {
  it('shares the count between containers and remembers what each container counted', async () => {
    const table = await freshTable('authfail');
    const first = createFailedAuthCounter(table);
    const second = createFailedAuthCounter(table);
    const window = rateWindow(at(0));
    for (let i = 1; i <= 3; i++) expect(await first.count('ip:203.0.113.7', at(i), window)).toBe(i);
    expect(first.known('ip:203.0.113.7', window)).toBe(3);
    // Another container knows nothing until it counts a failure itself, then it reads the total.
    expect(second.known('ip:203.0.113.7', window)).toBe(0);
    expect(await second.count('ip:203.0.113.7', at(4), window)).toBe(4);
    expect(second.known('ip:203.0.113.7', window)).toBe(4);
    expect(first.known('ip:203.0.113.8', window)).toBe(0);
  });

  it('forgets a count when its minute is over', async () => {
    const counter = createFailedAuthCounter(await freshTable('authfail'));
    await counter.count('ip:203.0.113.7', at(59), rateWindow(at(59)));
    expect(counter.known('ip:203.0.113.7', rateWindow(at(60)))).toBe(0);
    expect(await counter.count('ip:203.0.113.7', at(60), rateWindow(at(60)))).toBe(1);
  });
});
