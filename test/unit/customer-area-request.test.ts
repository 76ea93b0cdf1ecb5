import { afterEach, describe, expect, it, vi } from 'vitest';
import { wallClockPacer } from '#shared/adapters/system/pacer';
import {
  REQUEST_FLOOR_MS,
  type RequestMagicLinkDeps,
  requestMagicLink,
} from '#shared/domain/customer-area/request';
import type { CustomerProfile } from '#shared/domain/customers/customer';
import type { ResponsePacer } from '#shared/domain/ports/customer-area';
import { FakeCustomerRepository } from '../support/fakes/customer-repository';
import { customerProfile } from '../support/fixtures';

const CPF = '52998224725';
const NOW = new Date('2026-11-23T12:00:00.000Z');
/** Seller 3's profile of Paula, its e-mail registered through the seller's API. */
const paula = customerProfile({
  tenant: { sellerId: 3, environment: 'test' },
  id: 1,
  uuid: '00000000-0000-4000-8000-000000000001',
  document: CPF,
  name: 'Paula Reis',
  email: 'paula@example.com',
  createdAt: NOW.toISOString(),
});

/** A pacer that records what happens around the hold: the answer must come after it. */
function recordingPacer(steps: string[]): ResponsePacer {
  return {
    begin(floorMs) {
      steps.push(`begin ${floorMs}`);
      return async () => {
        steps.push('hold');
      };
    },
  };
}

function customersOf(known: CustomerProfile[]): FakeCustomerRepository {
  const customers = new FakeCustomerRepository();
  for (const p of known) customers.seedProfile(p);
  return customers;
}

function deps(steps: string[], known: CustomerProfile[]): RequestMagicLinkDeps {
  return {
    customers: customersOf(known),
    directory: {
      documentsByEmail: async () => [],
      sellersOf: async (environment, document) =>
        known
          .filter((p) => p.tenant.environment === environment && p.document === document)
          .map((p) => ({ sellerId: p.tenant.sellerId, customerId: p.id, uuid: p.uuid })),
      sellerName: async () => null,
    },
    rateLimits: { hit: async () => 1, peek: async () => [], hold: async () => undefined },
    magicLinks: { key: async () => new Uint8Array(32).fill(7) },
    mailer: {
      send: async (message) => {
        steps.push(`mail ${message.to}`);
      },
    },
    clock: { now: () => NOW },
    pacer: recordingPacer(steps),
    publicBaseUrl: 'https://pay.example.com',
  };
}

describe('requestMagicLink pacing', () => {
  it('holds a match and a miss alike: the floor starts after the rate limits and ends before the answer', async () => {
    const hit: string[] = [];
    const answer = await requestMagicLink(deps(hit, [paula]), { document: CPF }, '203.0.113.9');
    expect(answer).toEqual({ maskedEmail: 'p***@example.com' });
    expect(hit).toEqual([`begin ${REQUEST_FLOOR_MS}`, 'mail paula@example.com', 'hold']);

    const miss: string[] = [];
    const none = await requestMagicLink(deps(miss, []), { document: CPF }, '203.0.113.9');
    expect(none).toEqual({ maskedEmail: null });
    expect(miss).toEqual([`begin ${REQUEST_FLOOR_MS}`, 'hold']);
  });
});

describe('wallClockPacer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('resolves when the floor has passed since begin, counting the time already spent', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const hold = wallClockPacer.begin(800);
    vi.advanceTimersByTime(300);
    let done = false;
    const held = hold().then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(499);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await held;
    expect(done).toBe(true);
  });

  it('does not wait when the work took longer than the floor', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'performance'] });
    const hold = wallClockPacer.begin(800);
    vi.advanceTimersByTime(1_200);
    let done = false;
    const held = hold().then(() => {
      done = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    await held;
    expect(done).toBe(true);
  });
});
