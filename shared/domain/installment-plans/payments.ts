import { todayOf } from '#shared/domain/payments/late-charge-settings';
import type { Tenant } from '#shared/domain/tenant';
import { canApply } from '#shared/domain/transactions/state-machine';
import { PAID, type Transaction } from '#shared/domain/transactions/transaction';
import { transition } from '#shared/domain/transactions/transitions';
import { ConflictError, isConflict, ServiceUnavailableError } from '#shared/errors';
import { centavosToReais } from '#shared/money';
import type { InstallmentPlanDeps } from './deps';
import type { InstallmentPlan } from './plan';
import { findPlan } from './queries';
import { draftOf, findInstallment, finish, isOpen, putInstallment, savePlan } from './state';
import { toInstallmentView } from './view';

/**
 * Installments paid (docs/decisions.md, "Installment plans (issue 14)"): by the provider's notification of
 * the boleto's transaction with what cleared, or by mark-paid at face value once the provider
 * confirms. Both end in `applyInstallmentPaid`: one save of the plan.
 */

export type PayDeps = Pick<
  InstallmentPlanDeps,
  'installmentPlans' | 'transactions' | 'payments' | 'scheduler' | 'clock' | 'ids' | 'reporter'
>;

export const NOT_REPORTED_PAID = "The provider does not report this installment's boleto as paid";
export const PROVIDER_UNAVAILABLE = 'The payment provider is unavailable; nothing was changed';
/** A concurrent change (the due job, the other payment path) moved the plan: read it again, a few times. */
const MAX_TRIES = 3;

export interface InstallmentPayment {
  transactionId: number;
  /** Centavos that cleared. */
  amount: number;
  by: 'notification' | 'mark_paid';
  at: string;
}

/**
 * Installment `number` paid: `totalCollected` adds what cleared, `installmentsPaid` + 1, the
 * customer's overdue count − 1 when it was overdue; installment 1 makes the plan `active`, the last
 * one `completed`. Webhooks installment_plan.installment_paid (+ .activated, .completed).
 */
export function applyInstallmentPaid(
  deps: Pick<PayDeps, 'clock' | 'ids'>,
  plan: InstallmentPlan,
  number: number,
  payment: InstallmentPayment,
) {
  const installment = findInstallment(plan, number);
  const draft = draftOf(plan);
  putInstallment(draft, {
    ...installment,
    status: 'paid',
    paidAt: payment.at,
    paidAmount: payment.amount,
    paidBy: payment.by,
    paidTransactionId: payment.transactionId,
  });
  if (installment.status === 'overdue') draft.customerOverdueDelta -= 1;
  draft.webhooks.push({
    name: 'installment_plan.installment_paid',
    extra: { number, paidAmount: centavosToReais(payment.amount), transactionId: payment.transactionId },
  });
  if (plan.status === 'pending_activation' && number === 1) {
    draft.plan = { ...draft.plan, status: 'active', activatedAt: payment.at };
    draft.webhooks.push({ name: 'installment_plan.activated' });
  }
  if (draft.plan.installmentsDetail.every((i) => i.status === 'paid')) {
    draft.plan = { ...draft.plan, status: 'completed', completedAt: payment.at };
    draft.webhooks.push({ name: 'installment_plan.completed' });
  }
  return finish(deps, plan, draft);
}

/** Whether the plan still takes this transaction as its installment's payment. */
function applicable(plan: InstallmentPlan, number: number, transactionId: number) {
  const i = plan.installmentsDetail.find((x) => x.number === number);
  if (!i || (plan.status !== 'pending_activation' && plan.status !== 'active')) return false;
  return (isOpen(i) || i.status === 'failed') && i.boleto?.transactionId === transactionId;
}

export type InstallmentPaidOutcome =
  | 'not_an_installment'
  | 'paid'
  | 'already_paid'
  | 'not_applied'
  /** The provider reported the current boleto failed: the installment is `failed` (a second copy reopens it). */
  | 'failed';

