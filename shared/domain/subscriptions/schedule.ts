import { type DueJob, followDueAt, type ScheduleDeps, scheduleAtDue } from '#shared/domain/due-schedule';
import type { DomainEvent } from '#shared/domain/events/events';
import { jobId, parseNumericJobId } from '#shared/domain/job-id';
import type { PaymentMethod } from '#shared/domain/payment-methods/payment-method';
import type { SubscriptionChanges } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import type { Transaction } from '#shared/domain/transactions/transaction';
import type { SubscriptionDeps } from './deps';
import { SUBSCRIPTION_DUE_JOB, type Subscription } from './subscription';

/** The due job's id: `<sellerId>:<environment>:<subscriptionId>` (the same shape as the other jobs). */
export const dueJobId = (tenant: Tenant, id: number): string => jobId(tenant, id);

export const parseDueJobId = parseNumericJobId;

/** One schedule name per subscription and due time: a due time is never scheduled twice under two names. */
export function dueScheduleName(subscription: Pick<Subscription, 'tenant' | 'id'>, dueAt: string): string {
  const epochSeconds = Math.floor(Date.parse(dueAt) / 1000);
  return `sub-due-${subscription.tenant.environment}-${subscription.id}-${epochSeconds}`;
}

/** The subscription's due job (the shared due-schedule keeps it in step with `dueAt`). */
const dueJobOf = (subscription: Pick<Subscription, 'tenant' | 'id' | 'testClockId'>): DueJob => ({
  payload: { job: SUBSCRIPTION_DUE_JOB, id: dueJobId(subscription.tenant, subscription.id) },
  nameAt: (dueAt) => dueScheduleName(subscription, dueAt),
  testClockId: subscription.testClockId,
});

/** Schedules the due job at the subscription's `dueAt` (a minute from now at the earliest). */
export async function scheduleDue(deps: ScheduleDeps, subscription: Subscription): Promise<void> {
  await scheduleAtDue(deps, dueJobOf(subscription), subscription.dueAt);
}

/** A charge's transaction (a renewal, a retry, a reactivation), written with its subscription. */
export interface ChargeRecord {
  record: Transaction;
  events: DomainEvent[];
}

/** What is written with a subscription's change: a charge's transaction, or a card saved with it. */
export interface WrittenWith {
  charge?: ChargeRecord;
  /** A card the customer saves with the change (the portal's add-card-and-update). */
  newCard?: PaymentMethod;
}

/**
 * Writes `next` on `previous`'s version with its changes, the charge's transaction and a new card,
 * all or nothing, then keeps the schedule in step with `dueAt`. A card the customer already has
 * saved writes nothing and throws ConflictError `payment_method_exists`.
 */
export async function saveAndSchedule(
  deps: Pick<SubscriptionDeps, 'subscriptions' | 'transactions' | 'paymentMethods' | 'atomically'> &
    ScheduleDeps,
  next: Subscription,
  previous: Subscription,
  changes: SubscriptionChanges,
  written: WrittenWith = {},
): Promise<Subscription> {
  await deps.atomically(async () => {
    if (written.newCard) await deps.paymentMethods.create(written.newCard);
    await deps.subscriptions.save(next, previous, changes);
    if (written.charge) await deps.transactions.create(written.charge.record, written.charge.events);
  });
  await followDueAt(deps, dueJobOf(next), previous.dueAt, next.dueAt);
  return next;
}
