import {
  attemptIdOf,
  type CancelAttempt,
  pendingAttempt,
  reconcileJobOf,
} from '#shared/domain/attempts/attempt';
import { scheduleAtDue } from '#shared/domain/due-schedule';
import { sameTenant, type Tenant } from '#shared/domain/tenant';
import { BadRequestError, NotFoundError } from '#shared/errors';
import { type ManageDeps, providerOf, refused } from './manage';
import { canApply, refusal } from './state-machine';
import { TRANSACTION_NOT_FOUND, type Transaction } from './transaction';
import { transition } from './transitions';

/**
 * Cancels an unpaid transaction found by the provider's id (panel route) or by uuid (charges
 * API). Another tenant's transaction answers exactly like a missing one.
 */
export async function cancelTransaction(deps: ManageDeps, tenant: Tenant, t: Transaction | null) {
  if (!t || !sameTenant(t.tenant, tenant)) throw new NotFoundError(TRANSACTION_NOT_FOUND);
  const provider = deps.payments.forEnvironment(tenant.environment);
  if (t.provider !== provider.provider) {
    throw new BadRequestError(
      `This transaction was processed by another payment provider (${t.provider}); cancel it at that provider`,
      'other_provider',
    );
  }
  // Refused before the provider is asked (paid ones: "refund it instead").
  if (!canApply('cancel', t.status)) throw refusal('cancel', t);
  return cancelCharge(deps, t);
}

/**
 * A pending charge canceled at its provider, then recorded canceled. Written ahead
 * (docs/decisions.md, "Payment attempts"): the pending `cancel` attempt is written before the
 * provider is asked, and settled in the write that records the cancel. A crash or an unanswered
 * call between the two leaves the attempt to its reconciler (completeCancel), which asks the
 * provider what it holds and asks the cancel again only while the charge is still payable there.
 * A refusal (a 4xx: the charge was paid meanwhile) voids the attempt and changes nothing.
 */
export async function cancelCharge(deps: ManageDeps, t: Transaction) {
  const attempt = pendingAttempt<CancelAttempt>(
    {
      id: attemptIdOf(undefined),
      tenant: t.tenant,
      kind: 'cancel',
      provider: t.provider,
      gatewayPayId: t.gatewayPayId,
      plan: { transactionId: t.id },
    },
    deps.clock.now(),
  );
  await deps.attempts.create(attempt);
  try {
    await Promise.all([
      providerOf(deps, t).cancel(t.gatewayPayId),
      scheduleAtDue(deps, reconcileJobOf(attempt), attempt.dueAt),
    ]);
  } catch (error) {
    if (refused(error))
      await deps.attempts.void(attempt, deps.clock.now().toISOString()).catch((undo: unknown) => {
        deps.reporter.error('could not void a cancel attempt', undo, { id: attempt.id });
      });
    throw error;
  }
  return recordCancel(deps, t, attempt);
}

/** The cancel recorded on the transaction (its transition and events) with its attempt settled. */
function recordCancel(deps: ManageDeps, t: Transaction, attempt: CancelAttempt) {
  return deps.atomically(async () => {
    const written = await transition(deps, t, 'cancel');
    await deps.attempts.settle(attempt, deps.clock.now().toISOString());
    return written;
  });
}

/**
 * What the reconciler of a cancel still pending finds: `cancel` when the charge is (now) canceled
 * at the provider and recorded so; `paid` or `failed` when the provider moved it first (the caller
 * records that as its notification, and the attempt is voided); `void` when the transaction is no
 * longer cancelable here. A cancel is asked again only while the provider holds the charge
 * payable, so it is never asked of a charge it already canceled (Asaas answers 404 for a deleted
 * payment).
 */
export async function completeCancel(
  deps: ManageDeps,
  attempt: CancelAttempt,
): Promise<{ outcome: 'settled' | 'voided'; moved?: { t: Transaction; status: 'paid' | 'failed' } }> {
  const at = () => deps.clock.now().toISOString();
  const t = await deps.transactions.get(attempt.tenant, attempt.plan.transactionId);
  if (t?.status === 'cancel') {
    await deps.attempts.settle(attempt, at());
    return { outcome: 'settled' };
  }
  if (!t || !canApply('cancel', t.status)) {
    await deps.attempts.void(attempt, at());
    return { outcome: 'voided' };
  }
  const provider = providerOf(deps, t);
  const held = await provider.status(t.gatewayPayId);
  if (held === 'paid' || held === 'failed') {
    await deps.attempts.void(attempt, at());
    return { outcome: 'voided', moved: { t, status: held } };
  }
  if (held === 'refunded' || held === 'charged_back') {
    deps.reporter.error('a charge to cancel was refunded at the provider', null, { id: attempt.id });
    await deps.attempts.void(attempt, at());
    return { outcome: 'voided' };
  }
  if (held === 'pending') {
    try {
      await provider.cancel(t.gatewayPayId);
    } catch (error) {
      if (!refused(error)) throw error;
      deps.reporter.error('the provider refused a recorded cancel', error, { id: attempt.id });
      await deps.attempts.void(attempt, at());
      return { outcome: 'voided' };
    }
  }
  // Canceled there (or gone: a deleted payment is no longer held), so it is canceled here.
  await recordCancel(deps, t, attempt);
  return { outcome: 'settled' };
}
