import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, RETRY_DELAYS_MS } from '#shared/domain/payments/saved-card';
import { collectDueCards } from '#shared/domain/scheduled-charges/card';
import type { ScheduledCharge } from '#shared/domain/scheduled-charges/charge';
import { DAY, engine, HOUR, MAR_10, plus, TOKEN } from './card-engine';

let e: ReturnType<typeof engine>;
beforeEach(() => {
  e = engine();
});

describe('collectDueCards: the silent charge', () => {
  it('charges the saved card once on the due date and pays the cycle, with its attempt and transaction in one save', async () => {
    const charge = e.seed();
    const after = await collectDueCards(e.deps, charge);

    expect(e.provider.savedCardCharges).toHaveLength(1);
    const request = e.provider.savedCardCharges[0];
    expect(request).toMatchObject({ token: TOKEN, amountCentavos: 4990, installments: 1 });
    expect(request.idempotencyKey).toBe(`${charge.id}_c2_a1_t${request.transactionId}`);

    expect(after).toEqual(e.stored());
    expect(e.cycle(2)).toMatchObject({
      status: 'paid',
      paidBy: 'transaction',
      paidTransactionId: request.transactionId,
      attemptCount: 1,
      claim: null,
    });
    const [attempt] = await e.attempts(2);
    expect(attempt).toMatchObject({
      cycleNumber: 2,
      attemptNumber: 1,
      source: 'silent_charge',
      status: 'succeeded',
      paymentMethod: 'card',
      paymentMethodId: 41,
      cardLast4: '4242',
      cardBrand: 'visa',
      transactionId: request.transactionId,
      failureCode: null,
    });
    expect(attempt.gatewayChargeId).toBeGreaterThan(0);
    const [t] = e.transactions.all();
    expect(t).toMatchObject({
      id: request.transactionId,
      status: 'captured',
      paymentMethod: 'creditcard',
      value: 4990,
      scheduledCharge: { chargeId: charge.id, cycleNumber: 2 },
      recurring: null,
    });
    expect(e.events()).toEqual(
      expect.arrayContaining([
        'scheduled_charge.paid',
        'transaction.created',
        'transaction.payment.succeeded',
      ]),
    );
    expect(await e.timeline()).toEqual(['paid']);
    // Cycle 3 is created once cycle 2 is paid.
    expect(e.stored().cycles.map((c) => c.number)).toEqual([1, 2, 3]);
  });

  it('charges nothing before the due date, without a saved card, or while paused', async () => {
    e.clock.set('2026-03-10T02:59:00.000Z');
    await collectDueCards(
      e.deps,
      e.seed({ cycles: e.seed().cycles.map((c) => (c.number === 2 ? { ...c, status: 'scheduled' } : c)) }),
    );
    e.clock.set(MAR_10);
    await collectDueCards(e.deps, e.seed({ paymentMethod: null }));
    await collectDueCards(e.deps, e.seed({ pausedAt: '2026-03-01T12:00:00.000Z', status: 'paused' }));
    expect(e.provider.savedCardCharges).toHaveLength(0);
    expect(await e.attempts()).toHaveLength(0);
  });

  it('records a deleted saved card as a declined expired_card attempt without calling the provider', async () => {
    e.paymentMethods.items.clear();
    await collectDueCards(e.deps, e.seed());
    expect(e.provider.savedCardCharges).toHaveLength(0);
    const [attempt] = await e.attempts();
    expect(attempt).toMatchObject({
      status: 'declined',
      failureCode: 'expired_card',
      transactionId: null,
      cardLast4: '4242',
    });
    expect(e.cycle(2)?.nextRetryAt).toBe(plus(MAR_10, RETRY_DELAYS_MS.declined[0]));
  });

  it('repeats the claimed call with the same key when the first run stopped before its outcome was written: charged once', async () => {
    const charge = e.seed();
    let saves = 0;
    e.scheduledCharges.beforeSave = () => {
      saves += 1;
      if (saves === 2) throw new Error('the function timed out');
    };
    await expect(collectDueCards(e.deps, charge)).rejects.toThrow('timed out');
    expect(e.cycle(2)?.claim).toMatchObject({ attemptNumber: 1, source: 'silent_charge' });
    e.scheduledCharges.beforeSave = null;

    await collectDueCards(e.deps, e.stored());
    const keys = e.provider.savedCardCharges.map((r) => r.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(1);
    expect(e.provider.idempotentResults.size).toBe(1);
    expect(e.transactions.all()).toHaveLength(1);
    expect(await e.attempts()).toHaveLength(1);
    expect(e.events().filter((n) => n === 'scheduled_charge.paid')).toHaveLength(1);
  });
});

describe('collectDueCards: retries and the failed cycle', () => {
  for (const failure of [
    {
      outcome: 'declined' as const,
      failureCode: 'insufficient_funds',
      status: 'declined',
      delays: RETRY_DELAYS_MS.declined,
    },
    {
      outcome: 'error' as const,
      failureCode: 'processing_error',
      status: 'errored',
      delays: RETRY_DELAYS_MS.error,
    },
  ]) {
    it(`retries a ${failure.outcome} charge after ${failure.delays.map((d) => d / HOUR).join(', ')} hours, then fails the cycle after the 4th attempt`, async () => {
      let charge = e.seed();
      let at = MAR_10;
      for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
        e.provider.savedCardOutcomes.push({ outcome: failure.outcome, failureCode: failure.failureCode });
        e.clock.set(at);
        charge = await collectDueCards(e.deps, charge);
        const c = charge.cycles.find((x) => x.number === 2);
        if (attempt < MAX_ATTEMPTS) {
          const retryAt = plus(at, failure.delays[attempt - 1]);
          expect(c).toMatchObject({
            attemptCount: attempt,
            nextRetryAt: retryAt,
            failureCode: failure.failureCode,
          });
          // Not before its time.
          e.clock.set(plus(retryAt, -1000));
          await collectDueCards(e.deps, charge);
          expect(e.provider.savedCardCharges).toHaveLength(attempt);
          at = retryAt;
        } else {
          expect(c).toMatchObject({
            status: 'failed',
            nextRetryAt: null,
            attemptCount: MAX_ATTEMPTS,
            gatewayFailureCode: `fake_${failure.failureCode}`,
          });
        }
      }
      const attempts = (await e.attempts(2)).reverse();
      expect(attempts.map((a) => [a.attemptNumber, a.source, a.status])).toEqual([
        [1, 'silent_charge', failure.status],
        [2, 'card_retry', failure.status],
        [3, 'card_retry', failure.status],
        [4, 'card_retry', failure.status],
      ]);
      expect(new Set(e.provider.savedCardCharges.map((r) => r.idempotencyKey)).size).toBe(MAX_ATTEMPTS);
      expect(e.transactions.all().map((t) => t.status)).toEqual(Array(MAX_ATTEMPTS).fill('denied'));
      expect(await e.timeline()).toEqual([
        'payment_failed',
        'payment_failed',
        'payment_failed',
        'payment_failed',
        'cycle_failed',
      ]);
      const failed = e.scheduledCharges.outbox.events.filter(
        (ev) => ev.envelope.event === 'scheduled_charge.cycle_failed',
      );
      expect(failed).toHaveLength(1);
      expect(failed[0].envelope.data).toMatchObject({
        seriesId: charge.id,
        cycleNumber: 2,
        failureCode: failure.failureCode,
        gatewayFailureCode: `fake_${failure.failureCode}`,
      });
      expect(e.events()).not.toContain('scheduled_charge.paid');
      // Nothing more is tried on cycle 2 (cycle 3, due meanwhile, is charged on its own).
      e.clock.set(plus(at, 30 * DAY));
      await collectDueCards(e.deps, e.stored());
      expect(await e.attempts(2)).toHaveLength(MAX_ATTEMPTS);
      expect((await e.attempts(3)).map((a) => a.source)).toEqual(['silent_charge']);
    });
  }

  it('pays the cycle on a retry that is approved', async () => {
    e.provider.savedCardOutcomes.push({ outcome: 'declined', failureCode: 'card_declined' });
    const charge = await collectDueCards(e.deps, e.seed());
    e.clock.set(plus(MAR_10, 3 * DAY));
    await collectDueCards(e.deps, charge);
    expect(e.cycle(2)).toMatchObject({ status: 'paid', attemptCount: 2, nextRetryAt: null });
    expect((await e.attempts(2)).map((a) => [a.source, a.status])).toEqual([
      ['card_retry', 'succeeded'],
      ['silent_charge', 'declined'],
    ]);
  });
});

