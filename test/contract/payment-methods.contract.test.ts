import { describe, expect, it } from 'vitest';
import { keys } from '#shared/adapters/dynamodb/keys';
import { createPaymentMethodRepository } from '#shared/adapters/dynamodb/payment-method-repository';
import type { DomainEvent } from '#shared/domain/events/events';
import type { PaymentMethod } from '#shared/domain/payment-methods/payment-method';
import type { PaymentMethodRepository } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';
import { FakePaymentMethodRepository } from '../support/fakes/payment-method-repository';
import { freshTable } from './support';

const SELLER: Tenant = { sellerId: 7, environment: 'test' };
const OTHER_SELLER: Tenant = { sellerId: 8, environment: 'test' };
const LIVE: Tenant = { sellerId: 7, environment: 'live' };
const MARIA = { id: 41, uuid: 'c0000000-0000-4000-8000-000000000041' };
const JOAO = { id: 42, uuid: 'c0000000-0000-4000-8000-000000000042' };
const CREATED = '2026-01-10T15:00:00.000Z';

function method(id: number, overrides: Partial<PaymentMethod> = {}): PaymentMethod {
  return {
    id,
    uuid: `a0000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    tenant: SELLER,
    customer: MARIA,
    type: 'card',
    brand: 'visa',
    last4: '1111',
    expiryMonth: 3,
    expiryYear: 2026,
    status: 'active',
    provider: 'sandbox',
    token: `tok_${id}`,
    expiryNotices: [],
    nextExpiryStepAt: '2026-03-02T03:00:00.000Z',
    expiredAt: null,
    createdAt: CREATED,
    updatedAt: CREATED,
    version: 1,
    ...overrides,
  };
}

const event = (id: string, tenant = SELLER): DomainEvent => ({
  tenant,
  envelope: {
    id,
    event: 'payment_method.expiring_soon',
    timestamp: '2026-03-02T03:00:00.000Z',
    data: { id: 1 },
  },
});

async function failureOf(promise: Promise<unknown>): Promise<any> {
  return promise.then(
    () => null,
    (e: unknown) => e,
  );
}

interface Subject {
  repo: PaymentMethodRepository;
  /** Whether the outbox holds the event. */
  hasEvent(id: string): Promise<boolean>;
}

describe.each([
  [
    'in-memory fake',
    async (): Promise<Subject> => {
      const repo = new FakePaymentMethodRepository();
      return { repo, hasEvent: async (id) => repo.outbox.events.some((e) => e.envelope.id === id) };
    },
  ],
  [
    'DynamoDB Local',
    async (): Promise<Subject> => {
      const table = await freshTable();
      return {
        repo: createPaymentMethodRepository(table),
        hasEvent: async (id) => (await table.get(keys.outboxEvent(id), { consistent: true })) !== undefined,
      };
    },
  ],
])('PaymentMethodRepository contract (%s)', (_name, make) => {
  it('hands out increasing ids', async () => {
    const { repo } = await make();
    const a = await repo.nextId();
    const b = await repo.nextId();
    expect(b).toBeGreaterThan(a);
  });

  it('reads back every field of a created method, in its own tenant only', async () => {
    const { repo } = await make();
    const created = method(1, {
      expiryNotices: [30],
      nextExpiryStepAt: null,
      expiredAt: '2026-04-01T03:00:00.000Z',
    });
    await repo.create(created);
    expect(await repo.get(SELLER, 1)).toEqual(created);
    expect(await repo.get(OTHER_SELLER, 1)).toBeNull();
    expect(await repo.get(LIVE, 1)).toBeNull();
    expect(await repo.get(SELLER, 2)).toBeNull();
  });

  it('keeps one method per customer and card: a second one answers the first and writes nothing', async () => {
    const { repo } = await make();
    await repo.create(method(1));
    const error = await failureOf(repo.create(method(2, { token: 'tok_other' })));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.reason).toBe('already_exists');
    expect(error.current).toEqual(method(1));
    expect(await repo.get(SELLER, 2)).toBeNull();
    expect((await repo.listByCustomer(SELLER, MARIA.uuid)).map((m) => m.id)).toEqual([1]);
  });

  it('keeps apart another expiry, last 4, brand, customer, tenant or provider', async () => {
    const { repo } = await make();
    await repo.create(method(1));
    await repo.create(method(2, { expiryYear: 2027 }));
    await repo.create(method(3, { expiryMonth: 4 }));
    await repo.create(method(4, { last4: '4444' }));
    await repo.create(method(5, { brand: 'elo' }));
    await repo.create(method(6, { customer: JOAO }));
    await repo.create(method(7, { tenant: OTHER_SELLER }));
    await repo.create(method(8, { tenant: LIVE }));
    await repo.create(method(9, { provider: 'other' }));
    for (const [tenant, id] of [
      [SELLER, 2],
      [SELLER, 6],
      [OTHER_SELLER, 7],
      [LIVE, 8],
      [SELLER, 9],
    ] as const)
      expect((await repo.get(tenant, id))?.id).toBe(id);
  });

  it("lists a customer's methods newest first, in its own tenant only", async () => {
    const { repo } = await make();
    await repo.create(method(1));
    await repo.create(method(2, { last4: '2222' }));
    await repo.create(method(3, { customer: JOAO }));
    await repo.create(method(4, { tenant: OTHER_SELLER }));
    await repo.create(method(5, { last4: '5555' }));
    expect((await repo.listByCustomer(SELLER, MARIA.uuid)).map((m) => m.id)).toEqual([5, 2, 1]);
    expect((await repo.listByCustomer(SELLER, JOAO.uuid)).map((m) => m.id)).toEqual([3]);
    expect((await repo.listByCustomer(OTHER_SELLER, MARIA.uuid)).map((m) => m.id)).toEqual([4]);
    expect(await repo.listByCustomer(LIVE, MARIA.uuid)).toEqual([]);
    expect((await repo.listByCustomer(SELLER, MARIA.uuid))[0]).toEqual(method(5, { last4: '5555' }));
  });

  it('saves on the version read, with its events; a stale version changes nothing', async () => {
    const subject = await make();
    const { repo } = subject;
    const first = method(1);
    await repo.create(first);
    const next = { ...first, expiryNotices: [30] as PaymentMethod['expiryNotices'], version: 2 };
    await repo.save(next, first, [event('evt_1')]);
    expect(await repo.get(SELLER, 1)).toEqual(next);
    expect(await subject.hasEvent('evt_1')).toBe(true);

    const error = await failureOf(
      repo.save({ ...next, status: 'expired', version: 2 }, first, [event('evt_2')]),
    );
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.reason).toBe('changed');
    expect(await repo.get(SELLER, 1)).toEqual(next);
    expect(await subject.hasEvent('evt_2')).toBe(false);
  });

  it('refuses to save a deleted method', async () => {
    const { repo } = await make();
    await repo.create(method(1));
    await repo.delete(method(1));
    const error = await failureOf(repo.save({ ...method(1), version: 2 }, method(1), []));
    expect(error).toBeInstanceOf(ConflictError);
    expect(error.reason).toBe('changed');
    expect(await repo.get(SELLER, 1)).toBeNull();
  });

  it('deletes on the version read, and the card can then be saved again', async () => {
    const { repo } = await make();
    await repo.create(method(1));
    const stale = await failureOf(repo.delete({ ...method(1), version: 3 }));
    expect(stale).toBeInstanceOf(ConflictError);
    expect(stale.reason).toBe('changed');
    expect(await repo.get(SELLER, 1)).not.toBeNull();

    await repo.delete(method(1));
    expect(await repo.get(SELLER, 1)).toBeNull();
    expect(await repo.listByCustomer(SELLER, MARIA.uuid)).toEqual([]);
    await repo.create(method(2));
    expect((await repo.get(SELLER, 2))?.id).toBe(2);
    const again = await failureOf(repo.delete(method(1)));
    expect(again?.reason).toBe('changed');
  });

  it('finds the methods whose next expiry step is due, this month and the months back asked for', async () => {
    const { repo } = await make();
    const now = new Date('2026-03-10T12:00:00.000Z');
    await repo.create(method(1, { nextExpiryStepAt: '2026-03-10T12:00:00.000Z' })); // due right now
    await repo.create(method(2, { nextExpiryStepAt: '2026-03-02T03:00:00.000Z', last4: '2222' }));
    await repo.create(method(3, { nextExpiryStepAt: '2026-02-15T03:00:00.000Z', last4: '3333' }));
    await repo.create(method(4, { nextExpiryStepAt: '2026-01-01T03:00:00.000Z', last4: '4444' })); // 2 months back
    await repo.create(method(5, { nextExpiryStepAt: '2026-03-10T12:00:00.001Z', last4: '5555' })); // not yet
    await repo.create(method(6, { nextExpiryStepAt: null, status: 'expired', last4: '6666' }));
    await repo.create(method(7, { tenant: LIVE, nextExpiryStepAt: '2026-03-01T03:00:00.000Z' }));
    const due = await repo.dueExpirySteps(now, 1);
    expect([...due].sort()).toEqual(['7:live:7', '7:test:1', '7:test:2', '7:test:3']);
    expect([...(await repo.dueExpirySteps(now, 2))].sort()).toEqual([
      '7:live:7',
      '7:test:1',
      '7:test:2',
      '7:test:3',
      '7:test:4',
    ]);
    expect(await repo.dueExpirySteps(now, 0)).toHaveLength(3);
  });

  it('takes a method out of the due list when its next step moves ahead or it expires', async () => {
    const { repo } = await make();
    const now = new Date('2026-03-10T12:00:00.000Z');
    const a = method(1, { nextExpiryStepAt: '2026-03-02T03:00:00.000Z' });
    const b = method(2, { nextExpiryStepAt: '2026-03-02T03:00:00.000Z', last4: '2222' });
    await repo.create(a);
    await repo.create(b);
    await repo.save(
      { ...a, expiryNotices: [30], nextExpiryStepAt: '2026-03-18T03:00:00.000Z', version: 2 },
      a,
      [],
    );
    await repo.save({ ...b, status: 'expired', nextExpiryStepAt: null, version: 2 }, b, []);
    expect(await repo.dueExpirySteps(now, 2)).toEqual([]);
    await repo.delete({ ...a, version: 2 });
    expect(await repo.dueExpirySteps(new Date('2026-03-20T00:00:00.000Z'), 2)).toEqual([]);
  });
});
