import { beforeEach, describe, expect, it } from 'vitest';
import { reactivateSubscription } from '#shared/domain/subscriptions/actions';
import { collect, settleAwaitedCharge } from '#shared/domain/subscriptions/collect';
import { runDueJob } from '#shared/domain/subscriptions/due';
import { dueJobId } from '#shared/domain/subscriptions/schedule';
import type { Transaction } from '#shared/domain/transactions/transaction';
import {
  FEB_28,
  PIX_AUTHORIZATION,
  type SubscriptionEngine,
  subscriptionEngine,
  TENANT,
} from '../support/subscription-engine';

/**
 * A live provider (Asaas) schedules a Pix Automático debit for a later day: the renewal answers
 * pending, and the payment's notification settles it later, as if the provider had answered then.
 */

const DAY = 24 * 3_600_000;
const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

let e: SubscriptionEngine;
beforeEach(() => {
  e = subscriptionEngine();
});

async function awaitingDebit() {
  e.clock.set(FEB_28);
  const s = e.seedPixAutomatic('active');
  e.provider.pixAutomaticOutcomes.push('pending');
  const result = await collect(e.deps, s, 'renewal');
  return { s, result, t: result.transaction as Transaction };
}

describe('a renewal debit the provider answers pending', () => {
  it('keeps the charge claimed, stores the pending pix and schedules only the check of the debit', async () => {
    const { s, result, t } = await awaitingDebit();
    expect(result.outcome).toBe('pending');
    expect(t).toMatchObject({ status: 'pendingPix', paidAt: null, recurring: { billingCycle: 2 } });
    expect(result.subscription).toMatchObject({
      status: 'active',
      billingCycle: 1,
      failedPaymentCount: 0,
      currentPeriodEnd: s.currentPeriodEnd,
      dueAt: plus(FEB_28, 7 * DAY),
      pendingCharge: { cycle: 2, transactionId: t.id },
    });
    expect(e.webhooks()).toEqual(['transaction.created']);
    expect(await e.deps.subscriptions.history(s.tenant, s.id, 5)).toEqual([]);
  });

  it('renews when the payment is confirmed: the next period, payment_success and subscription.renewed', async () => {
    const { s, t } = await awaitingDebit();
    e.clock.set(plus(FEB_28, 5 * DAY));
    const settled = await settleAwaitedCharge(e.deps, { ...t, status: 'payedPix' });
    expect(settled?.outcome).toBe('paid');
    expect(settled?.subscription).toMatchObject({
      billingCycle: 2,
      failedPaymentCount: 0,
      currentPeriodStart: s.currentPeriodEnd,
      pendingCharge: null,
    });
    expect(e.webhooks()).toEqual(['transaction.created', 'subscription.renewed']);
    const [entry] = await e.deps.subscriptions.history(s.tenant, s.id, 1);
    expect(entry).toMatchObject({
      eventType: 'payment_success',
      eventData: { transactionId: t.id, billingCycle: 2 },
    });
    // A repeated notification finds the charge finished and changes nothing.
    expect(await settleAwaitedCharge(e.deps, { ...t, status: 'payedPix' })).toBeNull();
  });

  it('fails into the retry schedule when the debit did not happen (overdue)', async () => {
    const { s, t } = await awaitingDebit();
    const now = plus(FEB_28, 6 * DAY);
    e.clock.set(now);
    const failed = {
      ...t,
      status: 'denied' as const,
      failureCode: 'payment_overdue',
      failureReason: 'unpaid',
    };
    const settled = await settleAwaitedCharge(e.deps, failed);
    expect(settled?.outcome).toBe('declined');
    expect(settled?.subscription).toMatchObject({
      billingCycle: 1,
      failedPaymentCount: 1,
      pendingCharge: null,
      dueAt: plus(now, 3 * DAY),
    });
    const [entry] = await e.deps.subscriptions.history(s.tenant, s.id, 1);
    expect(entry).toMatchObject({
      eventType: 'payment_failed',
      eventData: { transactionId: t.id, failureCode: 'payment_overdue', attempt: 1 },
    });
  });

  it('leaves alone a transaction that is not the awaited charge, or is still pending', async () => {
    const { t } = await awaitingDebit();
    expect(await settleAwaitedCharge(e.deps, t)).toBeNull();
    expect(await settleAwaitedCharge(e.deps, { ...t, id: t.id + 1, status: 'payedPix' })).toBeNull();
    expect(
      await settleAwaitedCharge(e.deps, {
        ...t,
        status: 'payedPix',
        recurring: { ...(t.recurring as NonNullable<Transaction['recurring']>), billingCycle: 1 },
      }),
    ).toBeNull();
  });
});

