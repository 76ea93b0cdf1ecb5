import { describe, expect, it } from 'vitest';
import type { GatewayRouter, TransactionRepository } from '#shared/domain/ports';
import { SWEEP_HOURS, sweepPixExpiries } from '#shared/domain/transactions/expiry-sweep';
import { expirePix } from '#shared/domain/transactions/notifications';
import { ConflictError } from '#shared/errors';
import { FakeClock } from '../support/fakes/clock';
import { SequentialIds } from '../support/fakes/ids';
import { FakeReporter } from '../support/fakes/reporter';

const NOW = '2026-03-01T12:00:00.000Z';

/** Only what the sweep reads: the due expiries and, per job id, the transaction (none here). */
function transactionsWith(due: string[], failing: string) {
  const asked: { now: Date; hoursBack: number }[] = [];
  const repo = {
    async duePixExpiries(now: Date, hoursBack: number) {
      asked.push({ now, hoursBack });
      return due;
    },
    async get(tenant: { sellerId: number }, id: number) {
      if (`${tenant.sellerId}:test:${id}` === failing) throw new Error('table unavailable');
      return null;
    },
  };
  return { repo: repo as unknown as TransactionRepository, asked };
}

describe('sweepPixExpiries', () => {
  it('looks back SWEEP_HOURS from now and goes on past a charge it cannot expire, reporting it', async () => {
    const { repo, asked } = transactionsWith(['1:test:10', '1:test:11', '1:test:12'], '1:test:11');
    const reporter = new FakeReporter();
    const result = await sweepPixExpiries({
      transactions: repo,
      clock: new FakeClock(NOW),
      ids: new SequentialIds(),
      payments: {} as GatewayRouter,
      reporter,
      settle: async () => undefined,
    });
    expect(asked).toEqual([{ now: new Date(NOW), hoursBack: SWEEP_HOURS }]);
    expect(result).toEqual({ due: 3, expired: 2, paid: 0 });
    expect(reporter.reports.map((r) => `${r.context?.id}: ${(r.error as Error).message}`)).toEqual([
      '1:test:11: table unavailable',
    ]);
  });

  it('does nothing when no expiry is due', async () => {
    const { repo } = transactionsWith([], '');
    const result = await sweepPixExpiries({
      transactions: repo,
      clock: new FakeClock(NOW),
      ids: new SequentialIds(),
      payments: {} as GatewayRouter,
      reporter: new FakeReporter(),
      settle: async () => undefined,
    });
    expect(result).toEqual({ due: 0, expired: 0, paid: 0 });
  });
});

/** A pending pix of seller 1 whose provider answers `cancel` and `status` as scripted. */
function pixAtProvider(status: 'paid' | 'pending') {
  const t = { id: 10, tenant: { sellerId: 1, environment: 'test' }, status: 'pendingPix', gatewayPayId: 77 };
  const transactions = {
    async duePixExpiries() {
      return ['1:test:10'];
    },
    async get() {
      return t;
    },
  } as unknown as TransactionRepository;
  const refused = new ConflictError(
    `The sandbox charge is ${status}; it cannot become canceled`,
    'sandbox_invalid_state',
  );
  const payments = {
    forEnvironment: () => ({
      cancel: async () => {
        throw refused;
      },
      status: async () => status,
    }),
  } as unknown as GatewayRouter;
  const settled: { id: number; status: string }[] = [];
  const deps = {
    transactions,
    clock: new FakeClock(NOW),
    ids: new SequentialIds(),
    payments,
    reporter: new FakeReporter(),
    settle: async (tx: { id: number }, s: string) => {
      settled.push({ id: tx.id, status: s });
    },
  };
  return { deps, settled, refused };
}

describe('a pix the provider marked paid without notifying', () => {
  it('is paid through the notification path when the provider refuses to cancel it, and the sweep reports nothing', async () => {
    const { deps, settled } = pixAtProvider('paid');
    expect(await sweepPixExpiries(deps)).toEqual({ due: 1, expired: 0, paid: 1 });
    expect(settled).toEqual([{ id: 10, status: 'paid' }]);
    expect(deps.reporter.reports).toEqual([]);
  });

  it('still reports a cancel the provider refuses for a charge it does not hold paid', async () => {
    const { deps, settled, refused } = pixAtProvider('pending');
    await expect(expirePix(deps, '1:test:10')).rejects.toBe(refused);
    expect(await sweepPixExpiries(deps)).toEqual({ due: 1, expired: 0, paid: 0 });
    expect(settled).toEqual([]);
    expect(deps.reporter.reports).toHaveLength(1);
  });
});
