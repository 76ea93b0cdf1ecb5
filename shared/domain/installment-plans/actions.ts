import { saoPauloDate } from '#shared/dates';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';
import { checkDueWindow } from './create';
import type { InstallmentPlanDeps } from './deps';
import { cancelBoletos, issueBoleto, undoBoleto } from './issue';
import type { InstallmentBoleto, InstallmentPlan, PlanCancelReason } from './plan';
import { findPlan } from './queries';
import type { ReissueInput } from './schemas';
import {
  type Draft,
  draftOf,
  findInstallment,
  finish,
  isOpen,
  putInstallment,
  refused,
  savePlan,
} from './state';
import { toPlanView } from './view';

/**
 * The seller's actions on a plan (docs/decisions.md, "Installment plans (issue 14)"): a second copy of an installment's
 * boleto and the plan's cancellation. Each is one conditional save; a state that refuses it is 409.
 */

export type ActionDeps = Pick<
  InstallmentPlanDeps,
  'installmentPlans' | 'transactions' | 'attempts' | 'payments' | 'scheduler' | 'clock' | 'ids' | 'reporter'
>;

const LIVE: readonly InstallmentPlan['status'][] = ['pending_activation', 'active'];

/**
 * POST …/installments/{number}/reissue: a new boleto for an open or failed installment with one
 * (due `dueDate`, default the later of today and the installment's due date, within 90 days); the
 * old boleto is canceled after the save; `reissueCount` + 1, reminders start again, an overdue
 * installment leaves the customer's overdue count when the new date is today or later.
 */
export async function reissueInstallment(
  deps: ActionDeps,
  tenant: Tenant,
  uuid: string,
  number: number,
  input: ReissueInput,
) {
  const today = saoPauloDate(deps.clock.now());
  if (input.dueDate !== undefined) checkDueWindow('dueDate', input.dueDate, today);
  const plan = await findPlan(deps, tenant, uuid);
  const installment = findInstallment(plan, number);
  if (!LIVE.includes(plan.status)) throw refused('reissued', plan.status);
  const old = installment.boleto;
  if (!old || !(isOpen(installment) || installment.status === 'failed'))
    throw new ConflictError(
      `Installment ${number} cannot be reissued in status ${installment.status}${old ? '' : ' (no boleto issued)'}`,
      'invalid_transition',
    );
  const dueDate = input.dueDate ?? (installment.dueDate > today ? installment.dueDate : today);
  const issued = await issueBoleto(deps, plan, installment, dueDate);
  const draft = draftOf(plan);
  putInstallment(draft, {
    ...installment,
    boleto: issued.boleto,
    reissueCount: installment.reissueCount + 1,
    remindersSent: [],
    status: dueDate > today ? 'scheduled' : 'due_today',
  });
  if (installment.status === 'overdue') draft.customerOverdueDelta -= 1;
  draft.webhooks.push({ name: 'installment_plan.installment_issued', extra: { number, reissue: true } });
  const { next, changes } = finish(deps, plan, draft, { transactions: [issued.transaction] });
  let saved: InstallmentPlan;
  try {
    saved = await savePlan(deps, next, plan, changes);
  } catch (error) {
    await undoBoleto(deps, plan, issued);
    throw error;
  }
  await cancelBoletos(deps, saved, [old]);
  return toPlanView(saved);
}

/**
 * The plan canceled (by the seller, or because installment 1 was not paid by the end of its grace):
 * open installments `canceled` (overdue ones leave the customer's count), webhook
 * installment_plan.canceled {cancelReason}. Answers the draft and the boletos to cancel after the save.
 */
export function cancelDraft(
  deps: Pick<ActionDeps, 'clock'>,
  plan: InstallmentPlan,
  reason: PlanCancelReason,
  draft: Draft = draftOf(plan),
): InstallmentBoleto[] {
  const at = deps.clock.now().toISOString();
  const unpaid: InstallmentBoleto[] = [];
  for (const i of draft.plan.installmentsDetail) {
    if (!isOpen(i) && i.status !== 'failed') continue;
    putInstallment(draft, { ...i, status: 'canceled' });
    if (i.status === 'overdue') draft.customerOverdueDelta -= 1;
    if (i.boleto) unpaid.push(i.boleto);
  }
  draft.plan = { ...draft.plan, status: 'canceled', cancelReason: reason, canceledAt: at };
  draft.webhooks.push({ name: 'installment_plan.canceled', extra: { cancelReason: reason } });
  return unpaid;
}

/** POST /api/v1/installment-plans/{uuid}/cancel: from pending_activation or active (409 otherwise). */
export async function cancelInstallmentPlan(deps: ActionDeps, tenant: Tenant, uuid: string) {
  const plan = await findPlan(deps, tenant, uuid);
  if (!LIVE.includes(plan.status)) throw refused('canceled', plan.status);
  const draft = draftOf(plan);
  const unpaid = cancelDraft(deps, plan, 'seller', draft);
  const { next, changes } = finish(deps, plan, draft);
  const saved = await savePlan(deps, next, plan, changes);
  await cancelBoletos(deps, saved, unpaid);
  return toPlanView(saved);
}
