import { describe, expect, it } from 'vitest';
import { createCustomerRepository } from '#shared/adapters/dynamodb/customer-repository';
import { keys } from '#shared/adapters/dynamodb/keys';
import { createScheduledChargeRepository } from '#shared/adapters/dynamodb/scheduled-charge-repository';
import { createTransactionRepository } from '#shared/adapters/dynamodb/transaction-repository';
import { atomically } from '#shared/adapters/dynamodb/unit-of-work';
import { CustomerChangedError, type CustomerProfile } from '#shared/domain/customers/customer';
import type { DomainEvent } from '#shared/domain/events/events';
import { jobId } from '#shared/domain/job-id';
import type {
  Atomically,
  CustomerRepository,
  ScheduledChargeChanges,
  ScheduledChargePage,
  ScheduledChargeQuery,
  ScheduledChargeRepository,
  TransactionRepository,
} from '#shared/domain/ports';
import type {
  Attempt,
  Cycle,
  NewTimelineEntry,
  ScheduledCharge,
  TimelineKind,
} from '#shared/domain/scheduled-charges/charge';
import type { Tenant } from '#shared/domain/tenant';
import type { Transaction } from '#shared/domain/transactions/transaction';
import { FakeCustomerRepository } from '../support/fakes/customer-repository';
import { FakeScheduledChargeRepository } from '../support/fakes/scheduled-charge-repository';
import { fakeAtomically } from '../support/fakes/unit-of-work';
import { conflictOf, customerProfile, freshTable, overdueCustomerIds, registerProfiles } from './support';

const SELLER: Tenant = { sellerId: 7, environment: 'test' };
const OTHER_SELLER: Tenant = { sellerId: 8, environment: 'test' };
const LIVE: Tenant = { sellerId: 7, environment: 'live' };

/** The instant of the due sweep; charge n is created n minutes after midnight of March 1. */
const NOW = new Date('2026-03-10T15:30:00.000Z');
const at = (n: number) => new Date(Date.UTC(2026, 2, 1, 0, n)).toISOString();
const later = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();

const CUSTOMERS = {
  1: {
    id: 1,
    uuid: 'c0000000-0000-4000-8000-000000000001',
    name: 'Ana Souza',
    email: 'ana@example.com',
    document: '52998224725',
  },
  2: {
    id: 2,
    uuid: 'c0000000-0000-4000-8000-000000000002',
    name: 'Bruno Lima',
    email: 'Bruno.Lima@Example.com',
    document: '11222333000181',
  },
  3: {
    id: 3,
    uuid: 'c0000000-0000-4000-8000-000000000003',
    name: 'Ângela Árias',
    email: 'angela@example.com',
    document: '39053344705',
  },
} as const;
type CustomerOf = keyof typeof CUSTOMERS;

/** Charge n's id in a tenant: `sch_<env>_` and 24 characters. */
const idOf = (n: number, tenant: Tenant = SELLER) =>
  `sch_${tenant.environment}_${String(n).padStart(24, '0')}`;
/** A pay token as the domain mints it: it names its charge, then a 32-character secret. */
const tokenOf = (n: number, cycleNumber: number, tenant: Tenant = SELLER) =>
  `cob_${tenant.sellerId}_${idOf(n, tenant)}_${`c${cycleNumber}`.padEnd(32, 'x')}`;

function cycle(
  n: number,
  number: number,
  dueDate: string,
  overrides: Partial<Cycle> = {},
  tenant = SELLER,
): Cycle {
  return {
    number,
    dueDate,
    amount: 5_000,
    status: 'scheduled',
    payToken: tokenOf(n, number, tenant),
    transactionIds: [],
    issued: { pix: null, boleto: null },
    remindersSent: [],
    paidAt: null,
    paidBy: null,
    paidTransactionId: null,
    paymentDate: null,
    externalReference: null,
    attemptCount: 0,
    nextRetryAt: null,
    claim: null,
    failureCode: null,
    failureReason: null,
    gatewayFailureCode: null,
    createdAt: at(n),
    updatedAt: at(n),
    ...overrides,
  };
}

type Options = Partial<ScheduledCharge> & { customerOf?: CustomerOf };

/** Charge n: one-time, `scheduled`, due 2026-03-20 (cycle 1 with the same due date). */
function charge(n: number, options: Options = {}): ScheduledCharge {
  const { customerOf = 1, ...rest } = options;
  const tenant = rest.tenant ?? SELLER;
  const dueDate = rest.dueDate ?? '2026-03-20';
  return {
    id: idOf(n, tenant),
    tenant,
    type: 'one_time',
    status: 'scheduled',
    customer: { ...CUSTOMERS[customerOf] },
    product: null,
    description: null,
    amount: 5_000,
    methods: ['pix', 'boleto'],
    dueDate,
    anchorDate: dueDate,
    recurrence: null,
    trialDays: 0,
    trialEndsOn: null,
    paymentMethod: null,
    cancelAtPeriodEnd: false,
    pausedAt: null,
    canceledAt: null,
    cycles: [cycle(n, 1, dueDate, {}, tenant)],
    overdueCycles: 0,
    dueAt: null,
    lateCharges: null,
    reminderOffsets: null,
    timelineSeq: 0,
    createdAt: at(n),
    updatedAt: at(n),
    version: 1,
    ...rest,
  };
}

/** The next state as the use cases write it: version up, updatedAt moved on. */
function moved(c: ScheduledCharge, changes: Partial<ScheduledCharge>, minutes = 60): ScheduledCharge {
  return { ...c, ...changes, updatedAt: later(c.updatedAt, minutes), version: c.version + 1 };
}

const event = (id: string, tenant = SELLER, name = 'scheduled_charge.updated'): DomainEvent => ({
  tenant,
  envelope: { id, event: name, timestamp: at(0), data: { id } },
});

