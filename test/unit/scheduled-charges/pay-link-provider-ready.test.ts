import { beforeEach, describe, expect, it } from 'vitest';
import type { ScheduledCharge } from '#shared/domain/scheduled-charges/charge';
import { payLinkByCard } from '#shared/domain/scheduled-charges/pay-link-card';
import { ServiceUnavailableError } from '#shared/errors';
import { BUYER, engine } from './card-engine';

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

describe('the pay link asks providerReady (a per-seller provider must be connected)', () => {
  it('refuses a card with 503 provider_not_configured before anything is written when the seller is not connected', async () => {
    const charge = firstCycleOpen();
    const asked: unknown[] = [];
    Object.assign(e.provider, {
      connected: async (tenant: unknown) => {
        asked.push(tenant);
        return false;
      },
    });
    const saves = e.scheduledCharges.saves;
    const failure = await payLinkByCard(e.deps, charge.cycles[0].payToken, { card: visa }, BUYER).catch(
      (err) => err,
    );
    expect(failure).toBeInstanceOf(ServiceUnavailableError);
    expect(failure).toMatchObject({ code: 'provider_not_configured' });
    expect(asked).toEqual([charge.tenant]);
    expect(e.provider.requests).toEqual([]);
    expect(e.scheduledCharges.saves).toBe(saves);
    expect(e.transactions.all()).toEqual([]);
    expect(e.cycle(1)).toMatchObject({ status: 'due_today', attemptCount: 0 });
  });

  it('charges as before once the seller is connected', async () => {
    const charge = firstCycleOpen();
    Object.assign(e.provider, { connected: async () => true });
    const outcome = await payLinkByCard(e.deps, charge.cycles[0].payToken, { card: visa }, BUYER);
    expect(outcome).toMatchObject({ status: 'paid' });
  });
});
