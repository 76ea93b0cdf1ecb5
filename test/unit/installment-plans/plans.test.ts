import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { InstallmentPlanDeps } from '#shared/domain/installment-plans/deps';
import { markInstallmentPaid, PROVIDER_UNAVAILABLE } from '#shared/domain/installment-plans/payments';
import type { Installment, InstallmentPlan } from '#shared/domain/installment-plans/plan';
import { installmentAmountOf, installmentDueDate } from '#shared/domain/installment-plans/state';
import { ServiceUnavailableError } from '#shared/errors';
import { FakeClock } from '#test/support/fakes/clock';
import { SequentialIds } from '#test/support/fakes/ids';

describe('installmentAmountOf', () => {
  it.each([
    [100_000, 10_349, 3, 34_497], // 1034.90 / 3 = 344.9666… → 344.97
    [100_000, 10_000, 3, 33_333], // 333.333… → 333.33
    [100_001, 10_000, 2, 50_001], // 500.005 → half up: 500.01
    [99_999, 10_000, 2, 50_000], // 499.995 → half up: 500.00
    [500, 12_500, 12, 52], // 6.25 / 12 = 0.52083… → 0.52
    [1_000, 10_000, 4, 250],
  ])('%i centavos × %i / %i = %i', (base, fator, n, expected) => {
    expect(installmentAmountOf(base, fator, n)).toBe(expected);
  });

  it('is round-half-up of the exact quotient, so the total differs from base × fator by less than n centavos', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 500, max: 9_999_999_999 }),
        fc.integer({ min: 10_000, max: 100_000 }),
        fc.integer({ min: 2, max: 12 }),
        (base, fator, n) => {
          const amount = installmentAmountOf(base, fator, n);
          expect(Number.isSafeInteger(amount)).toBe(true);
          // |amount − base × fator / (n × 10000)| ≤ 1/2, in exact integer arithmetic.
          const exact = BigInt(base) * BigInt(fator);
          const scaled = BigInt(amount) * BigInt(n) * 10_000n;
          const diff = scaled > exact ? scaled - exact : exact - scaled;
          expect(diff * 2n <= BigInt(n) * 10_000n).toBe(true);
        },
      ),
    );
  });
});

describe('installmentDueDate', () => {
  it('keeps the anchor day, or the last day of a shorter month, never drifting', () => {
    const dates = [1, 2, 3, 4].map((n) => installmentDueDate('2027-01-31', n));
    expect(dates).toEqual(['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30']);
    expect(installmentDueDate('2028-01-31', 2)).toBe('2028-02-29');
    expect(installmentDueDate('2026-12-31', 3)).toBe('2027-02-28');
    expect(installmentDueDate('2026-11-30', 4)).toBe('2027-02-28');
    expect(installmentDueDate('2026-11-30', 5)).toBe('2027-03-30');
    expect(installmentDueDate('2026-03-15', 12)).toBe('2027-02-15');
  });
});

describe('markInstallmentPaid', () => {
  const TENANT = { sellerId: 7, environment: 'test' } as const;
  const installment: Installment = {
    number: 1,
    amount: 34_497,
    dueDate: '2026-12-01',
    status: 'scheduled',
    boleto: {
      transactionId: 900,
      gatewayPayId: 7_000_001,
      barcodeLine: '0000',
      pdfUrl: 'https://x',
      dueDate: '2026-12-01',
      issuedAt: '2026-11-20T00:00:00.000Z',
    },
    reissueCount: 0,
    remindersSent: [],
    paidAt: null,
    paidAmount: null,
    paidBy: null,
    paidTransactionId: null,
  };
  const plan = {
    uuid: '5d3b8c3e-1b7a-4b8e-9d6f-2a1c3e4f5a6b',
    tenant: TENANT,
    status: 'pending_activation',
    installmentsDetail: [installment],
    version: 1,
  } as unknown as InstallmentPlan;

  it('answers 503 and changes nothing when the provider cannot be asked', async () => {
    const writes: string[] = [];
    const deps = {
      installmentPlans: {
        get: async () => plan,
        save: async () => {
          writes.push('plan');
        },
      },
      transactions: {
        get: async () => {
          writes.push('transaction read');
          return null;
        },
      },
      payments: {
        forEnvironment: () => ({
          status: async () => {
            throw new Error('ECONNRESET');
          },
        }),
      },
      scheduler: { scheduleAt: async () => writes.push('schedule'), cancel: async () => undefined },
      clock: new FakeClock('2026-11-25T12:00:00.000Z'),
      ids: new SequentialIds(),
    } as unknown as InstallmentPlanDeps;
    const error = await markInstallmentPaid(deps, TENANT, plan.uuid, 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServiceUnavailableError);
    expect(error).toMatchObject({ statusCode: 503, message: PROVIDER_UNAVAILABLE });
    expect(writes).toEqual([]);
  });
});
