import { describe, expect, it } from 'vitest';
import {
  FOLLOW_UPS,
  type FollowUpDeps,
  type FollowUpLink,
  outcomeOf,
  type PaymentOutcome,
  runFollowUps,
} from '#shared/domain/transactions/follow-ups';
import { STATUSES, type Transaction } from '#shared/domain/transactions/transaction';

const LINKS: FollowUpLink[] = ['checkoutSession', 'subscription', 'scheduledChargeCycle', 'installment'];
const OUTCOMES: PaymentOutcome[] = ['opened', 'paid', 'failed', 'canceled', 'refunded', 'chargedBack'];

/** Which link × outcome does something: a change to the map has to change this table on purpose. */
const HANDLED: Record<FollowUpLink, PaymentOutcome[]> = {
  checkoutSession: ['opened', 'paid'],
  subscription: ['paid', 'failed', 'canceled'],
  scheduledChargeCycle: ['paid'],
  installment: ['paid', 'failed'],
};

describe('the follow-up map', () => {
  it('has one row per link kind, each naming every outcome', () => {
    expect(Object.keys(FOLLOW_UPS).sort()).toEqual([...LINKS].sort());
    for (const link of LINKS) expect(Object.keys(FOLLOW_UPS[link].on).sort()).toEqual([...OUTCOMES].sort());
  });

  it.each(LINKS)('%s: every outcome is either handled or explicitly nothing', (link) => {
    for (const outcome of OUTCOMES) {
      const cell = FOLLOW_UPS[link].on[outcome];
      if (HANDLED[link].includes(outcome)) expect(typeof cell, `${link} × ${outcome}`).toBe('function');
      else expect(cell, `${link} × ${outcome}`).toBeNull();
    }
  });

  it('undoes nothing on a refund or a chargeback', () => {
    for (const link of LINKS) {
      expect(FOLLOW_UPS[link].on.refunded).toBeNull();
      expect(FOLLOW_UPS[link].on.chargedBack).toBeNull();
    }
  });
});

const base = {
  id: 7,
  status: 'pendingPix',
  checkoutSessionId: null,
  recurring: null,
  scheduledCharge: null,
  installmentPlan: null,
  chargeback: null,
  failureCode: null,
} as unknown as Transaction;
const tx = (over: Partial<Transaction>): Transaction => ({ ...base, ...over }) as Transaction;

describe('outcomeOf', () => {
  it('reads the outcome from every status', () => {
    const seen = Object.fromEntries(STATUSES.map((status) => [status, outcomeOf(tx({ status }))]));
    expect(seen).toEqual({
      pendingBoleto: 'opened',
      pendingPix: 'opened',
      authorized: 'opened',
      captured: 'paid',
      payedBoleto: 'paid',
      payedPix: 'paid',
      denied: 'failed',
      reversed: 'refunded',
      cancel: 'canceled',
    });
  });

  it('tells a chargeback from a full refund', () => {
    const chargeback = { status: 'open' } as Transaction['chargeback'];
    expect(outcomeOf(tx({ status: 'reversed', chargeback }))).toBe('chargedBack');
    expect(outcomeOf(tx({ status: 'reversed', failureCode: 'chargeback' }))).toBe('chargedBack');
  });

  it.each([
    ['checkoutSession', { checkoutSessionId: 'cs_test_1' }],
    ['subscription', { recurring: { subscriptionId: 1, billingCycle: 2, method: 'pix_automatic' } }],
    ['scheduledChargeCycle', { scheduledCharge: { chargeId: 'sc_1', cycleNumber: 1 } }],
    ['installment', { installmentPlan: { planUuid: 'u', number: 1 } }],
  ] as const)('links a transaction to its %s', (link, over) => {
    const t = tx(over as Partial<Transaction>);
    for (const other of LINKS) expect(FOLLOW_UPS[other].linked(t), other).toBe(other === link);
  });
});

/** Deps whose every use fails the test: a follow-up that should do nothing touches none of them. */
const untouchable = new Proxy({} as FollowUpDeps, {
  get: (_, name) => {
    throw new Error(`follow-up touched deps.${String(name)}`);
  },
});

describe('runFollowUps', () => {
  it('does nothing for a pending transaction of a cycle or an installment', async () => {
    const t = tx({
      scheduledCharge: { chargeId: 'sc_1', cycleNumber: 1 } as Transaction['scheduledCharge'],
      installmentPlan: { planUuid: 'u', number: 1 } as Transaction['installmentPlan'],
    });
    await expect(runFollowUps(untouchable, t)).resolves.toBeUndefined();
  });

  it('reads nothing for an outcome every link leaves alone', async () => {
    const linked = {
      checkoutSessionId: 'cs_test_1',
      scheduledCharge: { chargeId: 'sc_1', cycleNumber: 1 } as Transaction['scheduledCharge'],
    };
    await expect(runFollowUps(untouchable, tx({ ...linked, status: 'reversed' }))).resolves.toBeUndefined();
    await expect(runFollowUps(untouchable, tx({ ...linked, status: 'denied' }))).resolves.toBeUndefined();
  });

  it('runs the handled cells of each linked row, in the map order', async () => {
    const reads: string[] = [];
    const deps = {
      sessions: {
        get: async (id: string) => {
          reads.push(`session ${id}`);
          return null;
        },
      },
      scheduledCharges: {
        get: async () => {
          reads.push('scheduled charge');
          return null;
        },
      },
    } as unknown as FollowUpDeps;
    const t = tx({
      status: 'payedPix',
      checkoutSessionId: 'cs_test_1',
      scheduledCharge: { chargeId: 'sc_1', cycleNumber: 1 } as Transaction['scheduledCharge'],
    });
    await runFollowUps(deps, t);
    expect(reads).toEqual(['session cs_test_1', 'scheduled charge']);
  });

  it('reads only the session of a pending session payment (a sale recorded late starts what it opens)', async () => {
    const reads: string[] = [];
    const deps = {
      sessions: {
        get: async (id: string) => {
          reads.push(`session ${id}`);
          return null;
        },
      },
    } as unknown as FollowUpDeps;
    await runFollowUps(deps, tx({ status: 'pendingPix', checkoutSessionId: 'cs_test_1' }));
    expect(reads).toEqual(['session cs_test_1']);
  });
});
