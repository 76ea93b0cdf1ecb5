import { describe, expect, it } from 'vitest';
import { createCustomerRepository } from '#shared/adapters/dynamodb/customer-repository';
import { createInstallmentPlanRepository } from '#shared/adapters/dynamodb/installment-plan-repository';
import { keys } from '#shared/adapters/dynamodb/keys';
import { createTransactionRepository } from '#shared/adapters/dynamodb/transaction-repository';
import type { DomainEvent } from '#shared/domain/events/events';
import type { Installment, InstallmentPlan } from '#shared/domain/installment-plans/plan';
import { jobId } from '#shared/domain/job-id';
import type {
  CustomerRepository,
  InstallmentPlanChanges,
  InstallmentPlanPage,
  InstallmentPlanQuery,
  InstallmentPlanRepository,
  TransactionRepository,
} from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import type { Transaction } from '#shared/domain/transactions/transaction';
import { FakeClock } from '../support/fakes/clock';
import { FakeCustomerRepository } from '../support/fakes/customer-repository';
import { FakeInstallmentPlanRepository } from '../support/fakes/installment-plan-repository';
import { conflictOf, customerProfile, freshTable, overdueCustomerIds, registerProfiles } from './support';

const SELLER: Tenant = { sellerId: 7, environment: 'test' };
const OTHER_SELLER: Tenant = { sellerId: 8, environment: 'test' };
const LIVE: Tenant = { sellerId: 7, environment: 'live' };

/** The clock's start; plan n is created n minutes after midnight of March 1. */
const NOW = '2026-03-10T15:30:00.000Z';
const at = (n: number) => new Date(Date.UTC(2026, 2, 1, 0, n)).toISOString();
const later = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();
const DAY_MINUTES = 24 * 60;

const CUSTOMERS = {
  1: { id: 1, uuid: 'c0000000-0000-4000-8000-000000000001', name: 'Ana Souza', email: 'ana@example.com' },
  2: { id: 2, uuid: 'c0000000-0000-4000-8000-000000000002', name: 'Bruno Lima', email: 'bruno@example.com' },
} as const;
const DOCUMENTS = { 1: '52998224725', 2: '39053344705' } as const;
type CustomerOf = keyof typeof CUSTOMERS;

/** Plan n's uuid (any tenant: the key carries the tenant). */
const uuidOf = (n: number) => `a0000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const numberOf = (p: InstallmentPlan) => Number(p.uuid.slice(-12));

function installment(number: number, dueDate: string, overrides: Partial<Installment> = {}): Installment {
  return {
    number,
    amount: 10_349,
    dueDate,
    status: 'scheduled',
    boleto: null,
    reissueCount: 0,
    remindersSent: [],
    paidAt: null,
    paidAmount: null,
    paidBy: null,
    paidTransactionId: null,
    ...overrides,
  };
}

type Options = Partial<InstallmentPlan> & { customerOf?: CustomerOf };

/** Plan n: 3 installments of R$ 103,49 from 2026-03-20, `pending_activation`, installment 1 issued. */
function plan(n: number, options: Options = {}): InstallmentPlan {
  const { customerOf = 1, ...rest } = options;
  const tenant = rest.tenant ?? SELLER;
  return {
    uuid: uuidOf(n),
    tenant,
    status: 'pending_activation',
    cancelReason: null,
    product: { id: 3, uuid: 'b0000000-0000-4000-8000-000000000003', name: 'Curso de violão' },
    customer: { ...CUSTOMERS[customerOf], document: DOCUMENTS[customerOf] },
    affiliate: { affiliateId: 41, commissionPercent: 10, commission: 1_035 },
    installments: 3,
    installmentsPaid: 0,
    baseValue: 30_000,
    fator: 10_349,
    installmentAmount: 10_349,
    totalScheduled: 31_047,
    totalCollected: 0,
    firstDueDate: '2026-03-20',
    installmentsDetail: [
      installment(1, '2026-03-20', {
        boleto: {
          transactionId: 100 + n,
          gatewayPayId: 9_200_000_000 + n,
          barcodeLine: '34191.79001 01043.510047 91020.150008 8 13890000010349',
          pdfUrl: `https://sandbox.example/boleto/${n}.pdf`,
          dueDate: '2026-03-20',
          issuedAt: at(n),
        },
        remindersSent: ['before_3'],
      }),
      installment(2, '2026-04-20'),
      installment(3, '2026-05-20'),
    ],
    overdueInstallments: 0,
    dueAt: null,
    booklet: null,
    reminderOffsets: null,
    fingerprint: `fp-${n}`,
    activatedAt: null,
    completedAt: null,
    canceledAt: null,
    createdAt: at(n),
    updatedAt: at(n),
    version: 1,
    ...rest,
  };
}

