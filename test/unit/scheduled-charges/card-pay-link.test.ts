import { beforeEach, describe, expect, it } from 'vitest';
import type { ScheduledCharge } from '#shared/domain/scheduled-charges/charge';
import { payLinkView } from '#shared/domain/scheduled-charges/pay-link';
import { payLinkByCard } from '#shared/domain/scheduled-charges/pay-link-card';
import {
  changeChargePaymentMethod,
  clearChargePaymentMethod,
} from '#shared/domain/scheduled-charges/payment-method';
import { ConflictError, NotFoundError } from '#shared/errors';
import { BUYER, engine, MAR_10 } from './card-engine';

const visa = {
  number: '4111111111111111',
  holderName: 'ANA SOUZA',
  expiryMonth: 12,
  expiryYear: 2034,
  cvv: '123',
};

let e: ReturnType<typeof engine>;
beforeEach(() => {
  e = engine();
});

/** The series with cycle 1 open and no card saved yet (card only: pending tokenization). */
function firstCycleOpen(overrides: Partial<ScheduledCharge> = {}) {
  const base = e.seed();
  const first = {
    ...base.cycles[0],
    status: 'due_today' as const,
    paidAt: null,
    paidBy: null,
    dueDate: '2026-03-10',
  };
  return e.seed({
    anchorDate: '2026-03-10',
    cycles: [first],
    paymentMethod: null,
    status: 'pending_tokenization',
    ...overrides,
  });
}

