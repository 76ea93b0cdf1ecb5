import type { Deps } from '#shared/domain/deps';
import { scheduleAtDue } from '#shared/domain/due-schedule';
import type { PaymentProvider } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { AppError } from '#shared/errors';
import {
  attemptIdOf,
  pendingAttempt,
  REGISTRATION_RECONCILE_AFTER_MS,
  type RegistrationAttempt,
  type RegistrationPlan,
  reconcileJobOf,
} from './attempt';

export type RegistrationDeps = Pick<
  Deps,
  'attempts' | 'transactions' | 'payments' | 'scheduler' | 'clock' | 'reporter'
>;

/**
 * Writes a pix or boleto registration ahead of the provider call (docs/decisions.md, "Payment
 * attempts"): the reference the provider will keep (its externalReference) is reserved and a pending
 * `registration` attempt written with it, then its reconciler is scheduled. Answers the reference
 * the caller registers the charge under. The caller writes the transaction with its own aggregate;
 * the reconciler settles the attempt when it finds that transaction, and otherwise cancels what the
 * provider holds under the reference (an orphan nobody can pay through us).
 */
export async function registerAhead(
  deps: Pick<RegistrationDeps, 'attempts' | 'scheduler' | 'clock' | 'reporter'> &
    Partial<Pick<Deps, 'clockScope'>>,
  provider: PaymentProvider,
  tenant: Tenant,
  plan: RegistrationPlan & { amountCentavos: number },
): Promise<number> {
  const { amountCentavos, ...kept } = plan;
  const gatewayPayId = await provider.reserveReference(tenant, plan.method, amountCentavos);
  // The reconciler waits out its caller's save in real time, whatever clock the carnê or charge
  // lives on: in a test clock's time it could look (and cancel the registration as an orphan)
  // before the save, or only weeks later.
  const ahead = async () => {
    const attempt = pendingAttempt<RegistrationAttempt>(
      {
        id: attemptIdOf(undefined),
        tenant,
        kind: 'registration',
        provider: provider.provider,
        gatewayPayId,
        plan: kept,
      },
      deps.clock.now(),
      REGISTRATION_RECONCILE_AFTER_MS,
    );
    await deps.attempts.create(attempt);
    await scheduleAtDue(deps, reconcileJobOf(attempt), attempt.dueAt);
  };
  await (deps.clockScope ? deps.clockScope.outside(ahead) : ahead());
  return gatewayPayId;
}

/**
 * The reconciler of a registration still pending: its transaction written (the caller saved it)
 * settles it. None written means the caller died or lost its save: what the provider holds under
 * the reference is canceled there while still payable, and the attempt voided, so no pix or boleto
 * is left at the provider that no transaction of ours names. One paid meanwhile is reported (the
 * daily reconciliation shows it as a payment we do not know) and voided.
 */
export async function settleRegistration(
  deps: RegistrationDeps,
  attempt: RegistrationAttempt,
): Promise<'settled' | 'voided'> {
  const at = () => deps.clock.now().toISOString();
  const { plan, tenant, gatewayPayId } = attempt;
  if (await deps.transactions.get(tenant, plan.transactionId)) {
    await deps.attempts.settle(attempt, at());
    return 'settled';
  }
  const provider = deps.payments.byName(attempt.provider) ?? deps.payments.forEnvironment(tenant.environment);
  // The lookup also links the reference to the provider's payment, for the status and the cancel.
  const held = await provider.lookupCharge(tenant, gatewayPayId, { method: plan.method });
  const status = held ? await provider.status(gatewayPayId) : null;
  if (status === 'pending') {
    try {
      await provider.cancel(gatewayPayId);
    } catch (error) {
      if (!(error instanceof AppError && error.statusCode < 500)) throw error;
      deps.reporter.error('the provider refused to cancel an orphan registration', error, { id: attempt.id });
    }
  } else if (status && status !== 'canceled') {
    deps.reporter.error('an orphan registration was paid at the provider', null, {
      id: attempt.id,
      gatewayPayId,
      of: plan.of,
      status,
    });
  }
  await deps.attempts.void(attempt, at());
  return 'voided';
}
