import { beforeEach, describe, expect, it } from 'vitest';
import { runDueJob, SWEEP_HOURS_BACK, sweepDueSubscriptions } from '#shared/domain/subscriptions/due';
import { dueJobId, dueScheduleName, parseDueJobId, scheduleDue } from '#shared/domain/subscriptions/schedule';
import { SUBSCRIPTION_DUE_JOB } from '#shared/domain/subscriptions/subscription';
import {
  APR_30,
  FEB_28,
  MAR_31,
  type SubscriptionEngine,
  subscriptionEngine,
  TENANT,
} from '../support/subscription-engine';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const plus = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

let e: SubscriptionEngine;
beforeEach(() => {
  e = subscriptionEngine();
});

describe('runDueJob: renewals', () => {
  it('does nothing for a subscription not yet due: no charge, no write', async () => {
    e.seed();
    e.clock.set(plus(FEB_28, -1000));
    expect(await runDueJob(e.deps, e.jobId)).toEqual({ outcome: 'nothing_due' });
    expect(e.provider.savedCardCharges).toEqual([]);
    expect(e.subscriptions.saves).toBe(0);
  });

  it('renews at the period end, and a second firing of the same job changes nothing', async () => {
    const s = e.seed();
    e.clock.set(FEB_28);
    expect(await runDueJob(e.deps, e.jobId)).toEqual({ outcome: 'paid', kind: 'renewal' });
    const renewed = e.stored();
    expect(renewed).toMatchObject({ billingCycle: 2, currentPeriodEnd: MAR_31, dueAt: MAR_31 });
    expect(e.scheduler.scheduled.map((c) => c.name)).toEqual([dueScheduleName(s, MAR_31)]);

    e.clock.advanceSeconds(5);
    expect(await runDueJob(e.deps, e.jobId)).toEqual({ outcome: 'nothing_due' });
    expect(e.stored()).toEqual(renewed);
    expect(e.provider.savedCardCharges).toHaveLength(1);
    expect(e.transactions.all()).toHaveLength(1);
    expect(e.webhooks().filter((n) => n === 'subscription.renewed')).toHaveLength(1);
  });

  it('follows a 31st anchor month after month: 28 Feb, 31 Mar, 30 Apr', async () => {
    e.seed();
    for (const due of [FEB_28, MAR_31, APR_30]) {
      e.clock.set(due);
      await runDueJob(e.deps, e.jobId);
    }
    expect(e.transactions.all().map((t) => [t.recurring?.billingCycle, t.createdAt])).toEqual([
      [2, FEB_28],
      [3, MAR_31],
      [4, APR_30],
    ]);
    expect(e.stored()).toMatchObject({
      billingCycle: 4,
      currentPeriodStart: APR_30,
      currentPeriodEnd: '2026-05-31T13:00:00.000Z',
    });
  });

  it('lets only one of two concurrent runs charge: the other loses the claim and stops', async () => {
    e.seed();
    e.clock.set(FEB_28);
    const outcomes = await Promise.all([runDueJob(e.deps, e.jobId), runDueJob(e.deps, e.jobId)]);
    expect(outcomes).toContainEqual({ outcome: 'paid', kind: 'renewal' });
    expect(outcomes).toContainEqual({ outcome: 'nothing_due' });
    expect(e.provider.savedCardCharges).toHaveLength(1);
    expect(e.transactions.all()).toHaveLength(1);
    expect(e.stored()).toMatchObject({ billingCycle: 2, pendingCharge: null });
  });

  it('retries a declined renewal when the retry is due, and ends failed after the 4th attempt', async () => {
    e.seed();
    for (let i = 0; i < 4; i++)
      e.provider.savedCardOutcomes.push({ outcome: 'declined', failureCode: 'card_declined' });
    e.clock.set(FEB_28);
    const kinds: string[] = [];
    for (const wait of [0, 3 * DAY, 5 * DAY, 7 * DAY]) {
      e.clock.set(plus(e.clock.now().toISOString(), wait));
      const result = await runDueJob(e.deps, e.jobId);
      kinds.push('kind' in result ? result.kind : result.outcome);
    }
    expect(kinds).toEqual(['renewal', 'retry', 'retry', 'retry']);
    expect(e.stored()).toMatchObject({ status: 'failed', failedPaymentCount: 4, dueAt: null });
    e.clock.set(plus(e.clock.now().toISOString(), 30 * DAY));
    expect(await runDueJob(e.deps, e.jobId)).toEqual({ outcome: 'nothing_due' });
  });

  it('finishes a charge claimed by a crashed run with the same key, even if collection was paused since', async () => {
    e.seed();
    e.clock.set(FEB_28);
    e.provider.savedCardOutcomes.push({ throw: new Error('timeout') });
    await expect(runDueJob(e.deps, e.jobId)).rejects.toThrow('timeout');
    const claimed = e.stored();
    e.subscriptions.seed({ ...claimed, pausedAt: FEB_28, version: claimed.version + 1 });
    e.clock.advanceSeconds(60);
    expect(await runDueJob(e.deps, e.jobId)).toEqual({ outcome: 'paid', kind: 'renewal' });
    const [first, again] = e.provider.savedCardCharges;
    expect(again.idempotencyKey).toBe(first.idempotencyKey);
    expect(e.transactions.all()).toHaveLength(1);
  });
});

