import { describe, expect, it } from 'vitest';
import { canApplyTo, paidStatusOf, RULES, refusal } from '#shared/domain/transactions/state-machine';
import type { Transaction } from '#shared/domain/transactions/transaction';
import { applyTrigger } from '#shared/domain/transactions/transitions';

const sale = (over: Partial<Transaction> = {}): Transaction =>
  ({
    id: 1,
    status: 'captured',
    paymentMethod: 'creditcard',
    value: 10_000,
    refundedAmount: 0,
    refunds: [],
    failureCode: null,
    failureReason: null,
    updatedAt: '2026-01-01T12:00:00.000Z',
    version: 1,
    ...over,
  }) as Transaction;

describe('the chargeback and its reversal', () => {
  it('opens a chargeback record when a paid sale is charged back', () => {
    const next = applyTrigger(sale(), 'chargeback', '2026-01-02T00:00:00.000Z');
    expect(next).toMatchObject({
      status: 'reversed',
      failureCode: 'chargeback',
      chargeback: { status: 'open', openedAt: '2026-01-02T00:00:00.000Z', closedAt: null },
      version: 2,
    });
  });

  it.each([
    ['creditcard', 'captured'],
    ['pix', 'payedPix'],
    ['boleto', 'payedBoleto'],
  ] as const)('restores a %s sale to %s, the chargeback won and its failure cleared', (method, status) => {
    const charged = applyTrigger(
      sale({ paymentMethod: method, status: paidStatusOf(sale({ paymentMethod: method })) }),
      'chargeback',
      '2026-01-02T00:00:00.000Z',
    );
    expect(canApplyTo('chargeback_reversal', charged)).toBe(true);
    const won = applyTrigger(charged, 'chargeback_reversal', '2026-02-01T00:00:00.000Z');
    expect(won).toMatchObject({
      status,
      failureCode: null,
      failureReason: null,
      chargeback: {
        status: 'won',
        openedAt: '2026-01-02T00:00:00.000Z',
        closedAt: '2026-02-01T00:00:00.000Z',
      },
    });
    expect(canApplyTo('chargeback_reversal', won)).toBe(false);
  });

  it('keeps a partial refund made before the chargeback when the sale is restored', () => {
    const charged = applyTrigger(sale({ refundedAmount: 2_500 }), 'chargeback', '2026-01-02T00:00:00.000Z');
    expect(applyTrigger(charged, 'chargeback_reversal', '2026-01-03T00:00:00.000Z')).toMatchObject({
      status: 'captured',
      refundedAmount: 2_500,
    });
  });

  it('restores a chargeback stored before the record existed, known by its failure code', () => {
    const legacy = sale({
      status: 'reversed',
      failureCode: 'chargeback',
      updatedAt: '2025-12-01T00:00:00.000Z',
    });
    expect(canApplyTo('chargeback_reversal', legacy)).toBe(true);
    expect(applyTrigger(legacy, 'chargeback_reversal', '2026-01-03T00:00:00.000Z').chargeback).toEqual({
      status: 'won',
      openedAt: '2025-12-01T00:00:00.000Z',
      closedAt: '2026-01-03T00:00:00.000Z',
    });
  });

  it('never restores a sale reversed by a full refund, nor a paid, pending or cancelled one', () => {
    expect(canApplyTo('chargeback_reversal', sale({ status: 'reversed', refundedAmount: 10_000 }))).toBe(
      false,
    );
    for (const status of ['captured', 'payedPix', 'pendingPix', 'cancel', 'denied'] as const)
      expect(canApplyTo('chargeback_reversal', sale({ status, failureCode: 'chargeback' })), status).toBe(
        false,
      );
    expect(refusal('chargeback_reversal', sale())).toMatchObject({
      statusCode: 409,
      code: 'invalid_transition',
    });
  });

  it('emits transaction.updated and transaction.chargeback_reversed', () => {
    expect(RULES.chargeback_reversal.events(sale(), false)).toEqual([
      'transaction.updated',
      'transaction.chargeback_reversed',
    ]);
  });
});