const timeline = (...kinds: TimelineKind[]): NewTimelineEntry[] =>
  kinds.map((kind, i) => ({ kind, cycleNumber: i === 0 ? null : 1, data: { step: i } }));

const nothing = (): ScheduledChargeChanges => ({ events: [], timeline: [] });

function attempt(
  id: number,
  c: ScheduledCharge,
  cycleNumber: number,
  overrides: Partial<Attempt> = {},
): Attempt {
  return {
    id,
    chargeId: c.id,
    cycleNumber,
    attemptNumber: 1,
    attemptedAt: at(id),
    source: 'silent_charge',
    paymentMethod: 'card',
    paymentMethodId: 5,
    cardLast4: '4242',
    cardBrand: 'visa',
    status: 'declined',
    failureCode: 'card_declined',
    failureReason: 'Cartão recusado',
    gatewayFailureCode: '05',
    gatewayChargeId: 9_000 + id,
    transactionId: null,
    ...overrides,
  };
}

/** A card charge of cycle `cycleNumber` of `c`, as the engine builds it. */
function payment(id: number, c: ScheduledCharge, cycleNumber: number): Transaction {
  return {
    id,
    uuid: `7c000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    tenant: c.tenant,
    provider: 'sandbox',
    checkoutSessionId: null,
    clientReferenceId: null,
    affiliate: null,
    gatewayPayId: 9_100_000_000 + id,
    status: 'captured',
    paymentMethod: 'creditcard',
    value: c.amount,
    valueSeller: c.amount - 238,
    installments: 1,
    customer: { ...c.customer, phone: '11987654321' },
    product: { id: 1, uuid: 'p0000000-0000-4000-8000-000000000001', name: 'Mensalidade', value: c.amount },
    pix: null,
    boleto: null,
    card: { brand: 'visa', last4: '4242' },
    failureCode: null,
    failureReason: null,
    refunds: [],
    refundedAmount: 0,
    paidAt: c.updatedAt,
    canceledAt: null,
    deadline: null,
    metadata: {},
    scheduledCharge: { chargeId: c.id, cycleNumber },
    createdAt: c.updatedAt,
    updatedAt: c.updatedAt,
    version: 1,
  };
}

const query = (q: Partial<ScheduledChargeQuery> = {}): ScheduledChargeQuery => ({
  statuses: [],
  page: 1,
  limit: 50,
  ...q,
});
/** A page as its charge numbers, with its total. */
const seen = (page: ScheduledChargePage) => [page.items.map((c) => Number(c.id.slice(-24))), page.totalCount];
const jobOf = (c: ScheduledCharge) => jobId(c.tenant, c.id);

/** Registers customers 1 to 3 with the seller (test environment). */
const registerCustomers = (customers: CustomerRepository) =>
  registerProfiles(
    customers,
    ([1, 2, 3] as const).map((n) => customerProfile(SELLER, CUSTOMERS[n], at(n))),
  );

const overdueOf = async (customers: CustomerRepository, n: CustomerOf) =>
  (await customers.findProfile(SELLER, CUSTOMERS[n].uuid))?.overdueCount;
/** The seller's customers with an overdue charge (GET /api/v1/customers?status=overdue). */
const overdueCustomers = (customers: CustomerRepository) => overdueCustomerIds(customers, SELLER);

/**
 * The repository as `saveCharge` uses it: after a write, the charge passed in carries the timeline
 * counter as stored (the tests go on from the objects they wrote, as the engine goes on from the
 * charge `saveCharge` answers).
 */
function asWritten(repo: ScheduledChargeRepository): ScheduledChargeRepository {
  return new Proxy(repo, {
    get(target, prop) {
      if (prop === 'create')
        return async (c: ScheduledCharge, changes: ScheduledChargeChanges) => {
          await target.create(c, changes);
          c.timelineSeq = changes.timeline.length;
        };
      if (prop === 'save')
        return async (next: ScheduledCharge, previous: ScheduledCharge, changes: ScheduledChargeChanges) => {
          await target.save(next, previous, changes);
          next.timelineSeq = previous.timelineSeq + changes.timeline.length;
        };
      const value = Reflect.get(target, prop);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

interface Subject {
  repo: ScheduledChargeRepository;
  /** Where a transaction written with a charge can be read back. */
  transactions: Pick<TransactionRepository, 'get'>;
  customers: CustomerRepository;
  atomically: Atomically;
  hasEvent(id: string): Promise<boolean>;
}

describe.each([
  [
    'in-memory fake',
    async (): Promise<Subject> => {
      const customers = new FakeCustomerRepository();
      await registerCustomers(customers);
      const repo = new FakeScheduledChargeRepository({ customers });
      return {
        repo: asWritten(repo),
        transactions: repo.transactions,
        customers,
        atomically: fakeAtomically,
        hasEvent: async (id) => repo.outbox.events.some((e) => e.envelope.id === id),
      };
    },
  ],
  [
    'DynamoDB Local',
    async (): Promise<Subject> => {
      const table = await freshTable();
      const customers = createCustomerRepository(table);
      await registerCustomers(customers);
      return {
        repo: asWritten(createScheduledChargeRepository(table)),
        transactions: createTransactionRepository(table),
        customers,
        atomically,
        hasEvent: async (id) => (await table.get(keys.outboxEvent(id), { consistent: true })) !== undefined,
      };
    },
  ],
])('ScheduledChargeRepository contract (%s)', (_name, make) => {
  describe('ids, create and get', () => {
    it("is written with the customer's confirmUnchanged: a changed profile writes nothing and comes back", async () => {
      const { repo, customers, atomically } = await make();
      const seen = (await customers.findProfile(SELLER, CUSTOMERS[1].uuid)) as CustomerProfile;
      const createOn = (profile: CustomerProfile, c: ScheduledCharge) =>
        atomically(async () => {
          await customers.confirmUnchanged(profile);
          await repo.create(c, { events: [], timeline: [] });
        });
      await createOn(seen, charge(1));
      expect(await repo.get(SELLER, charge(1).id)).not.toBeNull();

      await customers.updateProfile(seen, { name: 'Ana Lima', updatedAt: later(seen.updatedAt, 1) });
      const error = await createOn(seen, charge(2)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CustomerChangedError);
      expect((error as CustomerChangedError).current).toMatchObject({
        uuid: seen.uuid,
        name: 'Ana Lima',
        updatedAt: later(seen.updatedAt, 1),
      });
      expect(await repo.get(SELLER, charge(2).id)).toBeNull();
    });

    it('hands out increasing attempt ids, never the same twice', async () => {
      const { repo } = await make();
      const ids = [await repo.nextAttemptId(), await repo.nextAttemptId(), await repo.nextAttemptId()];

      expect(ids[1]).toBeGreaterThan(ids[0]);
      expect(ids[2]).toBeGreaterThan(ids[1]);
    });

    it('reads back every field of a created series with its cycles, its timeline and its events', async () => {
      const { repo, hasEvent } = await make();
      const series = charge(1, {
        type: 'recurring',
        status: 'overdue',
        customerOf: 2,
        product: { id: 4, uuid: 'p0000000-0000-4000-8000-000000000004', name: 'Academia' },
        description: 'Mensalidade',
        methods: ['card', 'pix'],
        dueDate: '2026-01-31',
        anchorDate: '2026-01-31',
        recurrence: { interval: 'month', intervalCount: 1, endAfterCycles: 12, endDate: null },
        trialDays: 7,
        trialEndsOn: '2026-01-30',
        paymentMethod: { id: 5, cardLast4: '4242', cardBrand: 'visa' },
        cancelAtPeriodEnd: true,
        pausedAt: at(3),
        overdueCycles: 1,
        dueAt: '2026-03-02T12:00:00.000Z',
        cycles: [
          cycle(1, 1, '2026-01-31', {
            status: 'overdue',
            transactionIds: [31, 32],
            issued: { pix: 31, boleto: 32 },
            remindersSent: ['before_3', 'due', 'after_1'],
            attemptCount: 2,
            nextRetryAt: '2026-03-03T03:00:00.000Z',
            claim: {
              attemptNumber: 3,
              transactionId: 33,
              idempotencyKey: 'sch_c1_a3',
              source: 'card_retry',
              claimedAt: at(4),
            },
            failureCode: 'card_declined',
            failureReason: 'Cartão recusado',
            gatewayFailureCode: '05',
          }),
          cycle(1, 2, '2026-02-28', { amount: 6_000 }),
        ],
      });

      await repo.create(series, {
        events: [event('evt_1', SELLER, 'scheduled_charge.created')],
        timeline: [
          { kind: 'created', cycleNumber: null, data: { amount: 5_000, nested: { a: [1, 'b'] } } },
          { kind: 'trial_started', cycleNumber: 1, data: {} },
        ],
      });

      expect(await repo.get(SELLER, series.id)).toEqual(series);
      expect(await hasEvent('evt_1')).toBe(true);
      expect(await repo.timeline(SELLER, series.id)).toEqual([
        { id: 2, kind: 'trial_started', cycleNumber: 1, data: {}, createdAt: series.updatedAt },
        {
          id: 1,
          kind: 'created',
          cycleNumber: null,
          data: { amount: 5_000, nested: { a: [1, 'b'] } },
          createdAt: series.updatedAt,
        },
      ]);
    });

    it("answers null for an id nobody created, a prefix of one, and another seller's or environment's charge", async () => {
      const { repo } = await make();
      await repo.create(charge(1), nothing());
      await repo.create(charge(2, { tenant: OTHER_SELLER }), nothing());

      expect(await repo.get(SELLER, idOf(3))).toBeNull();
      expect(await repo.get(SELLER, idOf(1).slice(0, -1))).toBeNull();
      expect(await repo.get(OTHER_SELLER, idOf(1))).toBeNull();
      expect(await repo.get(LIVE, idOf(1))).toBeNull();
      expect(await repo.get(SELLER, idOf(2, OTHER_SELLER))).toBeNull();
      expect(await repo.get(OTHER_SELLER, idOf(2, OTHER_SELLER))).toEqual(
        charge(2, { tenant: OTHER_SELLER }),
      );
      expect(await repo.timeline(OTHER_SELLER, idOf(1))).toEqual([]);
    });

    it('refuses a second create of the same id with ConflictError already_exists, writing nothing of it', async () => {
      const { repo, hasEvent, customers } = await make();
      const first = charge(1);
      await repo.create(first, { events: [], timeline: timeline('created') });

      const error = await conflictOf(
        repo.create(charge(1, { customerOf: 2, dueDate: '2026-04-01' }), {
          events: [event('evt_2')],
          timeline: timeline('created', 'issued'),
          customerOverdueDelta: 1,
        }),
      );

      expect(error.reason).toBe('already_exists');
      expect(await repo.get(SELLER, idOf(1))).toEqual(first);
      expect(await hasEvent('evt_2')).toBe(false);
      expect((await repo.timeline(SELLER, idOf(1))).map((e) => e.kind)).toEqual(['created']);
      expect(seen(await repo.list(SELLER, query()))).toEqual([[1], 1]);
      expect(seen(await repo.list(SELLER, query({ customerId: 2 })))).toEqual([[], 0]);
      expect(await overdueOf(customers, 2)).toBe(0);
    });
  });

  describe('save', () => {
    it('writes the next state with changed and new cycles; the timeline continues its ids, newest first', async () => {
      const { repo, hasEvent } = await make();
      const c = charge(1, {
        type: 'recurring',
        recurrence: { interval: 'week', intervalCount: 1, endAfterCycles: null, endDate: null },
      });
      await repo.create(c, { events: [], timeline: timeline('created', 'issued') });
      const next = moved(c, {
        status: 'due_today',
        dueAt: '2026-03-21T03:00:00.000Z',
        cycles: [
          { ...c.cycles[0], status: 'due_today', remindersSent: ['due'], updatedAt: later(c.updatedAt, 60) },
          cycle(1, 2, '2026-03-27'),
        ],
      });

      await repo.save(next, c, {
        events: [event('evt_due')],
        timeline: timeline('due_today', 'reminder_sent'),
      });

      expect(await repo.get(SELLER, c.id)).toEqual(next);
      expect(await hasEvent('evt_due')).toBe(true);
      const entries = await repo.timeline(SELLER, c.id);
      expect(entries.map((e) => [e.id, e.kind, e.createdAt])).toEqual([
        [4, 'reminder_sent', next.updatedAt],
        [3, 'due_today', next.updatedAt],
        [2, 'issued', c.updatedAt],
        [1, 'created', c.updatedAt],
      ]);
      expect((await repo.timeline(SELLER, c.id, 2)).map((e) => e.id)).toEqual([4, 3]);
      expect((await repo.findByPayToken(tokenOf(1, 2)))?.cycle).toEqual(next.cycles[1]);
    });

    it('refuses a stale version with ConflictError changed, writing no state, timeline, attempt, transaction, event, token or overdue count', async () => {
      const { repo, hasEvent, transactions, customers } = await make();
      const c = charge(1);
      await repo.create(c, nothing());
      const winner = moved(c, { description: 'won' });
      await repo.save(winner, c, { events: [], timeline: timeline('updated') });
      const loser = moved(c, {
        status: 'overdue',
        overdueCycles: 1,
        cycles: [{ ...c.cycles[0], status: 'overdue' }, cycle(1, 2, '2026-04-20')],
      });

      const error = await conflictOf(
        repo.save(loser, c, {
          events: [event('evt_lost')],
          timeline: timeline('overdue'),
          attempts: [attempt(1, loser, 1)],
          transactions: [{ record: payment(50, loser, 1), events: [event('evt_txn_lost')] }],
          customerOverdueDelta: 1,
        }),
      );

      expect(error.reason).toBe('changed');
      expect(await repo.get(SELLER, c.id)).toEqual(winner);
      expect((await repo.timeline(SELLER, c.id)).map((e) => e.kind)).toEqual(['updated']);
      expect(await repo.attempts(SELLER, c.id, { page: 1, limit: 10 })).toEqual({ items: [], totalCount: 0 });
      expect(await transactions.get(SELLER, 50)).toBeNull();
      expect(await hasEvent('evt_lost')).toBe(false);
      expect(await hasEvent('evt_txn_lost')).toBe(false);
      expect(await repo.findByPayToken(tokenOf(1, 2))).toBeNull();
      expect(await overdueOf(customers, 1)).toBe(0);
      expect(await overdueCustomers(customers)).toEqual([]);
      expect(seen(await repo.list(SELLER, query({ statuses: ['overdue'] })))).toEqual([[], 0]);
    });

    it('refuses to save a charge that was never created (changed)', async () => {
      const { repo } = await make();
      const c = charge(1);

      const error = await conflictOf(repo.save(moved(c, {}), c, nothing()));

      expect(error.reason).toBe('changed');
      expect(await repo.get(SELLER, c.id)).toBeNull();
    });

    it('writes transactions with the charge (readable, with their events); a stored transaction id is already_exists, nothing written', async () => {
      const { repo, hasEvent, transactions } = await make();
      const c = charge(1, { methods: ['card'] });
      await repo.create(c, nothing());
      const paid = moved(c, {
        status: 'paid',
        cycles: [
          {
            ...c.cycles[0],
            status: 'paid',
            paidBy: 'transaction',
            paidTransactionId: 50,
            transactionIds: [50],
          },
        ],
      });
      const record = payment(50, paid, 1);

      await repo.save(paid, c, {
        events: [event('evt_paid', SELLER, 'scheduled_charge.paid')],
        timeline: timeline('paid'),
        attempts: [attempt(1, paid, 1, { status: 'succeeded', failureCode: null, transactionId: 50 })],
        transactions: [{ record, events: [event('evt_txn', SELLER, 'transaction.created')] }],
      });

      expect(await transactions.get(SELLER, 50)).toEqual(record);
      expect(await hasEvent('evt_paid')).toBe(true);
      expect(await hasEvent('evt_txn')).toBe(true);

      const again = moved(paid, { description: 'again' });
      const error = await conflictOf(
        repo.save(again, paid, {
          events: [event('evt_again')],
          timeline: timeline('updated'),
          transactions: [{ record: { ...record, value: 1 }, events: [] }],
        }),
      );
      expect(error.reason).toBe('already_exists');
      expect(await repo.get(SELLER, c.id)).toEqual(paid);
      expect(await hasEvent('evt_again')).toBe(false);
      expect((await transactions.get(SELLER, 50))?.value).toBe(record.value);
      expect((await repo.timeline(SELLER, c.id)).map((e) => e.kind)).toEqual(['paid']);
    });
    it('refuses two new transactions in one change with an Error, writing nothing', async () => {
      const { repo, transactions } = await make();
      const c = charge(1);
      await repo.create(c, nothing());
      const next = moved(c, { description: 'two' });

      await expect(
        repo.save(next, c, {
          events: [],
          timeline: timeline('issued'),
          transactions: [
            { record: payment(50, next, 1), events: [] },
            { record: payment(51, next, 1), events: [] },
          ],
        }),
      ).rejects.toThrow('at most one new transaction');
      expect(await repo.get(SELLER, c.id)).toEqual(c);
      expect(await transactions.get(SELLER, 50)).toBeNull();
      expect(await repo.timeline(SELLER, c.id)).toEqual([]);
    });
  });

  describe('attempts', () => {
    it('pages the attempts newest first across cycles or of one cycle, an overwrite keeping its place', async () => {
      const { repo } = await make();
      const c = charge(1, {
        type: 'recurring',
        cycles: [cycle(1, 1, '2026-03-20'), cycle(1, 2, '2026-03-27')],
      });
      await repo.create(c, {
        events: [],
        timeline: [],
        attempts: [attempt(1, c, 1), attempt(2, c, 1, { attemptNumber: 2 })],
      });
      const next = moved(c, {});
      await repo.save(next, c, {
        events: [],
        timeline: [],
        attempts: [
          attempt(3, c, 2),
          attempt(2, c, 1, { attemptNumber: 2, status: 'errored', failureCode: 'processing_error' }),
          attempt(4, c, 1, { attemptNumber: 3, paymentMethodId: null }),
        ],
      });
      const ids = (r: { items: Attempt[]; totalCount: number }) => [r.items.map((a) => a.id), r.totalCount];

      expect(ids(await repo.attempts(SELLER, c.id, { page: 1, limit: 10 }))).toEqual([[4, 3, 2, 1], 4]);
      expect(ids(await repo.attempts(SELLER, c.id, { page: 1, limit: 3 }))).toEqual([[4, 3, 2], 4]);
      expect(ids(await repo.attempts(SELLER, c.id, { page: 2, limit: 3 }))).toEqual([[1], 4]);
      expect(ids(await repo.attempts(SELLER, c.id, { page: 3, limit: 3 }))).toEqual([[], 4]);
      expect(ids(await repo.attempts(SELLER, c.id, { cycleNumber: 1, page: 1, limit: 2 }))).toEqual([
        [4, 2],
        3,
      ]);
      expect(ids(await repo.attempts(SELLER, c.id, { cycleNumber: 1, page: 2, limit: 2 }))).toEqual([[1], 3]);
      expect(ids(await repo.attempts(SELLER, c.id, { cycleNumber: 2, page: 1, limit: 10 }))).toEqual([
        [3],
        1,
      ]);
      expect(ids(await repo.attempts(SELLER, c.id, { cycleNumber: 3, page: 1, limit: 10 }))).toEqual([[], 0]);
      const all = (await repo.attempts(SELLER, c.id, { page: 1, limit: 10 })).items;
      expect(all[0]).toEqual(attempt(4, c, 1, { attemptNumber: 3, paymentMethodId: null }));
      expect(all[2]).toEqual(
        attempt(2, c, 1, { attemptNumber: 2, status: 'errored', failureCode: 'processing_error' }),
      );
      expect(await repo.attempts(OTHER_SELLER, c.id, { page: 1, limit: 10 })).toEqual({
        items: [],
        totalCount: 0,
      });
      expect(await repo.attempts(LIVE, c.id, { cycleNumber: 1, page: 1, limit: 10 })).toEqual({
        items: [],
        totalCount: 0,
      });
    });
  });

  describe('findByPayToken', () => {
    it('finds the charge and cycle of a token in any tenant; an unknown token is null', async () => {
      const { repo } = await make();
      const mine = charge(1, {
        type: 'recurring',
        cycles: [cycle(1, 1, '2026-03-20'), cycle(1, 2, '2026-04-20')],
      });
      const theirs = charge(1, { tenant: OTHER_SELLER });
      const live = charge(1, { tenant: LIVE });
      for (const c of [mine, theirs, live]) await repo.create(c, nothing());

      expect(await repo.findByPayToken(tokenOf(1, 2))).toEqual({ charge: mine, cycle: mine.cycles[1] });
      expect(await repo.findByPayToken(tokenOf(1, 1, OTHER_SELLER))).toEqual({
        charge: theirs,
        cycle: theirs.cycles[0],
      });
      expect(await repo.findByPayToken(tokenOf(1, 1, LIVE))).toEqual({ charge: live, cycle: live.cycles[0] });
      expect(await repo.findByPayToken('cob_unknown')).toBeNull();
    });

    it('finds a token that names its charge only when it is one of that charge’s cycles’ tokens', async () => {
      const { repo } = await make();
      const secret = (c: string) => c.repeat(32);
      const named = (tenant: Tenant, n: number, s: string) =>
        `cob_${tenant.sellerId}_${idOf(n, tenant)}_${s}`;
      const mine = charge(2, {
        type: 'recurring',
        cycles: [
          cycle(2, 1, '2026-03-20', { payToken: named(SELLER, 2, secret('a')) }),
          cycle(2, 2, '2026-04-20', { payToken: named(SELLER, 2, secret('b')) }),
        ],
      });
      const theirs = charge(2, {
        tenant: OTHER_SELLER,
        cycles: [cycle(2, 1, '2026-03-20', { payToken: named(OTHER_SELLER, 2, secret('c')) }, OTHER_SELLER)],
      });
      for (const c of [mine, theirs]) await repo.create(c, nothing());

      expect(await repo.findByPayToken(named(SELLER, 2, secret('b')))).toEqual({
        charge: mine,
        cycle: mine.cycles[1],
      });
      expect(await repo.findByPayToken(named(OTHER_SELLER, 2, secret('c')))).toEqual({
        charge: theirs,
        cycle: theirs.cycles[0],
      });
      // The right charge with another secret, another charge's secret, a charge that does not exist.
      expect(await repo.findByPayToken(named(SELLER, 2, secret('z')))).toBeNull();
      expect(await repo.findByPayToken(named(SELLER, 2, secret('c')))).toBeNull();
      expect(await repo.findByPayToken(named(OTHER_SELLER, 2, secret('a')))).toBeNull();
      expect(await repo.findByPayToken(named(LIVE, 2, secret('a')))).toBeNull();
      expect(await repo.findByPayToken(named(SELLER, 3, secret('a')))).toBeNull();
    });
  });

  describe('list', () => {
    /**
     * 1..8 in the seller's test environment, one in another seller's and one in live:
     * n  customer type       status    dueDate
     * 1  1 Ana    one_time   scheduled 2026-03-20
     * 2  2 Bruno  recurring  overdue   2026-03-05
     * 3  3 Ângela one_time   paid      2026-03-20
     * 4  1 Ana    recurring  due_today 2026-03-10
     * 5  2 Bruno  one_time   scheduled 2026-04-01
     * 6  3 Ângela recurring  scheduled 2026-03-31
     * 7  1 Ana    one_time   overdue   2026-03-01
     * 8  2 Bruno  one_time   canceled  2026-03-20
     */
    const SET: [number, CustomerOf, ScheduledCharge['type'], ScheduledCharge['status'], string][] = [
      [1, 1, 'one_time', 'scheduled', '2026-03-20'],
      [2, 2, 'recurring', 'overdue', '2026-03-05'],
      [3, 3, 'one_time', 'paid', '2026-03-20'],
      [4, 1, 'recurring', 'due_today', '2026-03-10'],
      [5, 2, 'one_time', 'scheduled', '2026-04-01'],
      [6, 3, 'recurring', 'scheduled', '2026-03-31'],
      [7, 1, 'one_time', 'overdue', '2026-03-01'],
      [8, 2, 'one_time', 'canceled', '2026-03-20'],
    ];
    const listed = () =>
      SET.map(([n, customerOf, type, status, dueDate]) => charge(n, { customerOf, type, status, dueDate }));

    async function seeded(): Promise<Subject> {
      const subject = await make();
      for (const c of listed()) await subject.repo.create(c, nothing());
      await subject.repo.create(charge(9, { tenant: OTHER_SELLER }), nothing());
      await subject.repo.create(charge(10, { tenant: LIVE }), nothing());
      return subject;
    }

    it("lists the tenant's charges by dueDate then id with the total, paged, none of another tenant's, without cycles", async () => {
      const { repo } = await seeded();

      const all = await repo.list(SELLER, query());
      expect(seen(all)).toEqual([[7, 2, 4, 1, 3, 8, 6, 5], 8]);
      expect(all.items[0]).toEqual({ ...listed()[6], cycles: [] });
      expect(seen(await repo.list(SELLER, query({ limit: 3 })))).toEqual([[7, 2, 4], 8]);
      expect(seen(await repo.list(SELLER, query({ limit: 3, page: 3 })))).toEqual([[6, 5], 8]);
      expect(seen(await repo.list(SELLER, query({ limit: 3, page: 4 })))).toEqual([[], 8]);
      expect(seen(await repo.list(OTHER_SELLER, query()))).toEqual([[9], 1]);
      expect(seen(await repo.list(LIVE, query()))).toEqual([[10], 1]);
      expect(seen(await repo.list({ sellerId: 99, environment: 'test' }, query()))).toEqual([[], 0]);
    });

    it('filters by one or several statuses, customer, type and inclusive due dates, each with its total', async () => {
      const { repo } = await seeded();

      expect(seen(await repo.list(SELLER, query({ statuses: ['scheduled'] })))).toEqual([[1, 6, 5], 3]);
      expect(seen(await repo.list(SELLER, query({ statuses: ['overdue', 'due_today'] })))).toEqual([
        [7, 2, 4],
        3,
      ]);
      expect(
        seen(await repo.list(SELLER, query({ statuses: ['overdue', 'scheduled'], limit: 2, page: 2 }))),
      ).toEqual([[1, 6], 5]);
      expect(seen(await repo.list(SELLER, query({ statuses: ['trial'] })))).toEqual([[], 0]);
      expect(seen(await repo.list(SELLER, query({ customerId: 2 })))).toEqual([[2, 8, 5], 3]);
      expect(seen(await repo.list(SELLER, query({ type: 'recurring' })))).toEqual([[2, 4, 6], 3]);
      expect(seen(await repo.list(SELLER, query({ dueDateFrom: '2026-03-10' })))).toEqual([
        [4, 1, 3, 8, 6, 5],
        6,
      ]);
      expect(seen(await repo.list(SELLER, query({ dueDateTo: '2026-03-10' })))).toEqual([[7, 2, 4], 3]);
      expect(
        seen(await repo.list(SELLER, query({ dueDateFrom: '2026-03-20', dueDateTo: '2026-03-20' }))),
      ).toEqual([[1, 3, 8], 3]);
      expect(
        seen(
          await repo.list(
            SELLER,
            query({ dueDateFrom: '2026-03-20', dueDateTo: '2026-03-20', limit: 2, page: 2 }),
          ),
        ),
      ).toEqual([[8], 3]);
    });

    it("searches by the customer's name prefix (case and accents ignored), e-mail (any case) or document (masked or not)", async () => {
      const { repo } = await seeded();

      expect(seen(await repo.list(SELLER, query({ search: 'ana' })))).toEqual([[7, 4, 1], 3]);
      expect(seen(await repo.list(SELLER, query({ search: 'ANGE' })))).toEqual([[3, 6], 2]);
      expect(seen(await repo.list(SELLER, query({ search: 'a' })))).toEqual([[7, 4, 1, 3, 6], 5]);
      expect(seen(await repo.list(SELLER, query({ search: 'a', limit: 2, page: 2 })))).toEqual([[1, 3], 5]);
      expect(seen(await repo.list(SELLER, query({ search: 'bruno.lima@example.COM' })))).toEqual([
        [2, 8, 5],
        3,
      ]);
      expect(seen(await repo.list(SELLER, query({ search: '11.222.333/0001-81' })))).toEqual([[2, 8, 5], 3]);
      expect(seen(await repo.list(SELLER, query({ search: '52998224725' })))).toEqual([[7, 4, 1], 3]);
      expect(seen(await repo.list(SELLER, query({ search: 'zélia' })))).toEqual([[], 0]);
      expect(seen(await repo.list(OTHER_SELLER, query({ search: 'bruno' })))).toEqual([[], 0]);
    });

    it('combines filters, counting the matches, and pages the combined list', async () => {
      const { repo } = await seeded();

      expect(
        seen(await repo.list(SELLER, query({ statuses: ['scheduled', 'overdue'], customerId: 2 }))),
      ).toEqual([[2, 5], 2]);
      expect(
        seen(
          await repo.list(
            SELLER,
            query({ statuses: ['scheduled'], type: 'one_time', dueDateTo: '2026-03-31' }),
          ),
        ),
      ).toEqual([[1], 1]);
      expect(seen(await repo.list(SELLER, query({ search: 'a', statuses: ['overdue', 'paid'] })))).toEqual([
        [7, 3],
        2,
      ]);
      expect(seen(await repo.list(SELLER, query({ search: 'bruno@', customerId: 2 })))).toEqual([[], 0]);
      expect(
        seen(await repo.list(SELLER, query({ search: 'ana', customerId: 1, dueDateFrom: '2026-03-02' }))),
      ).toEqual([[4, 1], 2]);
      expect(
        seen(
          await repo.list(
            SELLER,
            query({ search: 'bruno.lima@example.com', type: 'one_time', limit: 1, page: 2 }),
          ),
        ),
      ).toEqual([[5], 2]);
      expect(
        seen(
          await repo.list(
            SELLER,
            query({ type: 'recurring', dueDateFrom: '2026-03-06', dueDateTo: '2026-03-31' }),
          ),
        ),
      ).toEqual([[4, 6], 2]);
      expect(
        seen(await repo.list(SELLER, query({ customerId: 3, statuses: ['paid'], search: '39053344705' }))),
      ).toEqual([[3], 1]);
    });

    it('follows saves: status totals move, a postponed due date re-sorts the charge and its search', async () => {
      const { repo } = await seeded();
      const [c1, c2] = listed();
      await repo.save(moved(c2, { status: 'paid' }), c2, nothing());
      await repo.save(
        moved(c1, { dueDate: '2026-05-01', cycles: [{ ...c1.cycles[0], dueDate: '2026-05-01' }] }),
        c1,
        nothing(),
      );

      expect(seen(await repo.list(SELLER, query({ statuses: ['overdue'] })))).toEqual([[7], 1]);
      expect(seen(await repo.list(SELLER, query({ statuses: ['paid'] })))).toEqual([[2, 3], 2]);
      expect(seen(await repo.list(SELLER, query()))).toEqual([[7, 2, 4, 3, 8, 6, 5, 1], 8]);
      expect(seen(await repo.list(SELLER, query({ search: 'ana' })))).toEqual([[7, 4, 1], 3]);
      expect(
        seen(await repo.list(SELLER, query({ search: 'ana@example.com', dueDateFrom: '2026-04-01' }))),
      ).toEqual([[1], 1]);
      expect(seen(await repo.list(SELLER, query({ customerId: 1, dueDateTo: '2026-03-31' })))).toEqual([
        [7, 4],
        2,
      ]);
    });
  });

  describe('listByCustomer', () => {
    it("answers the customer's open charges with their cycles, latest due date first, none of another customer or tenant", async () => {
      const { repo } = await make();
      const open = [
        charge(1, { dueDate: '2026-03-20' }),
        charge(2, {
          dueDate: '2026-04-20',
          status: 'overdue',
          type: 'recurring',
          cycles: [cycle(2, 1, '2026-03-01'), cycle(2, 2, '2026-04-20')],
        }),
      ];
      const closed = [
        charge(3, { status: 'paid' }),
        charge(4, { status: 'canceled' }),
        charge(5, { status: 'recurrence_canceled' }),
      ];
      for (const c of [...open, ...closed, charge(6, { customerOf: 2 }), charge(7, { tenant: OTHER_SELLER })])
        await repo.create(c, nothing());

      expect(await repo.listByCustomer(SELLER, 1)).toEqual([open[1], open[0]]);
      expect((await repo.listByCustomer(SELLER, 2)).map((c) => c.id)).toEqual([idOf(6)]);
      expect((await repo.listByCustomer(OTHER_SELLER, 1)).map((c) => c.id)).toEqual([idOf(7, OTHER_SELLER)]);
      expect(await repo.listByCustomer(LIVE, 1)).toEqual([]);
    });

    it('adds the closed charges last changed at or after closedSince, and no older one', async () => {
      const { repo } = await make();
      const open = charge(1, { dueDate: '2026-03-20' });
      const recent = charge(2, {
        status: 'paid',
        dueDate: '2026-03-10',
        updatedAt: '2026-03-10T12:00:00.000Z',
      });
      const old = charge(3, {
        status: 'canceled',
        dueDate: '2026-01-10',
        updatedAt: '2026-01-10T12:00:00.000Z',
      });
      for (const c of [open, recent, old, charge(4, { status: 'paid', customerOf: 2 })])
        await repo.create(c, nothing());

      const ids = (list: { id: string }[]) => list.map((c) => c.id);
      expect(ids(await repo.listByCustomer(SELLER, 1, { closedSince: '2026-03-10T12:00:00.000Z' }))).toEqual([
        idOf(1),
        idOf(2),
      ]);
      expect(ids(await repo.listByCustomer(SELLER, 1, { closedSince: '2026-01-01T00:00:00.000Z' }))).toEqual([
        idOf(1),
        idOf(2),
        idOf(3),
      ]);
      expect(ids(await repo.listByCustomer(SELLER, 1))).toEqual([idOf(1)]);
    });
  });

  describe('dueCharges', () => {
    const minutesBefore = (m: number) => new Date(NOW.getTime() - m * 60_000).toISOString();

    it('answers the job ids due by now in the buckets of the last hours, oldest first, any tenant', async () => {
      const { repo } = await make();
      const due = [
        charge(1, { dueAt: minutesBefore(20) }),
        charge(2, { dueAt: minutesBefore(91) }),
        charge(3, { dueAt: NOW.toISOString() }),
        charge(4, { dueAt: minutesBefore(6 * 60 - 20), tenant: OTHER_SELLER }),
        charge(5, { dueAt: minutesBefore(91), tenant: LIVE }),
      ];
      const notDue = [
        charge(6, { dueAt: later(NOW.toISOString(), 1) }),
        charge(7, { dueAt: minutesBefore(6 * 60 + 31) }),
        charge(8, { dueAt: null }),
      ];
      for (const c of [...due, ...notDue]) await repo.create(c, nothing());

      expect(await repo.dueCharges(NOW, 6)).toEqual([
        jobOf(due[3]),
        // Same dueAt: by job id (`7:live:…` before `7:test:…`).
        jobOf(due[4]),
        jobOf(due[1]),
        jobOf(due[0]),
        jobOf(due[2]),
      ]);
      expect(await repo.dueCharges(NOW, 0)).toEqual([jobOf(due[0]), jobOf(due[2])]);
    });

    it('follows dueAt through saves: moved to its new bucket, gone once cleared', async () => {
      const { repo } = await make();
      const a = charge(1, { dueAt: minutesBefore(150) });
      const b = charge(2, { dueAt: minutesBefore(30) });
      const c = charge(3, { dueAt: later(NOW.toISOString(), 24 * 60) });
      for (const x of [a, b, c]) await repo.create(x, nothing());

      await repo.save(moved(a, { dueAt: later(NOW.toISOString(), 3 * 24 * 60) }), a, nothing());
      await repo.save(moved(b, { dueAt: null, status: 'paid' }), b, nothing());
      await repo.save(moved(c, { dueAt: minutesBefore(5) }), c, nothing());

      expect(await repo.dueCharges(NOW, 6)).toEqual([jobOf(c)]);
    });
  });

  describe("the customer's overdue count", () => {
    it('moves with the charges in their own writes: the marker flips 0 → 1 → 0 and never below 0', async () => {
      const { repo, customers } = await make();
      const a = charge(1);
      const b = charge(2);
      await repo.create(a, nothing());
      await repo.create(b, nothing());
      const aOverdue = moved(a, { status: 'overdue', overdueCycles: 1 });
      const bOverdue = moved(b, { status: 'overdue', overdueCycles: 1 });

      await repo.save(aOverdue, a, { events: [], timeline: timeline('overdue'), customerOverdueDelta: 1 });
      expect(await overdueOf(customers, 1)).toBe(1);
      expect(await overdueCustomers(customers)).toEqual([1]);

      await repo.save(bOverdue, b, { events: [], timeline: timeline('overdue'), customerOverdueDelta: 1 });
      expect(await overdueOf(customers, 1)).toBe(2);

      const aPaid = moved(aOverdue, { status: 'paid', overdueCycles: 0 });
      await repo.save(aPaid, aOverdue, { events: [], timeline: timeline('paid'), customerOverdueDelta: -1 });
      expect(await overdueOf(customers, 1)).toBe(1);
      expect(await overdueCustomers(customers)).toEqual([1]);

      const bPostponed = moved(bOverdue, { status: 'scheduled', overdueCycles: 0 });
      await repo.save(bPostponed, bOverdue, {
        events: [],
        timeline: timeline('postponed'),
        customerOverdueDelta: -1,
      });
      expect(await overdueOf(customers, 1)).toBe(0);
      expect(await overdueCustomers(customers)).toEqual([]);

      await repo.save(moved(bPostponed, {}), bPostponed, {
        events: [],
        timeline: [],
        customerOverdueDelta: -1,
      });
      expect(await overdueOf(customers, 1)).toBe(0);
      expect(await overdueCustomers(customers)).toEqual([]);
    });

    it('keeps count when several charges of the customer move it at the same time', async () => {
      const { repo, customers } = await make();
      const charges = [1, 2, 3, 4].map((n) => charge(n));
      for (const c of charges) await repo.create(c, nothing());
      const overdue = charges.map((c) => moved(c, { status: 'overdue', overdueCycles: 1 }));

      await Promise.all(
        charges.map((c, i) =>
          repo.save(overdue[i], c, { events: [], timeline: timeline('overdue'), customerOverdueDelta: 1 }),
        ),
      );
      expect(await overdueOf(customers, 1)).toBe(4);
      expect(await overdueCustomers(customers)).toEqual([1]);

      await Promise.all(
        overdue.map((c) =>
          repo.save(moved(c, { status: 'paid', overdueCycles: 0 }), c, {
            events: [],
            timeline: timeline('paid'),
            customerOverdueDelta: -1,
          }),
        ),
      );
      expect(await overdueOf(customers, 1)).toBe(0);
      expect(await overdueCustomers(customers)).toEqual([]);
    });

    it('is moved by a create too, and by several cycles at once', async () => {
      const { repo, customers } = await make();
      await repo.create(charge(1, { customerOf: 3, status: 'overdue', overdueCycles: 2 }), {
        events: [],
        timeline: timeline('created'),
        customerOverdueDelta: 2,
      });

      expect(await overdueOf(customers, 3)).toBe(2);
      expect(await overdueOf(customers, 1)).toBe(0);
      expect(await overdueCustomers(customers)).toEqual([3]);
    });
  });
});