describe('runDueJob: trial end', () => {
  const trial = {
    billingCycle: 0,
    billingAnchor: FEB_28,
    trialEndsAt: FEB_28,
    currentPeriodStart: '2026-02-14T13:00:00.000Z',
    lastPaymentAt: null,
  };

  it('ends a trial with a charge: customer.trial_converted on success', async () => {
    e.seed(trial);
    e.clock.set(FEB_28);
    expect(await runDueJob(e.deps, e.jobId)).toEqual({ outcome: 'paid', kind: 'trial_end' });
    expect(e.webhooks()[0]).toBe('customer.trial_converted');
  });

  it('ends a trial with customer.trial_lapsed on failure, and its later retry is a plain retry', async () => {
    e.seed(trial);
    e.provider.savedCardOutcomes.push({ outcome: 'declined', failureCode: 'card_declined' });
    e.clock.set(FEB_28);
    expect(await runDueJob(e.deps, e.jobId)).toEqual({ outcome: 'declined', kind: 'trial_end' });
    e.clock.set(plus(FEB_28, 3 * DAY));
    expect(await runDueJob(e.deps, e.jobId)).toEqual({ outcome: 'paid', kind: 'retry' });
    const names = e.webhooks();
    expect(names.filter((n) => n.startsWith('customer.'))).toEqual(['customer.trial_lapsed']);
    expect(names).not.toContain('subscription.renewed');
    expect(e.history().filter((h) => h.eventType === 'trial_ended')).toHaveLength(1);
  });
});

describe('runDueJob: period-end cancellation', () => {
  const pendingCancellation = {
    status: 'pending_cancellation' as const,
    cancelAtPeriodEnd: true,
    cancelAt: FEB_28,
    cancelReason: 'too expensive',
  };

  it('cancels at the period end without charging: canceled, history subscription.expired, no second webhook', async () => {
    e.seed(pendingCancellation);
    e.clock.set(plus(FEB_28, 2000));
    expect(await runDueJob(e.deps, e.jobId)).toEqual({ outcome: 'expired' });
    expect(e.stored()).toMatchObject({
      status: 'canceled',
      cancelledAt: FEB_28,
      cancelAt: FEB_28,
      dueAt: null,
      nextPaymentAt: null,
    });
    expect(e.history().map((h) => [h.eventType, h.eventData])).toEqual([
      ['subscription.expired', { cancelAt: FEB_28, reason: 'too expensive' }],
    ]);
    expect(e.webhooks()).toEqual([]);
    expect(e.provider.savedCardCharges).toEqual([]);

    expect(await runDueJob(e.deps, e.jobId)).toEqual({ outcome: 'nothing_due' });
    expect(e.history()).toHaveLength(1);
  });

  it('waits for the period end', async () => {
    e.seed(pendingCancellation);
    e.clock.set(plus(FEB_28, -DAY));
    expect(await runDueJob(e.deps, e.jobId)).toEqual({ outcome: 'nothing_due' });
    expect(e.stored().status).toBe('pending_cancellation');
  });
});

