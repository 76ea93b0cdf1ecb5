import { describe, expect, it } from 'vitest';
import { transactionEntity } from '#shared/adapters/dynamodb/entities/transaction';
import { dailyFigures } from '#shared/adapters/dynamodb/migrations/0005-daily-figures';
import { runMigrations } from '#shared/adapters/dynamodb/migrations/runner';
import type { Table } from '#shared/adapters/dynamodb/table';
import { createTransactionRepository } from '#shared/adapters/dynamodb/transaction-repository';
import { addCells, type DayFigures, figureCellsOf } from '#shared/domain/dashboard/figures';
import type { Tenant } from '#shared/domain/tenant';
import type { Transaction } from '#shared/domain/transactions/transaction';
import { freshTable } from '../contract/support';

/** Migration 5 on DynamoDB Local: transactions stored before the daily figures get counted, once. */

const SELLER: Tenant = { sellerId: 7, environment: 'test' };
const OTHER: Tenant = { sellerId: 8, environment: 'test' };
const LOCAL_STAMP = { pk: 'LOCAL#DATA_FORMAT', sk: 'LOCAL#DATA_FORMAT' };
const RANGE = [{ from: '2026-03-01', to: '2026-04-30' }];
const clock = { now: () => new Date('2026-03-12T12:00:00Z') };

function sale(id: number, tenant: Tenant, over: Partial<Transaction>): Transaction {
  const createdAt = new Date(Date.UTC(2026, 2, 1 + (id % 9), 15, 0, 0)).toISOString();
  return {
    id,
    uuid: `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`,
    tenant,
    provider: 'sandbox',
    gatewayPayId: 9_000_000_000 + id,
    status: 'payedPix',
    paymentMethod: 'pix',
    value: 10_000,
    valueSeller: 9_901,
    installments: 1,
    customer: {
      id: 1,
      uuid: 'c-1',
      name: 'Ana Souza',
      email: 'ana@example.com',
      document: '52998224725',
      phone: '11987654321',
    },
    product: { id: 1, uuid: 'p-1', name: 'Curso', value: 10_000 },
    pix: null,
    boleto: null,
    card: null,
    failureCode: null,
    failureReason: null,
    refunds: [],
    refundedAmount: 0,
    paidAt: createdAt,
    canceledAt: null,
    deadline: null,
    metadata: {},
    checkoutSessionId: null,
    clientReferenceId: null,
    affiliate: null,
    createdAt,
    updatedAt: createdAt,
    version: 1,
    ...over,
  };
}

const card = { paymentMethod: 'creditcard' as const, status: 'captured' as const, valueSeller: 9_562 };
const OLD: Transaction[] = [
  sale(1, SELLER, {}),
  sale(2, SELLER, { ...card, refundedAmount: 2_500 }),
  sale(3, SELLER, { ...card, status: 'reversed', failureCode: 'chargeback' }),
  sale(4, SELLER, {
    paymentMethod: 'boleto',
    status: 'pendingBoleto',
    paidAt: null,
    deadline: '2026-03-20',
    valueSeller: 9_651,
  }),
  sale(5, SELLER, { ...card, status: 'denied', paidAt: null }),
  sale(6, SELLER, { paymentMethod: 'boleto', status: 'payedBoleto', valueSeller: 9_651 }),
  sale(7, OTHER, {}),
];

/** Transactions as the code before the figures wrote them: no marker, no figure items. */
async function oldShapeTable(): Promise<Table> {
  const table = await freshTable('figures');
  await table.put({ ...LOCAL_STAMP, entity: 'data-format', version: 1, format: 4 });
  for (const t of OLD) await table.put(transactionEntity.toItem(t));
  return table;
}

/** What the figures must hold: every stored transaction's cells, as it stands now. */
async function expectedFigures(table: Table, tenant: Tenant): Promise<Map<string, DayFigures>> {
  const repo = createTransactionRepository(table);
  const days = new Map<string, DayFigures>();
  for (const t of OLD.filter((o) => o.tenant.sellerId === tenant.sellerId)) {
    const stored = (await repo.get(tenant, t.id)) as Transaction;
    addCells(days, figureCellsOf(stored));
  }
  return days;
}

describe('migration 5: daily figures', () => {
  it('counts every transaction of the old shape once, and skips one the service counted meanwhile', async () => {
    const table = await oldShapeTable();
    const repo = createTransactionRepository(table);
    // Before the migration runs, today's code refunds sale 1 in full: its write adds all of it.
    const before = (await repo.get(SELLER, 1)) as Transaction;
    expect(before.outsideDailyFigures).toBe(true);
    await repo.save(
      {
        ...before,
        status: 'reversed',
        refundedAmount: 10_000,
        version: 2,
        updatedAt: '2026-03-12T12:00:00.000Z',
      },
      before,
      [],
    );

    const outcome = await runMigrations(table, { owner: 'a', clock, pageSize: 2 });
    expect(outcome).toMatchObject({ state: 'current', format: 5, ran: [5] });

    const figures = await repo.dailyFigures(SELLER, RANGE);
    expect(figures.days).toEqual(await expectedFigures(table, SELLER));
    expect((await repo.dailyFigures(OTHER, RANGE)).days).toEqual(await expectedFigures(table, OTHER));
    // Spot checks: the partial refund and the open chargeback are out of gross; the decline counted.
    const day2 = figures.days.get('2026-03-03');
    expect(day2?.sales.card).toEqual({ gross: 7_500, net: 9_562 - 2_500, count: 1, declined: 0 });
    expect(figures.days.get('2026-03-04')?.sales.card).toMatchObject({ gross: 0, count: 1 });
    expect(figures.days.get('2026-03-06')?.sales.card.declined).toBe(1);
    expect(figures.days.get('2026-03-20')?.receivables.pendingBoleto).toBe(9_651);
    for (const t of OLD) expect((await repo.get(t.tenant, t.id))?.outsideDailyFigures).toBeUndefined();
  });

  it('adds nothing when a page runs again after a crash', async () => {
    const table = await oldShapeTable();
    const items = await Promise.all(OLD.map((t) => table.get(transactionEntity.key(t))));
    const replay = {
      table,
      eachPage: async (_source: unknown, migrate: (page: Record<string, unknown>[]) => Promise<void>) => {
        await migrate(items as Record<string, unknown>[]);
        await migrate(items as Record<string, unknown>[]);
      },
    };
    await dailyFigures.run(replay);
    const repo = createTransactionRepository(table);
    expect((await repo.dailyFigures(SELLER, RANGE)).days).toEqual(await expectedFigures(table, SELLER));
  });
});