describe('payLinkByCard', () => {
  it('charges cycle 1 with the buyer present, keeps the card on the series and writes it all in one save', async () => {
    const charge = firstCycleOpen();
    const saves = e.scheduledCharges.saves;
    const outcome = await payLinkByCard(e.deps, charge.cycles[0].payToken, { card: visa }, BUYER);
    expect(outcome).toEqual({ status: 'paid', card: { brand: 'visa', last4: '1111' }, failure: null });
    expect(e.scheduledCharges.saves).toBe(saves + 1);
    expect(e.provider.requests[0]).toMatchObject({
      method: 'creditcard',
      amountCentavos: 4990,
      saveCard: true,
      installments: 1,
    });
    const stored = e.stored();
    expect(stored.paymentMethod).toMatchObject({ cardLast4: '1111', cardBrand: 'visa' });
    expect(stored.status).not.toBe('pending_tokenization');
    expect(e.cycle(1)).toMatchObject({ status: 'paid', attemptCount: 1 });
    expect(await e.timeline()).toEqual(['paid', 'payment_method_attached']);
    expect(e.events()).toEqual(
      expect.arrayContaining([
        'scheduled_charge.paid',
        'scheduled_charge.payment_method_attached',
        'transaction.created',
      ]),
    );
    const [attempt] = await e.attempts(1);
    expect(attempt).toMatchObject({ source: 'cycle1_interactive', status: 'succeeded', cardLast4: '1111' });
    expect(e.transactions.all()[0]).toMatchObject({
      status: 'captured',
      scheduledCharge: { chargeId: charge.id, cycleNumber: 1 },
    });
  });

  it('refunds an approved card when the cycle was paid meanwhile, and answers 409', async () => {
    const charge = firstCycleOpen();
    e.scheduledCharges.beforeSave = () => {
      e.scheduledCharges.beforeSave = null;
      const stored = e.stored();
      // A pix of the cycle was paid while the card was at the provider.
      stored.cycles[0] = { ...stored.cycles[0], status: 'paid', paidBy: 'transaction' };
      stored.version += 1;
    };
    await expect(payLinkByCard(e.deps, charge.cycles[0].payToken, { card: visa }, BUYER)).rejects.toThrow(
      'Esta cobrança já foi paga.',
    );
    expect(e.provider.refunds).toHaveLength(1);
    expect(e.transactions.all()).toHaveLength(0);
  });

  it('records a declined card as an attempt, leaving the cycle open and no card saved', async () => {
    const charge = firstCycleOpen();
    const outcome = await payLinkByCard(
      e.deps,
      charge.cycles[0].payToken,
      {
        card: { ...visa, number: '4000000000009995' },
      },
      BUYER,
    );
    // The buyer reads a plain decline; the seller's attempt keeps the reason.
    expect(outcome).toMatchObject({ status: 'declined', failure: { code: 'card_declined' } });
    expect(e.cycle(1)).toMatchObject({ status: 'due_today', attemptCount: 1, nextRetryAt: null });
    expect(e.stored().paymentMethod).toBeNull();
    expect((await e.attempts())[0]).toMatchObject({
      status: 'declined',
      failureCode: 'insufficient_funds',
      gatewayFailureCode: 'fake_insufficient_funds',
    });
    expect(await e.timeline()).toEqual(['payment_failed']);
  });

  it('keeps the card without a charge during a trial', async () => {
    e.clock.set('2026-03-05T12:00:00.000Z');
    const charge = firstCycleOpen({ trialDays: 14, trialEndsOn: '2026-03-09', status: 'trial' });
    const outcome = await payLinkByCard(e.deps, charge.cycles[0].payToken, { card: visa }, BUYER);
    expect(outcome).toEqual({ status: 'card_saved', card: { brand: 'visa', last4: '1111' }, failure: null });
    expect(e.provider.requests).toHaveLength(0);
    expect(e.provider.tokenizeRequests).toHaveLength(1);
    expect(e.stored()).toMatchObject({ status: 'trial', paymentMethod: { cardLast4: '1111' } });
    expect(await e.attempts()).toHaveLength(0);
    expect(e.events()).toEqual(['scheduled_charge.payment_method_attached']);
    // The link now says the card is kept, and takes no other.
    expect(await payLinkView(e.deps, charge.cycles[0].payToken)).toMatchObject({
      cardMode: null,
      savedCard: { last4: '1111' },
    });
  });

  it('refuses a cycle whose silent charge is in flight, and an unknown token', async () => {
    const charge = e.seed();
    const claimed = e.seed({
      cycles: charge.cycles.map((c) =>
        c.number === 2
          ? {
              ...c,
              attemptCount: 1,
              claim: {
                attemptNumber: 2,
                transactionId: 5,
                idempotencyKey: 'k',
                source: 'card_retry' as const,
                claimedAt: MAR_10,
              },
            }
          : c,
      ),
    });
    await expect(
      payLinkByCard(e.deps, claimed.cycles[1].payToken, { card: visa }, BUYER),
    ).rejects.toBeInstanceOf(ConflictError);
    await expect(
      payLinkByCard(e.deps, 'cob_00000000000000000000000000000000', { card: visa }, BUYER),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(e.provider.requests).toHaveLength(0);
  });
});

describe('the payment method actions', () => {
  it('refuses a change or a clear while a card charge is in flight (it must be repeated with its card)', async () => {
    const charge = e.seed();
    e.seed({
      cycles: charge.cycles.map((c) =>
        c.number === 2
          ? {
              ...c,
              claim: {
                attemptNumber: 1,
                transactionId: 5,
                idempotencyKey: 'k',
                source: 'silent_charge' as const,
                claimedAt: MAR_10,
              },
            }
          : c,
      ),
    });
    await expect(clearChargePaymentMethod(e.deps, charge.tenant, charge.id)).rejects.toThrow(
      'Scheduled charge cannot be cleared of its payment method while a card charge of cycle 2 is in progress',
    );
    await expect(
      changeChargePaymentMethod(e.deps, charge.tenant, charge.id, { paymentMethodId: 41 }),
    ).rejects.toThrow('in progress');
  });

  it('clears the card and its planned retries, once', async () => {
    const charge = e.seed();
    e.seed({
      cycles: charge.cycles.map((c) =>
        c.number === 2 ? { ...c, attemptCount: 1, nextRetryAt: '2026-03-13T03:00:30.000Z' } : c,
      ),
    });
    const cleared = await clearChargePaymentMethod(e.deps, charge.tenant, charge.id);
    expect(cleared.paymentMethod).toBeNull();
    expect(e.cycle(2)?.nextRetryAt).toBeNull();
    expect(e.events()).toEqual(['scheduled_charge.payment_method_cleared']);
    await expect(clearChargePaymentMethod(e.deps, charge.tenant, charge.id)).rejects.toThrow(
      'Scheduled charge has no payment method to clear',
    );
  });

  it('answers another customer’s card as not found, and the same card again without a write', async () => {
    const charge = e.seed();
    const saves = e.scheduledCharges.saves;
    await changeChargePaymentMethod(e.deps, charge.tenant, charge.id, { paymentMethodId: 41 });
    expect(e.scheduledCharges.saves).toBe(saves);
    const stranger = { ...e.card, id: 42, customer: { id: 99, uuid: 'other' } };
    e.paymentMethods.items.set(`7#test#42`, stranger);
    await expect(
      changeChargePaymentMethod(e.deps, charge.tenant, charge.id, { paymentMethodId: 42 }),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});