describe('runDueJob: paused collection', () => {
  it('moves the period on without charging: no transaction, no webhook, the next period end due', async () => {
    e.seed({ pausedAt: '2026-02-10T12:00:00.000Z' });
    e.clock.set(FEB_28);
    expect(await runDueJob(e.deps, e.jobId)).toEqual({ outcome: 'skipped_paused' });
    expect(e.stored()).toMatchObject({
      billingCycle: 1,
      currentPeriodStart: FEB_28,
      currentPeriodEnd: MAR_31,
      dueAt: MAR_31,
      nextPaymentAt: MAR_31,
      lastPaymentAt: '2026-01-31T13:00:00.000Z',
      pausedAt: '2026-02-10T12:00:00.000Z',
    });
    expect(e.provider.savedCardCharges).toEqual([]);
    expect(e.transactions.all()).toEqual([]);
    expect(e.webhooks()).toEqual([]);
    expect(e.scheduler.scheduled.map((c) => c.at.toISOString())).toEqual([MAR_31]);
  });

  it('skips every period that passed while the schedule was missed, in one run, on the anchor', async () => {
    e.seed({ pausedAt: '2026-02-10T12:00:00.000Z' });
    e.clock.set('2026-05-02T00:00:00.000Z');
    await runDueJob(e.deps, e.jobId);
    expect(e.stored()).toMatchObject({
      currentPeriodStart: APR_30,
      currentPeriodEnd: '2026-05-31T13:00:00.000Z',
    });
  });

  it('voids a cycle whose retries were under way: the count goes back to 0', async () => {
    const retryAt = plus(FEB_28, 3 * DAY);
    e.seed({ pausedAt: plus(FEB_28, DAY), failedPaymentCount: 1, dueAt: retryAt, nextPaymentAt: retryAt });
    e.clock.set(retryAt);
    expect(await runDueJob(e.deps, e.jobId)).toEqual({ outcome: 'skipped_paused' });
    expect(e.stored()).toMatchObject({
      failedPaymentCount: 0,
      currentPeriodStart: FEB_28,
      currentPeriodEnd: MAR_31,
    });
    expect(e.provider.savedCardCharges).toEqual([]);
  });

  it('ends a trial unconverted while paused, without a webhook; after resuming the next end is a renewal', async () => {
    e.seed({
      billingCycle: 0,
      billingAnchor: FEB_28,
      trialEndsAt: FEB_28,
      currentPeriodStart: '2026-02-14T13:00:00.000Z',
      pausedAt: '2026-02-20T12:00:00.000Z',
    });
    e.clock.set(FEB_28);
    await runDueJob(e.deps, e.jobId);
    expect(e.history().map((h) => [h.eventType, h.eventData])).toEqual([
      ['trial_ended', { trialEndsAt: FEB_28, converted: false, paused: true }],
    ]);
    expect(e.webhooks()).toEqual([]);

    const resumed = e.stored();
    e.subscriptions.seed({ ...resumed, pausedAt: null, version: resumed.version + 1 });
    e.clock.set('2026-03-28T13:00:00.000Z');
    expect(await runDueJob(e.deps, e.jobId)).toEqual({ outcome: 'paid', kind: 'renewal' });
    expect(e.stored()).toMatchObject({ billingCycle: 1, currentPeriodEnd: '2026-04-28T13:00:00.000Z' });
  });
});

