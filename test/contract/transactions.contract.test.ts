import { describe, expect, it } from 'vitest';
import { createTransactionRepository } from '#shared/adapters/dynamodb/transaction-repository';
import { jobId } from '#shared/domain/job-id';
import type { TransactionPage, TransactionQuery, TransactionRepository } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import type { Transaction, TransactionStatus } from '#shared/domain/transactions/transaction';
import { ConflictError, ValidationError } from '#shared/errors';
import { FakeTransactionRepository } from '../support/fakes/transaction-repository';
import { freshTable } from './support';

const SELLER: Tenant = { sellerId: 7, environment: 'test' };
const OTHER_SELLER: Tenant = { sellerId: 8, environment: 'test' };
const LIVE: Tenant = { sellerId: 7, environment: 'live' };

/** The fixed clock of every case: creation times are derived from the id, an hour apart. */
const NOW = new Date('2026-03-10T15:30:00.000Z');
const at = (id: number) => new Date(Date.UTC(2026, 2, 1, 0, 0, id)).toISOString();
const uuidOf = (t: Tenant, id: number) =>
  `11111111-0000-4000-8${t.environment === 'live' ? '1' : '0'}${String(t.sellerId).padStart(2, '0')}-${String(id).padStart(12, '0')}`;

type Method = Transaction['paymentMethod'];

const CUSTOMERS = {
  1: { id: 1, uuid: 'c0000000-0000-4000-8000-000000000001', name: 'Ana Souza', email: 'ana@example.com' },
  2: { id: 2, uuid: 'c0000000-0000-4000-8000-000000000002', name: 'Bruno Lima', email: 'bruno@example.com' },
  3: { id: 3, uuid: 'c0000000-0000-4000-8000-000000000003', name: 'Carla Dias', email: 'carla@example.com' },
} as const;
const PRODUCTS = {
  1: { id: 1, uuid: 'p0000000-0000-4000-8000-000000000001', name: 'Curso', value: 10_000 },
  2: { id: 2, uuid: 'p0000000-0000-4000-8000-000000000002', name: 'Ebook', value: 2_500 },
} as const;

const PIX_EXPIRY = '2026-03-11T00:00:00.000Z';

function txn(
  id: number,
  options: {
    tenant?: Tenant;
    method?: Method;
    status?: TransactionStatus;
    customer?: keyof typeof CUSTOMERS;
    product?: keyof typeof PRODUCTS;
    expiresAt?: string;
  } & Omit<Partial<Transaction>, 'customer' | 'product'> = {},
): Transaction {
  const {
    tenant = SELLER,
    method = 'pix',
    customer = 1,
    product = 1,
    expiresAt = PIX_EXPIRY,
    ...rest
  } = options;
  const status =
    options.status ?? (method === 'pix' ? 'pendingPix' : method === 'boleto' ? 'pendingBoleto' : 'captured');
  const productRef = PRODUCTS[product];
  return {
    id,
    uuid: uuidOf(tenant, id),
    tenant,
    provider: 'sandbox',
    checkoutSessionId: null,
    clientReferenceId: null,
    affiliate: null,
    gatewayPayId: 9_000_000_000 + id,
    status,
    paymentMethod: method,
    value: productRef.value,
    valueSeller: productRef.value - 99,
    installments: 1,
    customer: { ...CUSTOMERS[customer], document: '52998224725', phone: '11987654321' },
    product: { ...productRef },
    pix:
      method === 'pix'
        ? { qrCode: `000201-${id}`, txid: `TX${String(id).padStart(23, '0')}`, expiresAt }
        : null,
    boleto:
      method === 'boleto'
        ? {
            barcode: `0009${String(id).padStart(40, '0')}`,
            digitableLine: `00090.00000 ${id}`,
            formattedLine: `00090.00000 ${id} formatted`,
            dueDate: '2026-03-13',
            pdfUrl: `/api/sandbox/boletos/${9_000_000_000 + id}/pdf`,
          }
        : null,
    card: method === 'creditcard' ? { brand: 'visa', last4: '4242' } : null,
    failureCode: null,
    failureReason: null,
    refunds: [],
    refundedAmount: 0,
    paidAt: status === 'captured' ? at(id) : null,
    canceledAt: null,
    deadline: method === 'pix' ? expiresAt : method === 'boleto' ? '2026-03-13' : null,
    metadata: {},
    createdAt: at(id),
    updatedAt: at(id),
    version: 1,
    ...rest,
  };
}