describe('collectDueCards: trials', () => {
  /** A card series with a 14-day trial ending on 9 March; cycle 1 due on 10 March. */
  const trialSeries = (overrides: Partial<ScheduledCharge> = {}) => {
    const base = e.seed();
    const first = {
      ...base.cycles[0],
      status: 'due_today' as const,
      paidAt: null,
      paidBy: null,
      dueDate: '2026-03-10',
    };
    return e.seed({
      trialDays: 14,
      trialEndsOn: '2026-03-09',
      anchorDate: '2026-03-10',
      cycles: [first],
      status: 'trial',
      ...overrides,
    });
  };

  it('converts the trial when cycle 1 is charged at its end', async () => {
    await collectDueCards(e.deps, trialSeries());
    expect(e.cycle(1)?.status).toBe('paid');
    expect(await e.timeline()).toEqual(['paid', 'trial_converted']);
    expect(e.events()).toContain('customer.trial_converted');
    expect(e.events()).not.toContain('customer.trial_lapsed');
  });

  it('charges nothing while the trial lasts', async () => {
    e.clock.set('2026-03-09T23:00:00.000Z');
    await collectDueCards(e.deps, trialSeries());
    expect(e.provider.savedCardCharges).toHaveLength(0);
  });

  it('lapses the trial when the charge fails, and retries cycle 1 as any card cycle', async () => {
    e.provider.savedCardOutcomes.push({ outcome: 'declined', failureCode: 'insufficient_funds' });
    await collectDueCards(e.deps, trialSeries());
    expect(await e.timeline()).toEqual(['payment_failed', 'trial_lapsed']);
    expect(e.events()).toContain('customer.trial_lapsed');
    expect(e.cycle(1)).toMatchObject({
      status: 'due_today',
      nextRetryAt: plus(MAR_10, RETRY_DELAYS_MS.declined[0]),
    });
  });

  it('lapses a trial with no saved card once, leaving cycle 1 open on its link', async () => {
    const charge = await collectDueCards(e.deps, trialSeries({ paymentMethod: null }));
    await collectDueCards(e.deps, charge);
    expect(e.provider.savedCardCharges).toHaveLength(0);
    expect(await e.timeline()).toEqual(['trial_lapsed']);
    expect(e.events().filter((n) => n === 'customer.trial_lapsed')).toHaveLength(1);
    expect(e.cycle(1)?.status).toBe('due_today');
    expect(e.stored().status).toBe('pending_tokenization');
  });
});
