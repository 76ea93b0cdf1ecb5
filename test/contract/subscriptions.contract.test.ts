import { describe, expect, it } from 'vitest';
import { keys } from '#shared/adapters/dynamodb/keys';
import { createPaymentMethodRepository } from '#shared/adapters/dynamodb/payment-method-repository';
import { createSubscriptionRepository } from '#shared/adapters/dynamodb/subscription-repository';
import { createTransactionRepository } from '#shared/adapters/dynamodb/transaction-repository';
import { atomically } from '#shared/adapters/dynamodb/unit-of-work';
import type { DomainEvent } from '#shared/domain/events/events';
import { jobId } from '#shared/domain/job-id';
import type {
  Atomically,
  PaymentMethodRepository,
  SubscriptionChanges,
  SubscriptionPage,
  SubscriptionQuery,
  SubscriptionRepository,
  TransactionRepository,
} from '#shared/domain/ports';
import type { NewHistoryEntry, Subscription } from '#shared/domain/subscriptions/subscription';
import type { Tenant } from '#shared/domain/tenant';
import type { Transaction } from '#shared/domain/transactions/transaction';
import { FakePaymentMethodRepository } from '../support/fakes/payment-method-repository';
import { FakeSubscriptionRepository } from '../support/fakes/subscription-repository';
import { FakeTransactionRepository } from '../support/fakes/transaction-repository';
import { fakeAtomically } from '../support/fakes/unit-of-work';
import { conflictOf, freshTable } from './support';

const SELLER: Tenant = { sellerId: 7, environment: 'test' };
const OTHER_SELLER: Tenant = { sellerId: 8, environment: 'test' };
const LIVE: Tenant = { sellerId: 7, environment: 'live' };

/** The instant of the due sweep; subscription n is created n minutes after midnight of March 1. */
const NOW = new Date('2026-03-10T15:30:00.000Z');
const at = (n: number) => new Date(Date.UTC(2026, 2, 1, 0, n)).toISOString();
const later = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();

const CUSTOMERS = {
  1: { id: 1, uuid: 'c0000000-0000-4000-8000-000000000001', name: 'Ana Souza', email: 'ana@example.com' },
  2: { id: 2, uuid: 'c0000000-0000-4000-8000-000000000002', name: 'Bruno Lima', email: 'bruno@example.com' },
} as const;
const PRODUCTS = {
  1: { id: 1, uuid: 'p0000000-0000-4000-8000-000000000001', name: 'Clube do Livro' },
  2: { id: 2, uuid: 'p0000000-0000-4000-8000-000000000002', name: 'Academia Online' },
} as const;

type Options = Partial<Subscription> & {
  customerOf?: keyof typeof CUSTOMERS;
  productOf?: keyof typeof PRODUCTS;
};