/** The next state as a use case writes it: a new version, the fixed clock's time. */
const moved = (t: Transaction, changes: Partial<Transaction>): Transaction => ({
  ...t,
  ...changes,
  updatedAt: NOW.toISOString(),
  version: t.version + 1,
});

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => null,
    (e: unknown) => e,
  );
}

async function conflictOf(promise: Promise<unknown>): Promise<ConflictError> {
  const error = await failureOf(promise);
  expect(error).toBeInstanceOf(ConflictError);
  return error as ConflictError;
}

const ids = (page: { items: Transaction[] }) => page.items.map((t) => t.id);
const query = (q: Partial<TransactionQuery> = {}): TransactionQuery => ({ page: 1, limit: 50, ...q });
const seen = (page: TransactionPage) => [ids(page), page.totalCount];

/** Every cursor page of a query, as the charges API walks them. */
async function walk(repo: TransactionRepository, q: Partial<TransactionQuery>) {
  const pages: number[][] = [];
  let cursor: string | undefined;
  do {
    const page = await repo.list(SELLER, query({ limit: 2, countTotal: false, ...q, cursor }));
    pages.push(ids(page));
    cursor = page.cursor;
    if (pages.length > 5) throw new Error('the cursor never ends');
  } while (cursor);
  return pages;
}

