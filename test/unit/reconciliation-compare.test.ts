import { describe, expect, it } from 'vitest';
import {
  differencesOf,
  expectedAtProvider,
  expectedProviderStatus,
  groupByGatewayPayId,
  repairOf,
} from '#shared/domain/reconciliation/compare';
import { dayOfJob } from '#shared/domain/reconciliation/daily';
import { parseReconciliationId, reconciliationId } from '#shared/domain/reconciliation/reconciliation';
import type { Transaction } from '#shared/domain/transactions/transaction';

const tx = (over: Partial<Transaction>): Transaction =>
  ({
    id: 1,
    gatewayPayId: 500,
    value: 1000,
    status: 'pendingPix',
    pix: null,
    chargeback: null,
    failureCode: null,
    ...over,
  }) as Transaction;

describe('what the reconciliation repairs', () => {
  it.each([
    ['paid', 'pendingPix', 'charge.paid'],
    ['paid', 'pendingBoleto', 'charge.paid'],
    ['refunded', 'captured', 'charge.refunded'],
    ['charged_back', 'payedPix', 'charge.charged_back'],
    ['pending', 'captured', null],
    ['paid', 'denied', null],
    ['paid', 'cancel', null],
    ['failed', 'pendingBoleto', null],
    ['canceled', 'pendingPix', null],
    ['refunded', 'pendingPix', null],
  ] as const)('provider %s, ours %s: %s', (provider, ours, repair) => {
    expect(repairOf(provider, tx({ status: ours }))).toBe(repair);
  });

  it('reads a reversed sale as refunded, or charged back while its chargeback is open', () => {
    expect(expectedProviderStatus(tx({ status: 'reversed' }))).toBe('refunded');
    expect(
      expectedProviderStatus(
        tx({ status: 'reversed', chargeback: { status: 'open', openedAt: '', closedAt: null } }),
      ),
    ).toBe('charged_back');
  });
});

describe('what the provider is expected to hold', () => {
  it('expects no payment for a declined card, a canceled charge or an unpaid Pix Automático consent', () => {
    expect(expectedAtProvider(tx({ status: 'denied' }))).toBe(false);
    expect(expectedAtProvider(tx({ status: 'cancel' }))).toBe(false);
    const consent = { qrCode: 'q', txid: 't', expiresAt: '', authorizationId: 'auth_1' };
    expect(expectedAtProvider(tx({ status: 'pendingPix', pix: consent }))).toBe(false);
    expect(expectedAtProvider(tx({ status: 'payedPix', pix: consent }))).toBe(true);
    expect(expectedAtProvider(tx({ status: 'pendingPix' }))).toBe(true);
  });

  it('adds up the installments of one reference and keeps payments of no reference apart', () => {
    const { charges, unknown } = groupByGatewayPayId([
      { providerPaymentId: 'pay_1', gatewayPayId: 9, amountCentavos: 3334, status: 'paid' },
      { providerPaymentId: 'pay_2', gatewayPayId: 9, amountCentavos: 3333, status: 'paid' },
      { providerPaymentId: 'pay_3', gatewayPayId: null, amountCentavos: 100, status: 'paid' },
    ]);
    expect(charges.get(9)).toMatchObject({ providerPaymentId: 'pay_1', amountCentavos: 6667 });
    expect(unknown.map((p) => p.providerPaymentId)).toEqual(['pay_3']);
  });

  it('reports an amount and a status apart, and nothing for an equal pair', () => {
    const t = tx({ status: 'captured', value: 1000 });
    expect(differencesOf({ providerPaymentId: 'p', status: 'paid', amountCentavos: 1000 }, t)).toEqual([]);
    expect(
      differencesOf({ providerPaymentId: 'p', status: 'pending', amountCentavos: 990 }, t).map((d) => d.kind),
    ).toEqual(['amount_mismatch', 'status_mismatch']);
    // Listed on another day: the status alone is compared.
    expect(differencesOf({ providerPaymentId: 'p', status: 'paid', amountCentavos: null }, t)).toEqual([]);
  });
});

describe('the job and record ids', () => {
  it('reconciles the day before the run for the daily id, a given day, and nothing for anything else', () => {
    expect(dayOfJob('daily', new Date('2026-11-28T06:00:00Z'))).toBe('2026-11-27');
    // 01:00 UTC is still the 27th in Sao Paulo.
    expect(dayOfJob('daily', new Date('2026-11-28T01:00:00Z'))).toBe('2026-11-26');
    expect(dayOfJob('2026-02-28', new Date())).toBe('2026-02-28');
    expect(dayOfJob('2026-02-30', new Date())).toBeNull();
    expect(dayOfJob('1:live:2026-02-28', new Date())).toBeNull();
  });

  it('names one record per tenant, provider and day, different across sellers, and parses it back', () => {
    const a = reconciliationId({ sellerId: 1, environment: 'live' }, 'asaas', '2026-11-27');
    expect(a).toBe(reconciliationId({ sellerId: 1, environment: 'live' }, 'asaas', '2026-11-27'));
    expect(a).not.toBe(reconciliationId({ sellerId: 2, environment: 'live' }, 'asaas', '2026-11-27'));
    expect(a).toMatch(/^rcn_20261127_[0-9a-f]{16}$/);
    expect(parseReconciliationId(a)?.day).toBe('2026-11-27');
    expect(parseReconciliationId('rcn_x')).toBeNull();
  });
});