describe('a reactivation debit the provider answers pending', () => {
  it('answers the subscription as it is, then the confirmed payment reactivates it', async () => {
    e.clock.set(FEB_28);
    e.seedPixAutomatic('active');
    const s = e.stored();
    await e.deps.subscriptions.save(
      {
        ...s,
        status: 'canceled',
        cancelledAt: FEB_28,
        nextPaymentAt: null,
        dueAt: null,
        currentPeriodEnd: FEB_28,
        version: s.version + 1,
      },
      s,
      { events: [], history: [] },
    );
    e.provider.pixAutomaticOutcomes.push('pending');
    const view = await reactivateSubscription(e.deps, TENANT, s.id, { by: 'seller' });
    expect(view).toMatchObject({ status: 'canceled' });
    expect(e.provider.pixAutomaticCharges).toEqual([
      expect.objectContaining({ authorizationId: PIX_AUTHORIZATION }),
    ]);
    const claimed = e.stored();
    const t = await e.deps.transactions.get(TENANT, claimed.pendingCharge?.transactionId as number);
    expect(t?.status).toBe('pendingPix');

    const settled = await settleAwaitedCharge(e.deps, { ...(t as Transaction), status: 'payedPix' });
    expect(settled?.subscription).toMatchObject({ status: 'active', cancelledAt: null, pendingCharge: null });
    expect(e.webhooks()).toContain('subscription.activated');
  });
});

describe('an awaited debit whose notification never comes (the due job asks the provider)', () => {
  const STATUS_OF: Record<string, Transaction['status']> = {
    paid: 'payedPix',
    failed: 'denied',
    canceled: 'cancel',
  };
  /** What the container wires: the provider's answer applied as its notification would be. */
  function settling() {
    const calls: { id: number; status: string }[] = [];
    e.deps.settleDebit = async (t, status) => {
      calls.push({ id: t.id, status });
      await settleAwaitedCharge(e.deps, { ...t, status: STATUS_OF[status], failureCode: null });
    };
    return calls;
  }

  it('asks nothing before the check time, then renews on a debit the provider reports paid', async () => {
    const calls = settling();
    const { s, t } = await awaitingDebit();
    const job = dueJobId(s.tenant, s.id);
    e.clock.set(plus(FEB_28, 6 * DAY));
    expect(await runDueJob(e.deps, job)).toEqual({ outcome: 'nothing_due' });
    e.provider.reportedStatuses.set(t.gatewayPayId, 'paid');
    e.clock.set(plus(FEB_28, 7 * DAY));
    expect(await runDueJob(e.deps, job)).toEqual({ outcome: 'debit_settled', status: 'paid' });
    expect(calls).toEqual([{ id: t.id, status: 'paid' }]);
    expect(e.stored()).toMatchObject({ billingCycle: 2, pendingCharge: null, failedPaymentCount: 0 });
    expect(e.webhooks()).toEqual(['transaction.created', 'subscription.renewed']);
    // Fired twice: the charge is finished, nothing is asked or charged again.
    expect(await runDueJob(e.deps, job)).toEqual({ outcome: 'nothing_due' });
    expect(calls).toHaveLength(1);
    expect(e.provider.pixAutomaticCharges).toHaveLength(1);
  });

  it('asks again a day later while the provider still reports it pending or cannot answer', async () => {
    const calls = settling();
    const { s, t } = await awaitingDebit();
    const job = dueJobId(s.tenant, s.id);
    const first = plus(FEB_28, 7 * DAY);
    e.clock.set(first);
    expect(await runDueJob(e.deps, job)).toEqual({ outcome: 'debit_awaited' });
    expect(e.stored()).toMatchObject({ dueAt: plus(first, DAY), pendingCharge: { transactionId: t.id } });
    e.clock.set(plus(first, DAY));
    e.provider.statusFailsWith = new Error('provider unreachable');
    expect(await runDueJob(e.deps, job)).toEqual({ outcome: 'debit_awaited' });
    expect(e.stored()).toMatchObject({ dueAt: plus(first, 2 * DAY) });
    e.provider.statusFailsWith = null;
    e.provider.reportedStatuses.set(t.gatewayPayId, 'failed');
    e.clock.set(plus(first, 2 * DAY));
    expect(await runDueJob(e.deps, job)).toEqual({ outcome: 'debit_settled', status: 'failed' });
    expect(calls).toEqual([{ id: t.id, status: 'failed' }]);
    // The failed debit enters the retry schedule, as its notification would have put it.
    expect(e.stored()).toMatchObject({ billingCycle: 1, failedPaymentCount: 1, pendingCharge: null });
    expect(e.provider.pixAutomaticCharges).toHaveLength(1);
  });

  it('without a way to settle, only asks again later (never charges a second time)', async () => {
    const { s, t } = await awaitingDebit();
    e.provider.reportedStatuses.set(t.gatewayPayId, 'paid');
    e.clock.set(plus(FEB_28, 7 * DAY));
    expect(await runDueJob(e.deps, dueJobId(s.tenant, s.id))).toEqual({ outcome: 'debit_awaited' });
    expect(e.provider.pixAutomaticCharges).toHaveLength(1);
    expect(e.stored().pendingCharge).toMatchObject({ transactionId: t.id });
  });
});