describe.each([
  ['in-memory fake', async (): Promise<TransactionRepository> => new FakeTransactionRepository()],
  [
    'DynamoDB Local',
    async (): Promise<TransactionRepository> => createTransactionRepository(await freshTable()),
  ],
])('TransactionRepository contract (%s)', (_name, make) => {
  describe('ids, create and read', () => {
    it('hands out increasing ids, starting at 1, never the same twice', async () => {
      const repo = await make();

      expect([await repo.nextId(), await repo.nextId(), await repo.nextId()]).toEqual([1, 2, 3]);
    });

    it('reads back every field of a pix, a boleto and a card transaction by id and by uuid', async () => {
      const repo = await make();
      const pix = txn(1, { metadata: { order: 'A-1', channel: 'web' } });
      const boleto = txn(2, { method: 'boleto' });
      const card = txn(3, {
        method: 'creditcard',
        installments: 3,
        refunds: [{ id: 're_1', amount: 500, reason: 'parcial', createdAt: at(4) }],
        refundedAmount: 500,
      });
      for (const t of [pix, boleto, card]) await repo.create(t, []);

      for (const t of [pix, boleto, card]) {
        expect(await repo.get(SELLER, t.id)).toEqual(t);
        expect(await repo.findByUuid(t.uuid)).toEqual(t);
      }
    });

    it("reads back a subscription charge's recurrence (subscription, billing cycle, method)", async () => {
      const repo = await make();
      const renewal = txn(1, {
        method: 'creditcard',
        recurring: { subscriptionId: 12, billingCycle: 3, method: 'card' },
      });
      await repo.create(renewal, []);

      expect(await repo.get(SELLER, 1)).toEqual(renewal);
      expect(await repo.findByUuid(renewal.uuid)).toEqual(renewal);
    });

    it("reads back a scheduled charge cycle's link (charge id, cycle number), and a save keeps it", async () => {
      const repo = await make();
      const issued = txn(1, {
        method: 'boleto',
        scheduledCharge: { chargeId: 'sch_test_000000000000000000000001', cycleNumber: 2 },
      });
      await repo.create(issued, []);
      expect(await repo.get(SELLER, 1)).toEqual(issued);

      await repo.save(moved(issued, { status: 'payedBoleto' }), issued, []);
      expect((await repo.get(SELLER, 1))?.scheduledCharge).toEqual(issued.scheduledCharge);
      expect((await repo.get(SELLER, 1))?.recurring).toBeUndefined();
    });

    it('answers null for an id or uuid nobody created', async () => {
      const repo = await make();
      await repo.create(txn(1), []);

      expect(await repo.get(SELLER, 2)).toBeNull();
      expect(await repo.findByUuid(uuidOf(SELLER, 2))).toBeNull();
      expect(await repo.findByGatewayPayId(9_000_000_002)).toEqual([]);
    });

    it('refuses a second create of the same id with ConflictError already_exists, keeping the first and its count', async () => {
      const repo = await make();
      await repo.create(txn(1), []);

      const error = await conflictOf(repo.create(txn(1, { method: 'boleto' }), []));
      expect(error.reason).toBe('already_exists');
      expect((await repo.get(SELLER, 1))?.paymentMethod).toBe('pix');
      expect(seen(await repo.list(SELLER, query()))).toEqual([[1], 1]);
      expect(seen(await repo.list(SELLER, query({ status: 'pendingBoleto' })))).toEqual([[], 0]);
    });
  });

  describe('tenant isolation', () => {
    it("does not show another seller's or the other environment's transaction by id", async () => {
      const repo = await make();
      await repo.create(txn(1), []);

      expect(await repo.get(OTHER_SELLER, 1)).toBeNull();
      expect(await repo.get(LIVE, 1)).toBeNull();
    });

    it("finds any tenant's transaction by uuid and names its owner", async () => {
      const repo = await make();
      await repo.create(txn(4, { tenant: OTHER_SELLER }), []);

      const found = await repo.findByUuid(uuidOf(OTHER_SELLER, 4));
      expect([found?.tenant, found?.id]).toEqual([OTHER_SELLER, 4]);
    });

    it("answers every tenant's and provider's transactions with one provider id, and no others", async () => {
      const repo = await make();
      const mine = txn(1, { gatewayPayId: 555 });
      const theirs = txn(1, { tenant: OTHER_SELLER, gatewayPayId: 555 });
      const otherProvider = txn(2, { tenant: LIVE, gatewayPayId: 555, provider: 'asaas' });
      for (const t of [mine, theirs, otherProvider, txn(3, { gatewayPayId: 556 })]) await repo.create(t, []);

      const found = await repo.findByGatewayPayId(555);
      const byOwner = (t: Transaction) => `${t.provider}#${t.tenant.sellerId}#${t.tenant.environment}`;
      expect(found.sort((a, b) => byOwner(a).localeCompare(byOwner(b)))).toEqual([
        otherProvider,
        mine,
        theirs,
      ]);
    });

    it("lists and counts only the tenant's own transactions", async () => {
      const repo = await make();
      await repo.create(txn(1), []);
      await repo.create(txn(2, { tenant: OTHER_SELLER }), []);
      await repo.create(txn(3, { tenant: LIVE }), []);
      await repo.create(txn(4), []);

      expect(seen(await repo.list(SELLER, query()))).toEqual([[4, 1], 2]);
      expect(seen(await repo.list(SELLER, query({ status: 'pendingPix' })))).toEqual([[4, 1], 2]);
      expect(seen(await repo.list(SELLER, query({ productId: 1 })))).toEqual([[4, 1], 2]);
      expect(seen(await repo.list(SELLER, query({ customerIds: [1] })))).toEqual([[4, 1], 2]);
      expect(seen(await repo.list(LIVE, query()))).toEqual([[3], 1]);
    });
  });

  describe('save', () => {
    it('writes the next state when the stored version is the one read', async () => {
      const repo = await make();
      const created = txn(1);
      await repo.create(created, []);
      const paid = moved(created, { status: 'payedPix', paidAt: NOW.toISOString() });

      await repo.save(paid, created, []);

      expect(await repo.get(SELLER, 1)).toEqual(paid);
      expect(await repo.findByGatewayPayId(created.gatewayPayId)).toEqual([paid]);
    });

    it("keeps a chargeback's record through its reversal, and the status counts follow it back to paid", async () => {
      const repo = await make();
      const created = txn(1, { method: 'creditcard' });
      await repo.create(created, []);
      const paid = moved(created, { status: 'captured', paidAt: NOW.toISOString() });
      await repo.save(paid, created, []);
      const charged = moved(paid, {
        status: 'reversed',
        failureCode: 'chargeback',
        chargeback: { status: 'open', openedAt: NOW.toISOString(), closedAt: null },
      });
      await repo.save(charged, paid, []);
      expect(await repo.get(SELLER, 1)).toEqual(charged);
      const won = moved(charged, {
        status: 'captured',
        failureCode: null,
        chargeback: { status: 'won', openedAt: NOW.toISOString(), closedAt: NOW.toISOString() },
      });
      await repo.save(won, charged, []);
      expect(await repo.get(SELLER, 1)).toEqual(won);
      expect(seen(await repo.list(SELLER, query({ status: 'captured' })))).toEqual([[1], 1]);
      expect(seen(await repo.list(SELLER, query({ status: 'reversed' })))).toEqual([[], 0]);
    });

    it('refuses a stale version with ConflictError changed (concurrent_update), writing nothing', async () => {
      const repo = await make();
      const created = txn(1);
      await repo.create(created, []);
      const cancelled = moved(created, { status: 'cancel', canceledAt: NOW.toISOString() });
      await repo.save(cancelled, created, []);

      const error = await conflictOf(repo.save(moved(created, { status: 'payedPix' }), created, []));
      expect([error.reason, error.code]).toEqual(['changed', 'concurrent_update']);
      expect(await repo.get(SELLER, 1)).toEqual(cancelled);
      expect(seen(await repo.list(SELLER, query({ status: 'payedPix' })))).toEqual([[], 0]);
      expect(seen(await repo.list(SELLER, query({ status: 'cancel' })))).toEqual([[1], 1]);
    });

    it('refuses to save a transaction that was never created (changed)', async () => {
      const repo = await make();
      const ghost = txn(9);

      const error = await conflictOf(repo.save(moved(ghost, { status: 'cancel' }), ghost, []));
      expect(error.reason).toBe('changed');
      expect(await repo.get(SELLER, 9)).toBeNull();
    });

    it('applies a provider notification once: a repeat is ConflictError already_exists (duplicate_notification)', async () => {
      const repo = await make();
      const created = txn(1);
      await repo.create(created, []);
      const paid = moved(created, { status: 'payedPix', paidAt: NOW.toISOString() });
      await repo.save(paid, created, [], { provider: 'sandbox', id: 'ntf_1' });

      const repeat = await conflictOf(
        repo.save(moved(paid, { status: 'reversed' }), paid, [], { provider: 'sandbox', id: 'ntf_1' }),
      );
      expect([repeat.reason, repeat.code]).toEqual(['already_exists', 'duplicate_notification']);
      expect(await repo.get(SELLER, 1)).toEqual(paid);
    });

    it('answers a repeated notification as already_exists even when the version is stale too', async () => {
      const repo = await make();
      const created = txn(1);
      await repo.create(created, []);
      await repo.save(moved(created, { status: 'payedPix' }), created, [], {
        provider: 'sandbox',
        id: 'ntf_1',
      });

      const repeat = await conflictOf(
        repo.save(moved(created, { status: 'payedPix' }), created, [], { provider: 'sandbox', id: 'ntf_1' }),
      );
      expect(repeat.reason).toBe('already_exists');
    });

    it('does not remember the notification of a refused save, and tells providers apart', async () => {
      const repo = await make();
      const created = txn(1);
      await repo.create(created, []);
      const stale = { ...created, version: 0 };

      const lost = await conflictOf(
        repo.save(moved(created, { status: 'payedPix' }), stale, [], { provider: 'sandbox', id: 'ntf_1' }),
      );
      expect(lost.reason).toBe('changed');
      const paid = moved(created, { status: 'payedPix' });
      await repo.save(paid, created, [], { provider: 'sandbox', id: 'ntf_1' });
      const reversed = moved(paid, { status: 'reversed' });
      await repo.save(reversed, paid, [], { provider: 'asaas', id: 'ntf_1' });
      expect(await repo.get(SELLER, 1)).toEqual(reversed);
    });
  });

  describe('list', () => {
    /**
     * 1 pix (customer 1, product 1), 2 boleto (2, 1), 3 card (1, 2), 4 pix (3, 2), 5 pix (2, 1),
     * 6 boleto (1, 2), 7 card declined (3, 1).
     */
    async function seeded() {
      const repo = await make();
      const rows: Transaction[] = [
        txn(1, { method: 'pix', customer: 1, product: 1 }),
        txn(2, { method: 'boleto', customer: 2, product: 1 }),
        txn(3, { method: 'creditcard', customer: 1, product: 2 }),
        txn(4, { method: 'pix', customer: 3, product: 2 }),
        txn(5, { method: 'pix', customer: 2, product: 1 }),
        txn(6, { method: 'boleto', customer: 1, product: 2 }),
        txn(7, { method: 'creditcard', status: 'denied', customer: 3, product: 1 }),
      ];
      for (const t of rows) await repo.create(t, []);
      return repo;
    }

    it('lists newest first with the total', async () => {
      const repo = await seeded();

      expect(seen(await repo.list(SELLER, query()))).toEqual([[7, 6, 5, 4, 3, 2, 1], 7]);
    });

    it('pages by page and limit, every page carrying the full total', async () => {
      const repo = await seeded();

      const pages = [];
      for (let page = 1; page <= 4; page++)
        pages.push(seen(await repo.list(SELLER, query({ page, limit: 3 }))));
      expect(pages).toEqual([
        [[7, 6, 5], 7],
        [[4, 3, 2], 7],
        [[1], 7],
        [[], 7],
      ]);
    });

    it('answers an empty page with total 0 for a tenant without transactions', async () => {
      const repo = await make();

      expect(seen(await repo.list(SELLER, query()))).toEqual([[], 0]);
      expect(seen(await repo.list(SELLER, query({ status: 'payedPix', paymentMethod: 'pix' })))).toEqual([
        [],
        0,
      ]);
    });

    it('filters by status, payment method, product and customer, each with its own total', async () => {
      const repo = await seeded();

      expect(seen(await repo.list(SELLER, query({ status: 'pendingPix' })))).toEqual([[5, 4, 1], 3]);
      expect(seen(await repo.list(SELLER, query({ status: 'denied' })))).toEqual([[7], 1]);
      expect(seen(await repo.list(SELLER, query({ paymentMethod: 'boleto' })))).toEqual([[6, 2], 2]);
      expect(seen(await repo.list(SELLER, query({ paymentMethod: 'creditcard' })))).toEqual([[7, 3], 2]);
      expect(seen(await repo.list(SELLER, query({ productId: 2 })))).toEqual([[6, 4, 3], 3]);
      expect(seen(await repo.list(SELLER, query({ productId: 3 })))).toEqual([[], 0]);
      expect(seen(await repo.list(SELLER, query({ customerIds: [1] })))).toEqual([[6, 3, 1], 3]);
      expect(seen(await repo.list(SELLER, query({ customerIds: [3, 2] })))).toEqual([[7, 5, 4, 2], 4]);
      expect(seen(await repo.list(SELLER, query({ customerIds: [] })))).toEqual([[], 0]);
    });

    it('combines filters, counting the matches', async () => {
      const repo = await seeded();

      expect(seen(await repo.list(SELLER, query({ status: 'pendingPix', productId: 1 })))).toEqual([
        [5, 1],
        2,
      ]);
      expect(seen(await repo.list(SELLER, query({ paymentMethod: 'pix', customerIds: [2, 3] })))).toEqual([
        [5, 4],
        2,
      ]);
      expect(seen(await repo.list(SELLER, query({ productId: 1, paymentMethod: 'creditcard' })))).toEqual([
        [7],
        1,
      ]);
      expect(
        seen(await repo.list(SELLER, query({ status: 'pendingBoleto', paymentMethod: 'boleto' }))),
      ).toEqual([[6, 2], 2]);
      expect(seen(await repo.list(SELLER, query({ productId: 2, customerIds: [1] })))).toEqual([[6, 3], 2]);
      expect(seen(await repo.list(SELLER, query({ status: 'pendingPix', customerIds: [2] })))).toEqual([
        [5],
        1,
      ]);
      expect(seen(await repo.list(SELLER, query({ createdBefore: at(4) })))).toEqual([[3, 2, 1], 3]);
      expect(seen(await repo.list(SELLER, query({ createdFrom: at(3), createdBefore: at(6) })))).toEqual([
        [5, 4, 3],
        3,
      ]);
      expect(seen(await repo.list(SELLER, query({ createdBefore: at(6), paymentMethod: 'pix' })))).toEqual([
        [5, 4, 1],
        3,
      ]);
    });

    it('pages a filtered list by page and limit with the filtered total', async () => {
      const repo = await seeded();

      const first = await repo.list(SELLER, query({ customerIds: [1, 2], page: 1, limit: 2 }));
      const second = await repo.list(SELLER, query({ customerIds: [1, 2], page: 2, limit: 2 }));
      const third = await repo.list(SELLER, query({ customerIds: [1, 2], page: 3, limit: 2 }));
      expect([seen(first), seen(second), seen(third)]).toEqual([
        [[6, 5], 5],
        [[3, 2], 5],
        [[1], 5],
      ]);
      const method = await repo.list(SELLER, query({ paymentMethod: 'pix', page: 2, limit: 2 }));
      expect(seen(method)).toEqual([[1], 3]);
    });

    it('moves the status counters with each transition, the other totals unchanged', async () => {
      const repo = await seeded();
      const five = (await repo.get(SELLER, 5)) as Transaction;
      const paid = moved(five, { status: 'payedPix', paidAt: NOW.toISOString() });
      await repo.save(paid, five, []);
      const two = (await repo.get(SELLER, 2)) as Transaction;
      await repo.save(moved(two, { status: 'cancel', canceledAt: NOW.toISOString() }), two, []);
      await repo.save(moved(paid, { status: 'reversed', failureCode: 'chargeback' }), paid, []);

      expect(seen(await repo.list(SELLER, query({ status: 'pendingPix' })))).toEqual([[4, 1], 2]);
      expect(seen(await repo.list(SELLER, query({ status: 'payedPix' })))).toEqual([[], 0]);
      expect(seen(await repo.list(SELLER, query({ status: 'reversed' })))).toEqual([[5], 1]);
      expect(seen(await repo.list(SELLER, query({ status: 'pendingBoleto' })))).toEqual([[6], 1]);
      expect(seen(await repo.list(SELLER, query({ status: 'cancel' })))).toEqual([[2], 1]);
      expect(seen(await repo.list(SELLER, query()))).toEqual([[7, 6, 5, 4, 3, 2, 1], 7]);
      expect(seen(await repo.list(SELLER, query({ paymentMethod: 'pix' })))).toEqual([[5, 4, 1], 3]);
      expect(seen(await repo.list(SELLER, query({ productId: 1 })))).toEqual([[7, 5, 2, 1], 4]);
      expect(seen(await repo.list(SELLER, query({ customerIds: [2] })))).toEqual([[5, 2], 2]);
    });

    it('lists one status and one method together from their own partition, its total moved with each transition', async () => {
      const repo = await seeded();
      const five = (await repo.get(SELLER, 5)) as Transaction;
      await repo.save(moved(five, { status: 'cancel', canceledAt: NOW.toISOString() }), five, []);
      const two = (await repo.get(SELLER, 2)) as Transaction;
      await repo.save(moved(two, { status: 'cancel', canceledAt: NOW.toISOString() }), two, []);

      const canceledPix = await repo.list(SELLER, query({ status: 'cancel', paymentMethod: 'pix' }));
      expect(seen(canceledPix)).toEqual([[5], 1]);
      // The matching transaction and the partition's counter: nothing of the other method is read.
      expect(canceledPix.itemsRead).toBeLessThanOrEqual(2);
      expect(seen(await repo.list(SELLER, query({ status: 'cancel', paymentMethod: 'boleto' })))).toEqual([
        [2],
        1,
      ]);
      expect(seen(await repo.list(SELLER, query({ status: 'pendingPix', paymentMethod: 'pix' })))).toEqual([
        [4, 1],
        2,
      ]);
      expect(
        seen(await repo.list(SELLER, query({ status: 'pendingBoleto', paymentMethod: 'boleto' }))),
      ).toEqual([[6], 1]);
    });

    it('pages by cursor, newest first, to the last transaction', async () => {
      const repo = await seeded();

      expect(await walk(repo, {})).toEqual([[7, 6], [5, 4], [3, 2], [1]]);
    });

    it('pages by cursor through a filtered list', async () => {
      const repo = await seeded();

      expect(await walk(repo, { paymentMethod: 'pix', limit: 1 })).toEqual([[5], [4], [1]]);
      expect(await walk(repo, { status: 'pendingPix', limit: 2 })).toEqual([[5, 4], [1]]);
      expect(await walk(repo, { createdBefore: at(6), limit: 2 })).toEqual([[5, 4], [3, 2], [1]]);
      expect(await walk(repo, { createdFrom: at(2), createdBefore: at(6), limit: 2 })).toEqual([
        [5, 4],
        [3, 2],
      ]);
      expect(await walk(repo, { status: 'pendingPix', paymentMethod: 'pix', limit: 2 })).toEqual([
        [5, 4],
        [1],
      ]);
    });

    it("refuses a cursor from another tenant's list, or one it never gave (ValidationError)", async () => {
      const repo = await seeded();
      await repo.create(txn(1, { tenant: OTHER_SELLER }), []);
      const { cursor } = await repo.list(SELLER, query({ limit: 2, countTotal: false }));

      const foreign = await failureOf(
        repo.list(OTHER_SELLER, query({ limit: 2, countTotal: false, cursor })),
      );
      expect(foreign).toBeInstanceOf(ValidationError);
      const made = await failureOf(repo.list(SELLER, query({ limit: 2, cursor: 'bm90LWEtY3Vyc29y' })));
      expect(made).toBeInstanceOf(ValidationError);
    });

    it('pages by cursor through the transactions of several customers', async () => {
      const repo = await seeded();

      expect(await walk(repo, { customerIds: [1, 2] })).toEqual([[6, 5], [3, 2], [1]]);
    });

    it('shows every transaction of several customers exactly once, newest first, at any page size', async () => {
      const repo = await make();
      // One customer's transactions all newer than another's, a third between them, methods mixed.
      const owners: [number, keyof typeof CUSTOMERS, Method][] = [
        [1, 1, 'pix'],
        [2, 1, 'boleto'],
        [3, 1, 'pix'],
        [4, 3, 'pix'],
        [5, 2, 'creditcard'],
        [6, 2, 'pix'],
        [7, 2, 'pix'],
        [8, 2, 'boleto'],
        [9, 3, 'pix'],
      ];
      for (const [id, customer, method] of owners) await repo.create(txn(id, { customer, method }), []);

      const all = async (q: Partial<TransactionQuery>) => {
        const shown: number[] = [];
        let cursor: string | undefined;
        for (let pages = 0; pages <= owners.length; pages++) {
          const page = await repo.list(SELLER, query({ countTotal: false, ...q, cursor }));
          shown.push(...ids(page));
          cursor = page.cursor;
          if (!cursor) return shown;
        }
        throw new Error('the cursor never ends');
      };
      for (const limit of [1, 2]) {
        expect(await all({ customerIds: [1, 2, 3], limit })).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
        expect(await all({ customerIds: [3, 1], limit })).toEqual([9, 4, 3, 2, 1]);
        expect(await all({ customerIds: [2, 2, 1], limit })).toEqual([8, 7, 6, 5, 3, 2, 1]);
        expect(await all({ customerIds: [1, 2], paymentMethod: 'pix', limit })).toEqual([7, 6, 3, 1]);
      }
    });

    it('gives no cursor with the page that holds the last transaction', async () => {
      const repo = await seeded();

      const first = await repo.list(SELLER, query({ limit: 7, countTotal: false }));
      expect(ids(first)).toEqual([7, 6, 5, 4, 3, 2, 1]);
      expect(first.cursor).toBeUndefined();
    });
  });

  describe('due pix expiries', () => {
    it('answers the job ids of pending pix charges due in the last hours, oldest first, across tenants', async () => {
      const repo = await make();
      const rows = [
        txn(1, { expiresAt: '2026-03-10T15:29:59.000Z' }),
        txn(2, { expiresAt: '2026-03-10T09:00:00.000Z' }),
        txn(3, { expiresAt: '2026-03-10T08:59:59.999Z' }),
        txn(4, { expiresAt: '2026-03-10T15:30:00.001Z' }),
        txn(5, { expiresAt: '2026-03-10T12:00:00.000Z', tenant: OTHER_SELLER }),
        txn(6, { expiresAt: '2026-03-10T15:30:00.000Z', tenant: LIVE }),
        txn(7, { method: 'boleto' }),
        txn(8, { method: 'creditcard' }),
      ];
      for (const t of rows) await repo.create(t, []);

      expect(await repo.duePixExpiries(NOW, 6)).toEqual([
        jobId(SELLER, 2),
        jobId(OTHER_SELLER, 5),
        jobId(SELLER, 1),
        jobId(LIVE, 6),
      ]);
      expect(await repo.duePixExpiries(NOW, 0)).toEqual([jobId(SELLER, 1), jobId(LIVE, 6)]);
    });

    it('drops a pix from the due list once it leaves pendingPix', async () => {
      const repo = await make();
      const paid = txn(1, { expiresAt: '2026-03-10T14:00:00.000Z' });
      const cancelled = txn(2, { expiresAt: '2026-03-10T14:10:00.000Z' });
      const waiting = txn(3, { expiresAt: '2026-03-10T14:20:00.000Z' });
      for (const t of [paid, cancelled, waiting]) await repo.create(t, []);

      await repo.save(moved(paid, { status: 'payedPix' }), paid, []);
      await repo.save(moved(cancelled, { status: 'cancel' }), cancelled, []);
      await repo.save(moved(waiting, { metadata: { note: 'still waiting' } }), waiting, []);

      expect(await repo.duePixExpiries(NOW, 6)).toEqual([jobId(SELLER, 3)]);
    });
  });
});
