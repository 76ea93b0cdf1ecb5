import { expiryJobId, parseExpiryJobId } from '#shared/domain/payment-methods/schedule';
import type { ScheduledJob, SubscriptionChanges } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import type { SubscriptionDeps } from './deps';
import { SUBSCRIPTION_DUE_JOB, type Subscription } from './subscription';

/** A schedule never targets the past: work already due runs a minute from now (the sweep is the backstop). */
const MIN_LEAD_MS = 60_000;

/** The due job's id: `<sellerId>:<environment>:<subscriptionId>` (the same shape as the other jobs). */
export const dueJobId = (tenant: Tenant, id: number): string => expiryJobId(tenant, id);

export const parseDueJobId = (jobId: string): { tenant: Tenant; id: number } | null =>
  parseExpiryJobId(jobId);

/** One schedule name per subscription and due time: a due time is never scheduled twice under two names. */
export function dueScheduleName(subscription: Pick<Subscription, 'tenant' | 'id'>, dueAt: string): string {
  const epochSeconds = Math.floor(Date.parse(dueAt) / 1000);
  return `sub-due-${subscription.tenant.environment}-${subscription.id}-${epochSeconds}`;
}

type ScheduleDeps = Pick<SubscriptionDeps, 'scheduler' | 'clock' | 'onScheduleError'>;

/**
 * Schedules the due job at the subscription's `dueAt`. Scheduler `at()` expressions have whole
 * seconds: the time is rounded up, so the job never fires before `dueAt` and finds nothing due.
 * A failure is reported, not thrown: the change is saved and the heartbeat sweep runs it later.
 */
export async function scheduleDue(deps: ScheduleDeps, subscription: Subscription): Promise<void> {
  if (!subscription.dueAt) return;
  const due = Math.ceil(Date.parse(subscription.dueAt) / 1000) * 1000;
  const at = new Date(Math.max(due, deps.clock.now().getTime() + MIN_LEAD_MS));
  const payload: ScheduledJob = {
    job: SUBSCRIPTION_DUE_JOB,
    id: dueJobId(subscription.tenant, subscription.id),
  };
  await deps.scheduler
    .scheduleAt(dueScheduleName(subscription, subscription.dueAt), at, payload)
    .catch((error) => deps.onScheduleError?.(error));
}

/**
 * Writes `next` on `previous`'s version with its changes (one transaction), then keeps the
 * schedule in step with `dueAt`: a new due time is scheduled; the schedule of a due time that is
 * gone and still ahead is deleted (it would only find nothing due, but it would still run).
 */
export async function saveAndSchedule(
  deps: Pick<SubscriptionDeps, 'subscriptions'> & ScheduleDeps,
  next: Subscription,
  previous: Subscription,
  changes: SubscriptionChanges,
): Promise<Subscription> {
  await deps.subscriptions.save(next, previous, changes);
  if (next.dueAt === previous.dueAt) return next;
  if (previous.dueAt && Date.parse(previous.dueAt) > deps.clock.now().getTime()) {
    await deps.scheduler
      .cancel(dueScheduleName(previous, previous.dueAt))
      .catch((error) => deps.onScheduleError?.(error));
  }
  await scheduleDue(deps, next);
  return next;
}