function subscription(id: number, options: Options = {}): Subscription {
  const { customerOf = 1, productOf = 1, ...rest } = options;
  const created = at(id);
  const periodEnd = '2026-04-01T00:00:00.000Z';
  return {
    id,
    uuid: `5b000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    tenant: SELLER,
    status: 'active',
    customer: { ...CUSTOMERS[customerOf], document: '52998224725' },
    price: {
      id: 10 + productOf,
      uuid: `9a000000-0000-4000-8000-${String(10 + productOf).padStart(12, '0')}`,
      name: 'Mensal',
      unitAmount: 4_990,
      billingInterval: 'month',
      intervalCount: 1,
      trialDays: 0,
      product: { ...PRODUCTS[productOf] },
    },
    collectionMethod: 'card',
    paymentMethod: { id: 5, cardLast4: '4242', cardBrand: 'visa' },
    pixAuthorizationId: null,
    billingAnchor: created,
    billingCycle: 1,
    currentPeriodStart: created,
    currentPeriodEnd: periodEnd,
    trialEndsAt: null,
    cancelAt: null,
    cancelledAt: null,
    cancelAtPeriodEnd: false,
    cancelReason: null,
    pausedAt: null,
    lastPaymentAt: created,
    nextPaymentAt: periodEnd,
    failedPaymentCount: 0,
    dueAt: periodEnd,
    pendingCharge: null,
    checkoutSessionId: null,
    metadata: {},
    createdAt: created,
    updatedAt: created,
    version: 1,
    ...rest,
  };
}

/** The next state as the use cases write it: version up, updatedAt moved on. */
function moved(s: Subscription, changes: Partial<Subscription>, minutes = 60): Subscription {
  return { ...s, ...changes, updatedAt: later(s.updatedAt, minutes), version: s.version + 1 };
}

const event = (id: string, tenant = SELLER, name = 'subscription.renewed'): DomainEvent => ({
  tenant,
  envelope: { id, event: name, timestamp: at(0), data: { id } },
});

const history = (...types: NewHistoryEntry['eventType'][]): NewHistoryEntry[] =>
  types.map((eventType, i) => ({ eventType, eventData: { step: i } }));

const nothing = (): SubscriptionChanges => ({ events: [], history: [] });

/** A renewal's card charge of subscription `s`, as the engine builds it. */
function charge(id: number, s: Subscription, status: Transaction['status'] = 'captured'): Transaction {
  return {
    id,
    uuid: `7c000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    tenant: s.tenant,
    provider: 'sandbox',
    checkoutSessionId: null,
    clientReferenceId: null,
    affiliate: null,
    gatewayPayId: 9_100_000_000 + id,
    status,
    paymentMethod: 'creditcard',
    value: s.price.unitAmount,
    valueSeller: s.price.unitAmount - 238,
    installments: 1,
    customer: { ...s.customer, phone: '11987654321' },
    product: { ...s.price.product, value: s.price.unitAmount },
    pix: null,
    boleto: null,
    card: { brand: 'visa', last4: '4242' },
    failureCode: status === 'denied' ? 'card_declined' : null,
    failureReason: status === 'denied' ? 'Cartão recusado' : null,
    refunds: [],
    refundedAmount: 0,
    paidAt: status === 'captured' ? s.updatedAt : null,
    canceledAt: null,
    deadline: null,
    metadata: {},
    recurring: { subscriptionId: s.id, billingCycle: s.billingCycle + 1, method: 'card' },
    createdAt: s.updatedAt,
    updatedAt: s.updatedAt,
    version: 1,
  };
}

const query = (q: Partial<SubscriptionQuery> = {}): SubscriptionQuery => ({ page: 1, limit: 50, ...q });
/** A page as its ids, with its total. */
const seen = (page: SubscriptionPage) => [page.items.map((s) => s.id), page.totalCount];

const jobOf = (s: Subscription) => jobId(s.tenant, s.id);

interface Subject {
  repo: SubscriptionRepository;
  /** Where a charge written with a subscription can be read back. */
  transactions: Pick<TransactionRepository, 'get' | 'list' | 'create'>;
  /** The subscription and its charge written together (the unit of work). */
  atomically: Atomically;
  hasEvent(id: string): Promise<boolean>;
  dynamo: boolean;
  /** In the same table: a card read with a subscription (getJoined). */
  paymentMethods: PaymentMethodRepository;
}

