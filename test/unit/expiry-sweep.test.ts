import { describe, expect, it } from 'vitest';
import type { GatewayRouter, TransactionRepository } from '#shared/domain/ports';
import { SWEEP_HOURS, sweepPixExpiries } from '#shared/domain/transactions/expiry-sweep';
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
    });
    expect(asked).toEqual([{ now: new Date(NOW), hoursBack: SWEEP_HOURS }]);
    expect(result).toEqual({ due: 3, expired: 2 });
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
    });
    expect(result).toEqual({ due: 0, expired: 0 });
  });
});