describe('runDueJob: ids and gone subscriptions', () => {
  it('does nothing for a subscription that is gone, canceled or of another tenant', async () => {
    expect(await runDueJob(e.deps, e.jobId)).toEqual({ outcome: 'nothing_due' });
    e.seed({ status: 'canceled', dueAt: FEB_28 });
    e.clock.set(MAR_31);
    expect(await runDueJob(e.deps, e.jobId)).toEqual({ outcome: 'nothing_due' });
    expect(await runDueJob(e.deps, '8:test:1')).toEqual({ outcome: 'nothing_due' });
    expect(e.provider.savedCardCharges).toEqual([]);
  });

  it('refuses a job id that is not <sellerId>:<environment>:<id>', async () => {
    await expect(runDueJob(e.deps, 'nonsense')).rejects.toThrow(/not a subscription job id/);
  });

  it('round-trips its job id and names one schedule per due time', () => {
    expect(dueJobId(TENANT, 42)).toBe('7:test:42');
    expect(parseDueJobId('7:test:42')).toEqual({ tenant: TENANT, id: 42 });
    expect(dueScheduleName({ tenant: TENANT, id: 42 }, '2026-02-28T13:00:00.500Z')).toBe(
      'sub-due-test-42-1772283600',
    );
  });
});

describe('scheduling', () => {
  it('schedules on the whole second after dueAt, never before it, and never in the past', async () => {
    const s = e.seed();
    e.clock.set(FEB_28);
    await scheduleDue(e.deps, { ...s, dueAt: '2026-03-01T00:00:00.250Z' });
    expect(e.scheduler.scheduled.at(-1)?.at.toISOString()).toBe('2026-03-01T00:00:01.000Z');
    await scheduleDue(e.deps, { ...s, dueAt: '2026-02-01T00:00:00.000Z' });
    expect(e.scheduler.scheduled.at(-1)?.at.toISOString()).toBe(plus(FEB_28, 60_000));
    expect(e.scheduler.scheduled.at(-1)?.payload).toEqual({ job: SUBSCRIPTION_DUE_JOB, id: '7:test:1' });
  });

  it('keeps the charge when scheduling fails: the error is reported and the sweep is the backstop', async () => {
    e.seed();
    e.scheduler.failWith = new Error('throttled');
    e.clock.set(FEB_28);
    expect(await runDueJob(e.deps, e.jobId)).toMatchObject({ outcome: 'paid' });
    expect(e.reporter.errors).toEqual([e.scheduler.failWith]);
    e.clock.set(MAR_31);
    expect(await sweepDueSubscriptions(e.deps)).toEqual({ due: 1, ran: 1 });
    expect(e.stored().billingCycle).toBe(3);
  });
});

describe('sweepDueSubscriptions', () => {
  it('runs every subscription due by now, reports one that fails, and goes on with the rest', async () => {
    const other = { ...e.seed(), id: 2, uuid: 'a0b1c2d3-e4f5-4a6b-8c7d-9e0f1a2b3c4d' };
    e.subscriptions.seed(other);
    e.subscriptions.seed({ ...other, id: 3, dueAt: MAR_31 });
    e.clock.set(plus(FEB_28, HOUR));
    e.provider.savedCardOutcomes.push({ throw: new Error('provider down') });
    expect(await sweepDueSubscriptions(e.deps)).toEqual({ due: 2, ran: 1 });
    expect(e.reporter.reports).toEqual([
      {
        what: 'could not run a due job',
        error: new Error('provider down'),
        context: { job: 'subscription-due', id: '7:test:1' },
      },
    ]);
    expect(e.subscriptions.stored(TENANT, 2)).toMatchObject({ billingCycle: 2 });
    expect(e.subscriptions.stored(TENANT, 3)).toMatchObject({ billingCycle: 1 });
    expect(SWEEP_HOURS_BACK).toBe(6);
  });
});