describe.each([
  [
    'in-memory fake',
    async (): Promise<Subject> => {
      const repo = new FakeSubscriptionRepository();
      const transactions = new FakeTransactionRepository();
      return {
        repo,
        transactions,
        atomically: fakeAtomically,
        hasEvent: async (id) =>
          [...repo.outbox.events, ...transactions.outbox.events].some((e) => e.envelope.id === id),
        dynamo: false,
        paymentMethods: new FakePaymentMethodRepository(),
      };
    },
  ],
  [
    'DynamoDB Local',
    async (): Promise<Subject> => {
      const table = await freshTable();
      return {
        repo: createSubscriptionRepository(table),
        transactions: createTransactionRepository(table),
        atomically,
        hasEvent: async (id) => (await table.get(keys.outboxEvent(id), { consistent: true })) !== undefined,
        dynamo: true,
        paymentMethods: createPaymentMethodRepository(table),
      };
    },
  ],
])('SubscriptionRepository contract (%s)', (_name, make) => {
  describe('ids, create and get', () => {
    it('hands out increasing ids, never the same twice', async () => {
      const { repo } = await make();
      const ids = [await repo.nextId(), await repo.nextId(), await repo.nextId()];

      expect(ids[1]).toBeGreaterThan(ids[0]);
      expect(ids[2]).toBeGreaterThan(ids[1]);
    });

    it('reads back every field of a created subscription, with its history and events written', async () => {
      const { repo, hasEvent } = await make();
      const trial = subscription(1, {
        status: 'active',
        collectionMethod: 'pix_automatic',
        paymentMethod: null,
        pixAuthorizationId: 'pixauth_1',
        billingCycle: 0,
        trialEndsAt: '2026-03-15T00:01:00.000Z',
        lastPaymentAt: null,
        pendingCharge: {
          cycle: 1,
          attempt: 2,
          transactionId: 99,
          idempotencyKey: 'sub_x_c1_a2',
          claimedAt: at(3),
        },
        checkoutSessionId: 'cs_test_000000000000000000000001',
        metadata: { plan: 'gold', origin: 'site' },
        cancelReason: 'too expensive',
        pausedAt: at(2),
      });

      await repo.create(trial, {
        events: [event('evt_1', SELLER, 'subscription.created')],
        history: [
          { eventType: 'subscription.created', eventData: { priceId: 11, trialDays: 14 } },
          {
            eventType: 'trial_started',
            eventData: { trialEndsAt: trial.trialEndsAt, nested: { a: [1, 'b'] } },
          },
        ],
      });

      expect(await repo.get(SELLER, 1)).toEqual(trial);
      expect(await hasEvent('evt_1')).toBe(true);
      const entries = await repo.history(SELLER, 1);
      expect(entries.map((e) => [e.subscriptionId, e.eventType, e.eventData, e.createdAt])).toEqual([
        [1, 'trial_started', { trialEndsAt: trial.trialEndsAt, nested: { a: [1, 'b'] } }, trial.updatedAt],
        [1, 'subscription.created', { priceId: 11, trialDays: 14 }, trial.updatedAt],
      ]);
      expect(entries[0].id).toBeGreaterThan(entries[1].id);
    });

    it("answers null for an id nobody created, and for another seller's or environment's subscription", async () => {
      const { repo } = await make();
      await repo.create(subscription(1), nothing());
      await repo.create(subscription(2, { tenant: OTHER_SELLER }), nothing());

      expect(await repo.get(SELLER, 3)).toBeNull();
      expect(await repo.get(OTHER_SELLER, 1)).toBeNull();
      expect(await repo.get(LIVE, 1)).toBeNull();
      expect(await repo.get(SELLER, 2)).toBeNull();
      expect(await repo.get(OTHER_SELLER, 2)).toEqual(subscription(2, { tenant: OTHER_SELLER }));
    });

    it('refuses a second create of the same id with ConflictError already_exists, writing nothing of it', async () => {
      const { repo, hasEvent } = await make();
      await repo.create(subscription(1), nothing());

      const error = await conflictOf(
        repo.create(subscription(1, { customerOf: 2 }), {
          events: [event('evt_2')],
          history: history('subscription.created'),
        }),
      );

      expect(error.reason).toBe('already_exists');
      expect(await repo.get(SELLER, 1)).toEqual(subscription(1));
      expect(await hasEvent('evt_2')).toBe(false);
      expect(await repo.history(SELLER, 1)).toEqual([]);
      expect(seen(await repo.list(SELLER, query()))).toEqual([[1], 1]);
      expect(seen(await repo.list(SELLER, query({ customerId: 2 })))).toEqual([[], 0]);
    });
  });

  describe('save', () => {
    it('writes the next state, its history and its events when the stored version is the one read', async () => {
      const { repo, hasEvent } = await make();
      const s = subscription(1);
      await repo.create(s, nothing());
      const next = moved(s, { pausedAt: at(90), dueAt: null });

      await repo.save(next, s, { events: [event('evt_p')], history: history('subscription.paused') });

      expect(await repo.get(SELLER, 1)).toEqual(next);
      expect(await hasEvent('evt_p')).toBe(true);
      expect((await repo.history(SELLER, 1)).map((e) => [e.eventType, e.createdAt])).toEqual([
        ['subscription.paused', next.updatedAt],
      ]);
    });

    it('refuses a stale version with ConflictError changed, writing no state, history, event or charge', async () => {
      const { repo, hasEvent, transactions, atomically } = await make();
      const s = subscription(1);
      await repo.create(s, nothing());
      const winner = moved(s, { failedPaymentCount: 1 });
      await repo.save(winner, s, nothing());
      const loser = moved(s, { status: 'canceled', dueAt: null });

      const error = await conflictOf(
        atomically(async () => {
          await repo.save(loser, s, {
            events: [event('evt_lost')],
            history: history('subscription.canceled'),
          });
          await transactions.create(charge(50, loser), [event('evt_txn_lost')]);
        }),
      );

      expect(error.reason).toBe('changed');
      expect(await repo.get(SELLER, 1)).toEqual(winner);
      expect(await repo.history(SELLER, 1)).toEqual([]);
      expect(await hasEvent('evt_lost')).toBe(false);
      expect(await hasEvent('evt_txn_lost')).toBe(false);
      expect(await transactions.get(SELLER, 50)).toBeNull();
      expect(seen(await repo.list(SELLER, query({ status: 'canceled' })))).toEqual([[], 0]);
      expect(seen(await repo.list(SELLER, query({ status: 'active' })))).toEqual([[1], 1]);
    });

    it('refuses to save a subscription that was never created (changed)', async () => {
      const { repo } = await make();
      const s = subscription(1);

      const error = await conflictOf(repo.save(moved(s, {}), s, nothing()));

      expect(error.reason).toBe('changed');
      expect(await repo.get(SELLER, 1)).toBeNull();
    });

    it("writes the charge's transaction with the subscription: readable by id, counted, its events in the outbox", async () => {
      const { repo, hasEvent, transactions, atomically } = await make();
      const s = subscription(1);
      await repo.create(s, nothing());
      const renewed = moved(s, { billingCycle: 2, lastPaymentAt: later(s.updatedAt, 60) });
      const record = charge(50, renewed);

      await atomically(async () => {
        await repo.save(renewed, s, { events: [event('evt_renewed')], history: history('payment_success') });
        await transactions.create(record, [event('evt_txn_created', SELLER, 'transaction.created')]);
      });

      expect(await repo.get(SELLER, 1)).toEqual(renewed);
      expect(await transactions.get(SELLER, 50)).toEqual(record);
      expect(await hasEvent('evt_renewed')).toBe(true);
      expect(await hasEvent('evt_txn_created')).toBe(true);
      const page = await transactions.list(SELLER, { page: 1, limit: 10, status: 'captured' });
      expect([page.items.map((t) => t.id), page.totalCount]).toEqual([[50], 1]);
    });

    it('refuses a charge whose transaction id is stored already (already_exists), writing nothing', async () => {
      const { repo, hasEvent, transactions, atomically } = await make();
      const s = subscription(1);
      await repo.create(s, nothing());
      const first = moved(s, { billingCycle: 2 });
      await atomically(async () => {
        await repo.save(first, s, { events: [], history: [] });
        await transactions.create(charge(50, first), []);
      });
      const second = moved(first, { billingCycle: 3 });

      const error = await conflictOf(
        atomically(async () => {
          await repo.save(second, first, {
            events: [event('evt_again')],
            history: history('payment_success'),
          });
          await transactions.create(charge(50, second), []);
        }),
      );

      expect(error.reason).toBe('already_exists');
      expect(await repo.get(SELLER, 1)).toEqual(first);
      expect(await transactions.get(SELLER, 50)).toEqual(charge(50, first));
      expect(await hasEvent('evt_again')).toBe(false);
      expect(await repo.history(SELLER, 1)).toEqual([]);
    });

    it('writes a new subscription with its first charge in one unit of work', async () => {
      const { repo, transactions, atomically } = await make();
      const s = subscription(1);

      await atomically(async () => {
        await repo.create(s, { events: [], history: history('subscription.created') });
        await transactions.create(charge(50, s), []);
      });

      expect(await repo.get(SELLER, 1)).toEqual(s);
      expect(await transactions.get(SELLER, 50)).toEqual(charge(50, s));
    });
  });

  describe('history', () => {
    it('answers newest first across saves, the last record of one save first, up to the limit', async () => {
      const { repo } = await make();
      const s = subscription(1);
      await repo.create(s, {
        events: [],
        history: history('subscription.created', 'subscription.activated'),
      });
      const failed = moved(s, { failedPaymentCount: 1 });
      await repo.save(failed, s, { events: [], history: history('payment_failed') });
      const paid = moved(failed, { failedPaymentCount: 0 });
      await repo.save(paid, failed, { events: [], history: history('payment_success') });

      const all = await repo.history(SELLER, 1);
      expect(all.map((e) => e.eventType)).toEqual([
        'payment_success',
        'payment_failed',
        'subscription.activated',
        'subscription.created',
      ]);
      expect(all.map((e) => e.createdAt)).toEqual([
        paid.updatedAt,
        failed.updatedAt,
        s.updatedAt,
        s.updatedAt,
      ]);
      expect(new Set(all.map((e) => e.id)).size).toBe(4);
      expect((await repo.history(SELLER, 1, 2)).map((e) => e.eventType)).toEqual([
        'payment_success',
        'payment_failed',
      ]);
    });

    it("keeps each subscription's history apart, and another tenant's history is empty", async () => {
      const { repo } = await make();
      await repo.create(subscription(1), { events: [], history: history('subscription.created') });
      await repo.create(subscription(2), { events: [], history: history('trial_started') });
      await repo.create(subscription(10), { events: [], history: history('payment_success') });

      expect((await repo.history(SELLER, 1)).map((e) => e.eventType)).toEqual(['subscription.created']);
      expect((await repo.history(SELLER, 2)).map((e) => e.eventType)).toEqual(['trial_started']);
      expect(await repo.history(OTHER_SELLER, 1)).toEqual([]);
      expect(await repo.history(LIVE, 1)).toEqual([]);
    });
  });

  describe('list', () => {
    /** 1-6: customers 1,2,1,2,1,2; products 1,1,2,2,1,1; 3 and 5 canceled; 7 another seller's, 8 live. */
    async function seeded(repo: SubscriptionRepository) {
      const plan: [number, 1 | 2, 1 | 2][] = [
        [1, 1, 1],
        [2, 2, 1],
        [3, 1, 2],
        [4, 2, 2],
        [5, 1, 1],
        [6, 2, 1],
      ];
      for (const [id, customerOf, productOf] of plan)
        await repo.create(subscription(id, { customerOf, productOf }), nothing());
      for (const id of [3, 5]) {
        const s = (await repo.get(SELLER, id)) as Subscription;
        await repo.save(
          moved(s, { status: 'canceled', cancelledAt: later(s.updatedAt, 60), dueAt: null }),
          s,
          nothing(),
        );
      }
      await repo.create(subscription(7, { tenant: OTHER_SELLER }), nothing());
      await repo.create(subscription(8, { tenant: LIVE }), nothing());
    }

    it("lists the tenant's subscriptions newest first with the total, none of another tenant's", async () => {
      const { repo } = await make();
      await seeded(repo);

      expect(seen(await repo.list(SELLER, query()))).toEqual([[6, 5, 4, 3, 2, 1], 6]);
      expect(seen(await repo.list(OTHER_SELLER, query()))).toEqual([[7], 1]);
      expect(seen(await repo.list(LIVE, query()))).toEqual([[8], 1]);
      expect(seen(await repo.list({ sellerId: 99, environment: 'test' }, query()))).toEqual([[], 0]);
    });

    it('pages by page and limit, each page with the full total, an empty page past the end', async () => {
      const { repo, dynamo } = await make();
      await seeded(repo);

      const first = await repo.list(SELLER, query({ limit: 4 }));
      expect(seen(first)).toEqual([[6, 5, 4, 3], 6]);
      expect(seen(await repo.list(SELLER, query({ page: 2, limit: 4 })))).toEqual([[2, 1], 6]);
      expect(seen(await repo.list(SELLER, query({ page: 3, limit: 4 })))).toEqual([[], 6]);
      // Unfiltered, DynamoDB reads the page and the counter heading the partition, nothing more.
      if (dynamo) expect(first.itemsRead).toBe(5);
    });

    it('filters by status, customer and product, each with its own total', async () => {
      const { repo } = await make();
      await seeded(repo);

      expect(seen(await repo.list(SELLER, query({ status: 'active' })))).toEqual([[6, 4, 2, 1], 4]);
      expect(seen(await repo.list(SELLER, query({ status: 'canceled' })))).toEqual([[5, 3], 2]);
      expect(seen(await repo.list(SELLER, query({ status: 'failed' })))).toEqual([[], 0]);
      expect(seen(await repo.list(SELLER, query({ customerId: 1 })))).toEqual([[5, 3, 1], 3]);
      expect(seen(await repo.list(SELLER, query({ productId: 2 })))).toEqual([[4, 3], 2]);
      expect(seen(await repo.list(SELLER, query({ productId: 1, limit: 2 })))).toEqual([[6, 5], 4]);
    });

    it('combines filters, counting the matches, and pages the combined list', async () => {
      const { repo } = await make();
      await seeded(repo);

      expect(seen(await repo.list(SELLER, query({ customerId: 1, status: 'active' })))).toEqual([[1], 1]);
      expect(seen(await repo.list(SELLER, query({ customerId: 2, productId: 1 })))).toEqual([[6, 2], 2]);
      expect(seen(await repo.list(SELLER, query({ productId: 1, status: 'active' })))).toEqual([
        [6, 2, 1],
        3,
      ]);
      expect(
        seen(await repo.list(SELLER, query({ productId: 1, status: 'active', limit: 2, page: 2 }))),
      ).toEqual([[1], 3]);
      expect(
        seen(await repo.list(SELLER, query({ customerId: 1, productId: 2, status: 'canceled' }))),
      ).toEqual([[3], 1]);
      const page = await repo.list(SELLER, query({ customerId: 2, status: 'canceled' }));
      expect(seen(page)).toEqual([[], 0]);
      expect(page.itemsRead).toBeGreaterThanOrEqual(0);
    });

    it('moves the status totals with each transition, the others unchanged', async () => {
      const { repo } = await make();
      const s = subscription(1);
      await repo.create(s, nothing());
      const pending = moved(s, { status: 'pending_cancellation', cancelAtPeriodEnd: true });
      await repo.save(pending, s, nothing());
      const canceled = moved(pending, { status: 'canceled', dueAt: null });
      await repo.save(canceled, pending, nothing());
      await repo.save(moved(canceled, { metadata: { note: 'x' } }), canceled, nothing());

      expect(seen(await repo.list(SELLER, query({ status: 'active' })))).toEqual([[], 0]);
      expect(seen(await repo.list(SELLER, query({ status: 'pending_cancellation' })))).toEqual([[], 0]);
      expect(seen(await repo.list(SELLER, query({ status: 'canceled' })))).toEqual([[1], 1]);
      expect(seen(await repo.list(SELLER, query()))).toEqual([[1], 1]);
      expect(seen(await repo.list(SELLER, query({ customerId: 1 })))).toEqual([[1], 1]);
      expect(seen(await repo.list(SELLER, query({ productId: 1 })))).toEqual([[1], 1]);
    });
  });

  describe('listByCustomer', () => {
    it("answers the customer's subscriptions newest first, none of another customer or tenant", async () => {
      const { repo } = await make();
      for (const [id, customerOf] of [
        [1, 1],
        [2, 2],
        [3, 1],
      ] as const)
        await repo.create(subscription(id, { customerOf }), nothing());
      await repo.create(subscription(4, { tenant: OTHER_SELLER }), nothing());
      await repo.create(subscription(5, { tenant: LIVE }), nothing());

      expect((await repo.listByCustomer(SELLER, 1)).map((s) => s.id)).toEqual([3, 1]);
      expect(await repo.listByCustomer(SELLER, 1)).toEqual([subscription(3), subscription(1)]);
      expect((await repo.listByCustomer(SELLER, 2)).map((s) => s.id)).toEqual([2]);
      expect((await repo.listByCustomer(OTHER_SELLER, 1)).map((s) => s.id)).toEqual([4]);
      expect(await repo.listByCustomer(SELLER, 9)).toEqual([]);
    });
  });

  describe('dueSubscriptions', () => {
    const minutesBefore = (m: number) => new Date(NOW.getTime() - m * 60_000).toISOString();

    it('answers the job ids due by now in the buckets of the last hours, oldest first, any tenant', async () => {
      const { repo } = await make();
      const due = [
        subscription(1, { dueAt: minutesBefore(20) }),
        subscription(2, { dueAt: minutesBefore(91) }),
        subscription(3, { dueAt: NOW.toISOString() }),
        subscription(4, { dueAt: minutesBefore(48 * 60 - 20), tenant: OTHER_SELLER }),
        subscription(5, { dueAt: minutesBefore(91), tenant: LIVE }),
      ];
      const notDue = [
        subscription(6, { dueAt: later(NOW.toISOString(), 1) }),
        subscription(7, { dueAt: minutesBefore(48 * 60 + 31) }),
        subscription(8, { dueAt: null }),
      ];
      for (const s of [...due, ...notDue]) await repo.create(s, nothing());

      expect(await repo.dueSubscriptions(NOW, 48)).toEqual([
        jobOf(due[3]),
        // Same dueAt: by job id (`7:live:5` before `7:test:2`).
        jobOf(due[4]),
        jobOf(due[1]),
        jobOf(due[0]),
        jobOf(due[2]),
      ]);
      expect(await repo.dueSubscriptions(NOW, 0)).toEqual([jobOf(due[0]), jobOf(due[2])]);
    });

    it('follows dueAt through saves: moved to its new bucket, gone once cleared', async () => {
      const { repo } = await make();
      const a = subscription(1, { dueAt: minutesBefore(150) });
      const b = subscription(2, { dueAt: minutesBefore(30) });
      const c = subscription(3, { dueAt: later(NOW.toISOString(), 24 * 60) });
      for (const s of [a, b, c]) await repo.create(s, nothing());

      await repo.save(moved(a, { dueAt: later(NOW.toISOString(), 3 * 24 * 60) }), a, nothing());
      await repo.save(moved(b, { dueAt: null, status: 'failed' }), b, nothing());
      await repo.save(moved(c, { dueAt: minutesBefore(5) }), c, nothing());

      expect(await repo.dueSubscriptions(NOW, 48)).toEqual([jobOf(c)]);
    });
  });
});