/** An installment whose current boleto the provider reports failed: `failed`, out of the overdue count. */
async function failInstallmentOfTransaction(deps: PayDeps, t: Transaction): Promise<InstallmentPaidOutcome> {
  const link = t.installmentPlan as NonNullable<Transaction['installmentPlan']>;
  for (let attempt = 1; ; attempt += 1) {
    const plan = await deps.installmentPlans.get(t.tenant, link.planUuid);
    const installment = plan?.installmentsDetail.find((i) => i.number === link.number);
    if (!plan || !installment) return 'not_an_installment';
    if (!applicable(plan, link.number, t.id) || installment.status === 'failed') return 'not_applied';
    const draft = draftOf(plan);
    putInstallment(draft, { ...installment, status: 'failed' });
    if (installment.status === 'overdue') draft.customerOverdueDelta -= 1;
    const { next, changes } = finish(deps, plan, draft);
    try {
      await savePlan(deps, next, plan, changes);
      return 'failed';
    } catch (error) {
      if (!isConflict(error, 'changed') || attempt >= MAX_TRIES) throw error;
    }
  }
}

/**
 * What follows a paid transaction of an installment's boleto (a provider notification, the
 * sandbox's pay helper): the installment paid with what cleared (`paidAmount`, else the face
 * value). A repeat changes nothing; a boleto of a canceled plan or one replaced by a second copy
 * stays a paid transaction and is not applied.
 */
export async function payInstallmentOfTransaction(
  deps: PayDeps,
  t: Transaction,
): Promise<InstallmentPaidOutcome> {
  const link = t.installmentPlan;
  if (link && t.status === 'denied') return failInstallmentOfTransaction(deps, t);
  if (!link || !PAID.includes(t.status)) return 'not_an_installment';
  for (let attempt = 1; ; attempt += 1) {
    const plan = await deps.installmentPlans.get(t.tenant, link.planUuid);
    const installment = plan?.installmentsDetail.find((i) => i.number === link.number);
    if (!plan || !installment) return 'not_an_installment';
    if (installment.paidTransactionId === t.id) return 'already_paid';
    if (!applicable(plan, link.number, t.id)) return 'not_applied';
    try {
      const at = t.paidAt ?? deps.clock.now().toISOString();
      const amount = t.paidAmount ?? t.value;
      const { next, changes } = applyInstallmentPaid(deps, plan, link.number, {
        transactionId: t.id,
        amount,
        by: 'notification',
        at,
      });
      await savePlan(deps, next, plan, changes);
      return 'paid';
    } catch (error) {
      if (!isConflict(error, 'changed') || attempt >= MAX_TRIES) throw error;
    }
  }
}

/**
 * POST …/installments/{number}/mark-paid: the provider is asked whether the boleto cleared. Paid:
 * the transaction settles through the same `pay` transition as a notification and the installment
 * is paid at its face value. Not paid: 409. The provider unreachable: 503 and nothing changes.
 */
export async function markInstallmentPaid(deps: PayDeps, tenant: Tenant, uuid: string, number: number) {
  const plan = await findPlan(deps, tenant, uuid);
  const installment = findInstallment(plan, number);
  if (installment.status === 'paid') return toInstallmentView(installment, todayOf(deps.clock));
  const boleto = installment.boleto;
  if (!boleto || !applicable(plan, number, boleto.transactionId))
    throw new ConflictError(
      `Installment ${number} cannot be marked paid in status ${installment.status}${boleto ? '' : ' (no boleto issued)'}`,
      'invalid_transition',
    );
  let status: string | null;
  try {
    status = await deps.payments.forEnvironment(tenant.environment).status(boleto.gatewayPayId);
  } catch (cause) {
    throw new ServiceUnavailableError(PROVIDER_UNAVAILABLE, 'provider_unavailable', { cause });
  }
  if (status !== 'paid') throw new ConflictError(NOT_REPORTED_PAID, 'provider_not_paid');
  const t = await deps.transactions.get(tenant, boleto.transactionId);
  const at = deps.clock.now().toISOString();
  if (t && canApply('pay', t.status)) {
    await transition(deps, t, 'pay').catch((error) => {
      // A notification settled it meanwhile: the plan below is still paid once.
      if (!isConflict(error)) throw error;
    });
  }
  for (let attempt = 1; ; attempt += 1) {
    const current = attempt === 1 ? plan : await findPlan(deps, tenant, uuid);
    const now = findInstallment(current, number);
    if (now.status === 'paid') return toInstallmentView(now, todayOf(deps.clock));
    try {
      const { next, changes } = applyInstallmentPaid(deps, current, number, {
        transactionId: boleto.transactionId,
        amount: installment.amount,
        by: 'mark_paid',
        at,
      });
      const saved = await savePlan(deps, next, current, changes);
      return toInstallmentView(findInstallment(saved, number), todayOf(deps.clock));
    } catch (error) {
      if (!isConflict(error, 'changed') || attempt >= MAX_TRIES) throw error;
    }
  }
}