/** The next state as the use cases write it: version up, updatedAt moved on. */
function moved(p: InstallmentPlan, changes: Partial<InstallmentPlan>, minutes = 60): InstallmentPlan {
  return { ...p, ...changes, updatedAt: later(p.updatedAt, minutes), version: p.version + 1 };
}

const event = (id: string, tenant = SELLER, name = 'installment_plan.created'): DomainEvent => ({
  tenant,
  envelope: { id, event: name, timestamp: at(0), data: { id } },
});

const nothing = (): InstallmentPlanChanges => ({ events: [] });

/** The boleto of installment `number` of `p`, as the use cases build it. */
function boleto(id: number, p: InstallmentPlan, number: number): Transaction {
  return {
    id,
    uuid: `7d000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    tenant: p.tenant,
    provider: 'sandbox',
    checkoutSessionId: null,
    clientReferenceId: null,
    affiliate: p.affiliate,
    gatewayPayId: 9_300_000_000 + id,
    status: 'pendingBoleto',
    paymentMethod: 'boleto',
    value: p.installmentAmount,
    valueSeller: p.installmentAmount - 349,
    installments: 1,
    customer: { ...p.customer, phone: '11987654321' },
    product: { ...p.product, value: p.installmentAmount },
    pix: null,
    boleto: null,
    card: null,
    failureCode: null,
    failureReason: null,
    refunds: [],
    refundedAmount: 0,
    paidAt: null,
    canceledAt: null,
    deadline: '2026-04-20',
    metadata: {},
    scheduledCharge: null,
    installmentPlan: { planUuid: p.uuid, number },
    createdAt: p.updatedAt,
    updatedAt: p.updatedAt,
    version: 1,
  };
}

const query = (q: Partial<InstallmentPlanQuery> = {}): InstallmentPlanQuery => ({
  statuses: [],
  page: 1,
  limit: 50,
  ...q,
});
/** A page as its plan numbers, with its total. */
const seen = (page: InstallmentPlanPage) => [page.items.map(numberOf), page.totalCount];
const jobOf = (p: InstallmentPlan) => jobId(p.tenant, p.uuid);

/** Registers customers 1 and 2 with the seller (test environment). */
const registerCustomers = (customers: CustomerRepository) =>
  registerProfiles(
    customers,
    ([1, 2] as const).map((n) => customerProfile(SELLER, { ...CUSTOMERS[n], document: DOCUMENTS[n] }, at(n))),
  );

const overdueOf = async (customers: CustomerRepository, n: CustomerOf) =>
  (await customers.findProfile(SELLER, CUSTOMERS[n].uuid))?.overdueCount;
/** The seller's customers with something overdue (GET /api/v1/customers?status=overdue). */
const overdueCustomers = (customers: CustomerRepository) => overdueCustomerIds(customers, SELLER);

interface Subject {
  repo: InstallmentPlanRepository;
  clock: FakeClock;
  /** Where a transaction written with a plan can be read back. */
  transactions: Pick<TransactionRepository, 'get'>;
  customers: CustomerRepository;
  hasEvent(id: string): Promise<boolean>;
  /** The adapter reports what it read; the fake reports every match. */
  boundedReads: boolean;
}

describe.each([
  [
    'in-memory fake',
    async (): Promise<Subject> => {
      const clock = new FakeClock(NOW);
      const customers = new FakeCustomerRepository();
      await registerCustomers(customers);
      const repo = new FakeInstallmentPlanRepository({ customers, clock });
      return {
        repo,
        clock,
        transactions: repo.transactions,
        customers,
        hasEvent: async (id) => repo.outbox.events.some((e) => e.envelope.id === id),
        boundedReads: false,
      };
    },
  ],
  [
    'DynamoDB Local',
    async (): Promise<Subject> => {
      const clock = new FakeClock(NOW);
      const table = await freshTable();
      const customers = createCustomerRepository(table);
      await registerCustomers(customers);
      return {
        repo: createInstallmentPlanRepository(table, clock),
        clock,
        transactions: createTransactionRepository(table),
        customers,
        hasEvent: async (id) => (await table.get(keys.outboxEvent(id), { consistent: true })) !== undefined,
        boundedReads: true,
      };
    },
  ],
])('InstallmentPlanRepository contract (%s)', (_name, make) => {
  describe('create and get', () => {
    it('reads back every field of a created plan with every installment, and writes its events', async () => {
      const { repo, hasEvent } = await make();
      const p = plan(1, { dueAt: '2026-03-17T03:00:00.000Z' });

      await repo.create(p, { events: [event('evt_created')] });

      expect(await repo.get(SELLER, p.uuid)).toEqual(p);
      expect(await hasEvent('evt_created')).toBe(true);
    });

    it('round-trips a plan without an affiliate, paid and canceled installments and null money fields', async () => {
      const { repo } = await make();
      const p = plan(1, {
        affiliate: null,
        status: 'canceled',
        cancelReason: 'seller',
        installmentsPaid: 1,
        totalCollected: 10_500,
        canceledAt: at(90),
        activatedAt: at(30),
        installmentsDetail: [
          installment(1, '2026-03-20', {
            status: 'paid',
            paidAt: at(30),
            paidAmount: 10_500,
            paidBy: 'notification',
            paidTransactionId: 101,
          }),
          installment(2, '2026-04-20', { status: 'canceled' }),
        ],
        installments: 2,
      });

      await repo.create(p, nothing());

      expect(await repo.get(SELLER, p.uuid)).toEqual(p);
    });

    it("answers null for a uuid nobody created and for another seller's or environment's plan", async () => {
      const { repo } = await make();
      await repo.create(plan(1), nothing());

      expect(await repo.get(SELLER, uuidOf(2))).toBeNull();
      expect(await repo.get(OTHER_SELLER, uuidOf(1))).toBeNull();
      expect(await repo.get(LIVE, uuidOf(1))).toBeNull();
    });

    it('keeps the same uuid apart in two tenants', async () => {
      const { repo } = await make();
      const mine = plan(1);
      const theirs = plan(1, { tenant: OTHER_SELLER, baseValue: 50_000 });
      await repo.create(mine, nothing());
      await repo.create(theirs, nothing());

      expect(await repo.get(SELLER, mine.uuid)).toEqual(mine);
      expect(await repo.get(OTHER_SELLER, mine.uuid)).toEqual(theirs);
      expect(seen(await repo.list(SELLER, query()))).toEqual([[1], 1]);
    });

    it('refuses a second create of the same uuid with ConflictError already_exists, writing nothing of it', async () => {
      const { repo, hasEvent, transactions, customers } = await make();
      const p = plan(1);
      await repo.create(p, nothing());
      const again = plan(1, { baseValue: 99_999, status: 'active' });

      const error = await conflictOf(
        repo.create(again, {
          events: [event('evt_again')],
          transactions: [{ record: boleto(50, again, 1), events: [event('evt_txn_again')] }],
          customerOverdueDelta: 1,
        }),
      );

      expect(error.reason).toBe('already_exists');
      expect(await repo.get(SELLER, p.uuid)).toEqual(p);
      expect(await hasEvent('evt_again')).toBe(false);
      expect(await hasEvent('evt_txn_again')).toBe(false);
      expect(await transactions.get(SELLER, 50)).toBeNull();
      expect(await overdueOf(customers, 1)).toBe(0);
      expect(seen(await repo.list(SELLER, query()))).toEqual([[1], 1]);
      expect(seen(await repo.list(SELLER, query({ statuses: ['active'] })))).toEqual([[], 0]);
    });
  });

  describe('save', () => {
    it('writes the next state with its events', async () => {
      const { repo, hasEvent } = await make();
      const p = plan(1);
      await repo.create(p, nothing());
      const active = moved(p, {
        status: 'active',
        activatedAt: at(120),
        installmentsPaid: 1,
        totalCollected: 10_349,
        installmentsDetail: [
          {
            ...p.installmentsDetail[0],
            status: 'paid',
            paidAt: at(120),
            paidAmount: 10_349,
            paidBy: 'mark_paid',
          },
          ...p.installmentsDetail.slice(1),
        ],
      });

      await repo.save(active, p, { events: [event('evt_activated', SELLER, 'installment_plan.activated')] });

      expect(await repo.get(SELLER, p.uuid)).toEqual(active);
      expect(await hasEvent('evt_activated')).toBe(true);
    });

    it('refuses a stale version with ConflictError changed, writing no state, event, transaction or overdue count', async () => {
      const { repo, hasEvent, transactions, customers } = await make();
      const p = plan(1);
      await repo.create(p, nothing());
      const winner = moved(p, { status: 'active', activatedAt: at(120) });
      await repo.save(winner, p, nothing());
      const loser = moved(p, { status: 'canceled', canceledAt: at(130), overdueInstallments: 1 });

      const error = await conflictOf(
        repo.save(loser, p, {
          events: [event('evt_lost')],
          transactions: [{ record: boleto(50, loser, 2), events: [event('evt_txn_lost')] }],
          customerOverdueDelta: 1,
        }),
      );

      expect(error.reason).toBe('changed');
      expect(await repo.get(SELLER, p.uuid)).toEqual(winner);
      expect(await hasEvent('evt_lost')).toBe(false);
      expect(await hasEvent('evt_txn_lost')).toBe(false);
      expect(await transactions.get(SELLER, 50)).toBeNull();
      expect(await overdueOf(customers, 1)).toBe(0);
      expect(await overdueCustomers(customers)).toEqual([]);
      expect(seen(await repo.list(SELLER, query({ statuses: ['canceled'] })))).toEqual([[], 0]);
      expect(seen(await repo.list(SELLER, query({ statuses: ['active'] })))).toEqual([[1], 1]);
    });

    it('refuses to save a plan that was never created (changed)', async () => {
      const { repo } = await make();
      const p = plan(1);

      const error = await conflictOf(repo.save(moved(p, {}), p, nothing()));

      expect(error.reason).toBe('changed');
      expect(await repo.get(SELLER, p.uuid)).toBeNull();
    });

    it('writes a transaction with the plan (readable, with its events); a stored transaction id is already_exists, nothing written', async () => {
      const { repo, hasEvent, transactions } = await make();
      const p = plan(1, { status: 'active' });
      await repo.create(p, nothing());
      const issued = moved(p, {
        installmentsDetail: [
          p.installmentsDetail[0],
          {
            ...p.installmentsDetail[1],
            boleto: {
              transactionId: 50,
              gatewayPayId: 9_300_000_050,
              barcodeLine: '34191.79001 01043.510047 91020.150008 8 14200000010349',
              pdfUrl: 'https://sandbox.example/boleto/50.pdf',
              dueDate: '2026-04-20',
              issuedAt: at(200),
            },
          },
          p.installmentsDetail[2],
        ],
      });

      await repo.save(issued, p, {
        events: [event('evt_issued', SELLER, 'installment_plan.installment_issued')],
        transactions: [
          { record: boleto(50, issued, 2), events: [event('evt_txn_50', SELLER, 'transaction.created')] },
        ],
      });

      expect(await repo.get(SELLER, p.uuid)).toEqual(issued);
      expect(await transactions.get(SELLER, 50)).toMatchObject({
        id: 50,
        status: 'pendingBoleto',
        value: 10_349,
        installmentPlan: { planUuid: p.uuid, number: 2 },
      });
      expect(await hasEvent('evt_issued')).toBe(true);
      expect(await hasEvent('evt_txn_50')).toBe(true);

      const again = moved(issued, { updatedAt: at(300) });
      const error = await conflictOf(
        repo.save(again, issued, {
          events: [event('evt_again')],
          transactions: [{ record: boleto(50, again, 3), events: [] }],
        }),
      );
      expect(error.reason).toBe('already_exists');
      expect(await repo.get(SELLER, p.uuid)).toEqual(issued);
      expect(await hasEvent('evt_again')).toBe(false);
    });

    it('refuses two new transactions in one change with an Error, writing nothing', async () => {
      const { repo, transactions } = await make();
      const p = plan(1);

      await expect(
        repo.create(p, {
          events: [],
          transactions: [
            { record: boleto(50, p, 1), events: [] },
            { record: boleto(51, p, 2), events: [] },
          ],
        }),
      ).rejects.toThrow(/at most one new transaction/);
      expect(await repo.get(SELLER, p.uuid)).toBeNull();
      expect(await transactions.get(SELLER, 50)).toBeNull();
    });
  });

  describe('the fingerprint guard', () => {
    const UNTIL = later(NOW, 10);

    it("holds a fingerprint for one plan until `until`: another plan is refused, the same plan is not, another tenant's is apart", async () => {
      const { repo } = await make();

      expect(await repo.reserveFingerprint(SELLER, 'fp', uuidOf(1), UNTIL)).toBe(true);
      expect(await repo.reserveFingerprint(SELLER, 'fp', uuidOf(2), later(NOW, 11))).toBe(false);
      expect(await repo.reserveFingerprint(SELLER, 'fp', uuidOf(1), UNTIL)).toBe(true);
      expect(await repo.reserveFingerprint(SELLER, 'other-fp', uuidOf(2), UNTIL)).toBe(true);
      expect(await repo.reserveFingerprint(OTHER_SELLER, 'fp', uuidOf(2), UNTIL)).toBe(true);
      expect(await repo.reserveFingerprint(LIVE, 'fp', uuidOf(2), UNTIL)).toBe(true);
    });

    it('frees an expired hold: once the clock reaches `until`, another plan takes it', async () => {
      const { repo, clock } = await make();
      await repo.reserveFingerprint(SELLER, 'fp', uuidOf(1), UNTIL);

      clock.set(later(UNTIL, -1));
      expect(await repo.reserveFingerprint(SELLER, 'fp', uuidOf(2), later(UNTIL, 9))).toBe(false);
      clock.set(UNTIL);
      expect(await repo.reserveFingerprint(SELLER, 'fp', uuidOf(2), later(UNTIL, 10))).toBe(true);
      expect(await repo.reserveFingerprint(SELLER, 'fp', uuidOf(1), later(UNTIL, 10))).toBe(false);
    });

    it("holds the guard in a create's own write: another plan's unexpired hold refuses the create whole", async () => {
      const { repo } = await make();
      const guard = { value: 'fp', until: UNTIL };
      await repo.create(plan(1), { events: [], fingerprint: guard });
      expect(await repo.reserveFingerprint(SELLER, 'fp', uuidOf(2), UNTIL)).toBe(false);

      const refused = await conflictOf(repo.create(plan(2), { events: [], fingerprint: guard }));
      expect(refused).toMatchObject({ code: 'fingerprint_held', reason: 'already_exists' });
      expect(await repo.get(SELLER, uuidOf(2))).toBeNull();
      // Another tenant's guard is apart; an expired one is free.
      await repo.create(plan(3, { tenant: OTHER_SELLER }), { events: [], fingerprint: guard });
      await repo.reserveFingerprint(SELLER, 'old', uuidOf(1), later(NOW, -1));
      await repo.create(plan(4), { events: [], fingerprint: { value: 'old', until: UNTIL } });
      expect(await repo.get(SELLER, uuidOf(4))).not.toBeNull();
    });

    it("releases only the plan's own hold", async () => {
      const { repo } = await make();
      await repo.reserveFingerprint(SELLER, 'fp', uuidOf(1), UNTIL);

      await repo.releaseFingerprint(SELLER, 'fp', uuidOf(2));
      await repo.releaseFingerprint(OTHER_SELLER, 'fp', uuidOf(1));
      expect(await repo.reserveFingerprint(SELLER, 'fp', uuidOf(2), UNTIL)).toBe(false);

      await repo.releaseFingerprint(SELLER, 'fp', uuidOf(1));
      expect(await repo.reserveFingerprint(SELLER, 'fp', uuidOf(2), UNTIL)).toBe(true);
      await repo.releaseFingerprint(SELLER, 'never-held', uuidOf(3));
    });
  });

  describe('list', () => {
    /**
     * Plans 1..6 of the seller (customer 1: 1, 2, 4, 6; customer 2: 3, 5) created a minute apart:
     * 1 and 2 pending_activation, 3 and 4 active, 5 completed, 6 canceled; plus one of another
     * seller and one live.
     */
    async function seeded(repo: InstallmentPlanRepository) {
      const statuses = [
        'pending_activation',
        'pending_activation',
        'active',
        'active',
        'completed',
        'canceled',
      ] as const;
      for (const [i, status] of statuses.entries()) {
        const n = i + 1;
        await repo.create(plan(n, { status, customerOf: n === 3 || n === 5 ? 2 : 1 }), nothing());
      }
      await repo.create(plan(7, { tenant: OTHER_SELLER }), nothing());
      await repo.create(plan(8, { tenant: LIVE }), nothing());
    }

    it("lists the tenant's plans newest first with the total, paged, with their installments, none of another tenant's", async () => {
      const { repo } = await make();
      await seeded(repo);

      const all = await repo.list(SELLER, query());
      expect(seen(all)).toEqual([[6, 5, 4, 3, 2, 1], 6]);
      expect(all.items[5]).toEqual(plan(1));
      expect(seen(await repo.list(SELLER, query({ page: 2, limit: 4 })))).toEqual([[2, 1], 6]);
      expect(seen(await repo.list(SELLER, query({ page: 3, limit: 4 })))).toEqual([[], 6]);
      expect(seen(await repo.list(OTHER_SELLER, query()))).toEqual([[7], 1]);
      expect(seen(await repo.list(LIVE, query()))).toEqual([[8], 1]);
    });

    it('filters by one or several statuses, by customer, and by both, each with its total', async () => {
      const { repo } = await make();
      await seeded(repo);

      expect(seen(await repo.list(SELLER, query({ statuses: ['active'] })))).toEqual([[4, 3], 2]);
      expect(seen(await repo.list(SELLER, query({ statuses: ['completed', 'pending_activation'] })))).toEqual(
        [[5, 2, 1], 3],
      );
      expect(seen(await repo.list(SELLER, query({ customerId: 2 })))).toEqual([[5, 3], 2]);
      expect(
        seen(await repo.list(SELLER, query({ customerId: 1, statuses: ['active', 'canceled'] }))),
      ).toEqual([[6, 4], 2]);
      expect(
        seen(await repo.list(SELLER, query({ customerId: 2, statuses: ['pending_activation'] }))),
      ).toEqual([[], 0]);
      expect(seen(await repo.list(SELLER, query({ customerId: 9 })))).toEqual([[], 0]);
      expect(
        seen(
          await repo.list(SELLER, query({ statuses: ['pending_activation', 'active'], page: 2, limit: 3 })),
        ),
      ).toEqual([[1], 4]);
    });

    it('reads a small multiple of the page, not the whole partition', async () => {
      const { repo, boundedReads } = await make();
      for (let n = 1; n <= 30; n++)
        await repo.create(plan(n, { status: n % 2 === 0 ? 'active' : 'pending_activation' }), nothing());

      const page = await repo.list(SELLER, query({ limit: 5 }));
      const two = await repo.list(SELLER, query({ statuses: ['active', 'pending_activation'], limit: 5 }));

      expect(seen(page)).toEqual([[30, 29, 28, 27, 26], 30]);
      expect(seen(two)).toEqual([[30, 29, 28, 27, 26], 30]);
      if (boundedReads) {
        expect(page.itemsRead).toBeLessThanOrEqual(6);
        expect(two.itemsRead).toBeLessThanOrEqual(12);
      }
    });

    it('follows saves: status totals move with the plan, the order stays its creation', async () => {
      const { repo } = await make();
      await seeded(repo);
      const one = plan(1);

      await repo.save(moved(one, { status: 'active', activatedAt: at(100) }), one, nothing());

      expect(seen(await repo.list(SELLER, query({ statuses: ['active'] })))).toEqual([[4, 3, 1], 3]);
      expect(seen(await repo.list(SELLER, query({ statuses: ['pending_activation'] })))).toEqual([[2], 1]);
      expect(seen(await repo.list(SELLER, query({ customerId: 1, statuses: ['active'] })))).toEqual([
        [4, 1],
        2,
      ]);
      expect(seen(await repo.list(SELLER, query()))).toEqual([[6, 5, 4, 3, 2, 1], 6]);
    });
  });

  describe('listByCustomer', () => {
    it("answers the customer's plans newest first with their installments, leaving out those closed more than 90 days ago", async () => {
      const { repo, clock } = await make();
      // The clock 100 days after March 1: a plan closed on day 9 is gone, one closed on day 11 stays.
      clock.set(later(at(0), 100 * DAY_MINUTES));
      await repo.create(plan(1), nothing());
      await repo.create(
        plan(2, { status: 'completed', completedAt: later(at(0), 9 * DAY_MINUTES) }),
        nothing(),
      );
      await repo.create(
        plan(3, { status: 'completed', completedAt: later(at(0), 11 * DAY_MINUTES) }),
        nothing(),
      );
      await repo.create(
        plan(4, { status: 'canceled', canceledAt: later(at(0), 9 * DAY_MINUTES) }),
        nothing(),
      );
      await repo.create(
        plan(5, { status: 'canceled', canceledAt: later(at(0), 11 * DAY_MINUTES) }),
        nothing(),
      );
      await repo.create(plan(6, { status: 'active' }), nothing());
      await repo.create(plan(7, { customerOf: 2 }), nothing());
      await repo.create(plan(8, { tenant: OTHER_SELLER }), nothing());
      await repo.create(plan(9, { tenant: LIVE }), nothing());

      const found = await repo.listByCustomer(SELLER, 1);

      expect(found.map(numberOf)).toEqual([6, 5, 3, 1]);
      expect(found[3]).toEqual(plan(1));
      expect((await repo.listByCustomer(SELLER, 2)).map(numberOf)).toEqual([7]);
      expect(await repo.listByCustomer(SELLER, 9)).toEqual([]);
      expect((await repo.listByCustomer(OTHER_SELLER, 1)).map(numberOf)).toEqual([8]);
    });
  });

  describe('duePlans', () => {
    const now = new Date(NOW);

    it('answers the job ids due by now in the buckets of the last hours, oldest first, any tenant', async () => {
      const { repo } = await make();
      const a = plan(1, { dueAt: '2026-03-10T15:29:59.000Z' });
      const b = plan(2, { tenant: OTHER_SELLER, dueAt: '2026-03-10T13:05:00.000Z' });
      const c = plan(3, { tenant: LIVE, dueAt: '2026-03-10T15:00:00.000Z' });
      const tooOld = plan(4, { dueAt: '2026-03-10T11:59:00.000Z' });
      const future = plan(5, { dueAt: '2026-03-10T15:30:01.000Z' });
      const never = plan(6, { dueAt: null });
      for (const p of [a, b, c, tooOld, future, never]) await repo.create(p, nothing());

      expect(await repo.duePlans(now, 3)).toEqual([jobOf(b), jobOf(c), jobOf(a)]);
      expect(await repo.duePlans(now, 0)).toEqual([jobOf(c), jobOf(a)]);
      expect(await repo.duePlans(now, 4)).toEqual([jobOf(tooOld), jobOf(b), jobOf(c), jobOf(a)]);
    });

    it('follows dueAt through saves: moved to its new bucket, gone once cleared', async () => {
      const { repo } = await make();
      const p = plan(1, { dueAt: '2026-03-10T14:00:00.000Z' });
      await repo.create(p, nothing());
      const later1 = moved(p, { dueAt: '2026-04-10T03:00:00.000Z' });

      await repo.save(later1, p, nothing());
      expect(await repo.duePlans(now, 5)).toEqual([]);
      expect(await repo.duePlans(new Date('2026-04-10T03:00:00.000Z'), 1)).toEqual([jobOf(p)]);

      await repo.save(moved(later1, { dueAt: null }), later1, nothing());
      expect(await repo.duePlans(new Date('2026-04-10T03:00:00.000Z'), 1)).toEqual([]);
    });
  });

  describe("the customer's overdue count", () => {
    it('moves with the plans in their own writes: the marker flips 0 → 1 → 0 and never below 0', async () => {
      const { repo, customers } = await make();
      const a = plan(1, { status: 'active' });
      const b = plan(2, { status: 'active' });
      await repo.create(a, nothing());
      await repo.create(b, nothing());
      const aOverdue = moved(a, { overdueInstallments: 1 });
      const bOverdue = moved(b, { overdueInstallments: 1 });

      await repo.save(aOverdue, a, { events: [], customerOverdueDelta: 1 });
      expect(await overdueOf(customers, 1)).toBe(1);
      expect(await overdueCustomers(customers)).toEqual([1]);

      await repo.save(bOverdue, b, { events: [], customerOverdueDelta: 1 });
      expect(await overdueOf(customers, 1)).toBe(2);

      const aPaid = moved(aOverdue, { overdueInstallments: 0 });
      await repo.save(aPaid, aOverdue, { events: [], customerOverdueDelta: -1 });
      expect(await overdueOf(customers, 1)).toBe(1);
      expect(await overdueCustomers(customers)).toEqual([1]);

      const bPaid = moved(bOverdue, { overdueInstallments: 0 });
      await repo.save(bPaid, bOverdue, { events: [], customerOverdueDelta: -1 });
      expect(await overdueOf(customers, 1)).toBe(0);
      expect(await overdueCustomers(customers)).toEqual([]);

      await repo.save(moved(bPaid, {}), bPaid, { events: [], customerOverdueDelta: -1 });
      expect(await overdueOf(customers, 1)).toBe(0);
      expect(await overdueCustomers(customers)).toEqual([]);
    });

    it('keeps count when several plans of the customer move it at the same time', async () => {
      const { repo, customers } = await make();
      const plans = [1, 2, 3, 4].map((n) => plan(n, { status: 'active' }));
      for (const p of plans) await repo.create(p, nothing());
      const overdue = plans.map((p) => moved(p, { overdueInstallments: 1 }));

      await Promise.all(
        plans.map((p, i) => repo.save(overdue[i], p, { events: [], customerOverdueDelta: 1 })),
      );
      expect(await overdueOf(customers, 1)).toBe(4);
      expect(await overdueCustomers(customers)).toEqual([1]);

      await Promise.all(
        overdue.map((p) =>
          repo.save(moved(p, { overdueInstallments: 0 }), p, { events: [], customerOverdueDelta: -1 }),
        ),
      );
      expect(await overdueOf(customers, 1)).toBe(0);
      expect(await overdueCustomers(customers)).toEqual([]);
    });

    it('is moved by a create too, and only for the plan’s own customer', async () => {
      const { repo, customers } = await make();

      await repo.create(plan(1, { customerOf: 2, overdueInstallments: 2 }), {
        events: [],
        customerOverdueDelta: 2,
      });

      expect(await overdueOf(customers, 2)).toBe(2);
      expect(await overdueOf(customers, 1)).toBe(0);
      expect(await overdueCustomers(customers)).toEqual([2]);
    });
  });
});
