import type { Deps } from '#shared/domain/deps';
import {
  NOTHING_DUE,
  type NothingDue,
  runDue,
  SWEEP_HOURS_BACK,
  scheduleAtDue,
  sweepDue,
} from '#shared/domain/due-schedule';
import { parseJobId } from '#shared/domain/job-id';
import { reconcileCyclePayment } from '#shared/domain/scheduled-charges/pay-link-card';
import { completeCancel } from '#shared/domain/transactions/cancel';
import { lookupHintOf, recordSale } from '#shared/domain/transactions/create';
import {
  paidDetailsOf,
  receiveVerifiedNotification,
  runFollowUps,
  settleByProviderStatus,
} from '#shared/domain/transactions/follow-ups';
import { completeRefund } from '#shared/domain/transactions/manage';
import { notificationOfStatus } from '#shared/domain/transactions/notifications';
import type { Transaction } from '#shared/domain/transactions/transaction';
import {
  ATTEMPT_ID,
  ATTEMPT_RECONCILE_JOB,
  type AttemptKind,
  type AttemptOf,
  type CancelAttempt,
  type PaymentAttempt,
  RECONCILE_RETRY_MS,
  reconcileJobOf,
  type SaleAttempt,
} from './attempt';
import { settleRegistration } from './registration';

export type ReconcileDeps = Deps;

export type ReconcileOutcome =
  | { outcome: 'recorded'; transactionId: number; status: Transaction['status'] }
  | { outcome: 'voided' | 'settled' | 'refunded' }
  | { outcome: 'postponed'; dueAt: string }
  | NothingDue;

/**
 * The reconciler of one attempt still pending at its due time (docs/decisions.md, "Payment
 * attempts"): it asks the provider what it holds under the attempt's reference. A charge there is
 * recorded as the request would have recorded it (the transaction, its events, the attempt settled
 * in one write), then brought to the provider's status through the notification path (a pix paid
 * meanwhile). Nothing there voids the attempt. A provider that cannot answer postpones it. Running
 * twice changes nothing more: a settled or voided attempt is nothing due, and the settle is
 * conditional on the version read.
 */
export async function reconcileAttempt(deps: ReconcileDeps, value: string): Promise<ReconcileOutcome> {
  const ref = parseJobId(value, ATTEMPT_ID);
  if (!ref) return NOTHING_DUE;
  return runDue(
    deps,
    () => deps.attempts.get(ref.tenant, ref.id),
    async (attempt): Promise<ReconcileOutcome> => {
      const now = deps.clock.now();
      if (attempt.status !== 'pending' || !attempt.dueAt || Date.parse(attempt.dueAt) > now.getTime())
        return NOTHING_DUE;
      const reconcile = RECONCILERS[attempt.kind] as Reconciler<typeof attempt.kind>;
      try {
        return await reconcile(deps, attempt);
      } catch (error) {
        return postpone(deps, attempt, now, error);
      }
    },
  );
}

type Reconciler<K extends AttemptKind> = (
  deps: ReconcileDeps,
  attempt: AttemptOf<K>,
) => Promise<ReconcileOutcome>;

/** What each kind's reconciler does with an attempt still pending; a throw postpones it. */
const RECONCILERS: { [K in AttemptKind]: Reconciler<K> } = {
  sale: reconcileSale,
  cycle: async (deps, attempt) => ({ outcome: await reconcileCyclePayment(deps, attempt) }),
  refund: async (deps, attempt) => ({ outcome: await completeRefund(deps, attempt) }),
  cancel: reconcileCancel,
  registration: async (deps, attempt) => ({ outcome: await settleRegistration(deps, attempt) }),
};

/**
 * A sale: the charge the provider holds under the reference is recorded as the request would
 * have recorded it, with what the request does after its sale (the follow-ups: its checkout
 * session completed, the subscription its first payment starts); nothing there voids it.
 */
async function reconcileSale(deps: ReconcileDeps, attempt: SaleAttempt): Promise<ReconcileOutcome> {
  const provider = deps.payments.forEnvironment(attempt.tenant.environment);
  const held = await provider.lookupCharge(attempt.tenant, attempt.gatewayPayId, lookupHintOf(attempt.plan));
  if (!held) {
    await deps.attempts.void(attempt, deps.clock.now().toISOString());
    return { outcome: 'voided' };
  }
  const { transaction } = await recordSale(deps, attempt, held);
  // The sale is written and the attempt settled: a follow-up that fails is reported, and the
  // session's expiry (which completes it with a paid payment and starts its subscription) is the backstop.
  await runFollowUps(deps, transaction).catch((error) =>
    deps.reporter.error('could not run the follow-ups of a reconciled sale', error, { id: transaction.id }),
  );
  const moved = await catchUp(deps, transaction);
  return { outcome: 'recorded', transactionId: transaction.id, status: moved.status };
}

/**
 * A cancel: recorded once the provider holds the charge canceled (asked again while it is still
 * payable there); a charge the provider paid or failed first is recorded so, as its notification
 * would record it, and the cancel voided.
 */
async function reconcileCancel(deps: ReconcileDeps, attempt: CancelAttempt): Promise<ReconcileOutcome> {
  const { outcome, moved } = await completeCancel(deps, attempt);
  if (moved) await settleByProviderStatus(deps, moved.t, moved.status);
  return { outcome };
}

/** The provider could not answer: the attempt is looked at again later (its schedule, the sweep). */
async function postpone(
  deps: ReconcileDeps,
  attempt: PaymentAttempt,
  now: Date,
  error: unknown,
): Promise<ReconcileOutcome> {
  const dueAt = new Date(now.getTime() + RECONCILE_RETRY_MS).toISOString();
  deps.reporter.error('could not reconcile a payment attempt', error, { id: attempt.id });
  await deps.attempts.postpone(attempt, now.toISOString(), dueAt);
  await scheduleAtDue(deps, reconcileJobOf(attempt), dueAt);
  return { outcome: 'postponed', dueAt };
}

/**
 * A pending pix or boleto recorded late may have been paid, failed or canceled at the provider
 * meanwhile, and its notification found no transaction then: the status now goes through the same
 * transition and follow-ups a notification does.
 */
async function catchUp(deps: ReconcileDeps, t: Transaction): Promise<Transaction> {
  if (t.status !== 'pendingPix' && t.status !== 'pendingBoleto') return t;
  const provider = deps.payments.forEnvironment(t.tenant.environment);
  const status = await provider.status(t.gatewayPayId).catch(() => null);
  if (status !== 'paid' && status !== 'failed' && status !== 'canceled') return t;
  const paid = await paidDetailsOf(deps, t, status).catch(() => undefined);
  // The provider said paid but not for how much: asked again at the next look, never guessed.
  if (paid === undefined) return t;
  await receiveVerifiedNotification(deps, notificationOfStatus(t, status, deps.clock.now(), paid));
  return (await deps.transactions.get(t.tenant, t.id)) ?? t;
}

/** The heartbeat's backstop of the attempts' one-time schedules. */
export async function sweepAttempts(deps: ReconcileDeps) {
  const due = await deps.attempts.dueJobIds(deps.clock.now(), SWEEP_HOURS_BACK);
  return sweepDue(deps, ATTEMPT_RECONCILE_JOB, due, (id) => reconcileAttempt(deps, id));
}
