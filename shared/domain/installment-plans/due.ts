import { saoPauloDate } from '#shared/dates';
import {
  advanceWhileDue,
  NOTHING_DUE,
  runDue,
  SWEEP_HOURS_BACK,
  sweepDue,
} from '#shared/domain/due-schedule';
import { termsForDueDate } from '#shared/domain/payments/late-charge-settings';
import type { ReminderContext } from '#shared/domain/ports';
import { deliverStep, type ReminderCharge, stepAt } from '#shared/domain/reminders/deliver';
import { withOffsets } from '#shared/domain/reminders/schedule';
import { offsetsFor, recipientFor } from '#shared/domain/scheduled-charges/reminders';
import type { ReminderStepAt } from '#shared/domain/scheduled-charges/state';
import { isConflict } from '#shared/errors';
import { cancelDraft } from './actions';
import type { InstallmentPlanDeps } from './deps';
import { cancelBoletos, type IssuedBoleto, issueBoleto, undoBoleto } from './issue';
import {
  INSTALLMENT_PLAN_DUE_JOB,
  type Installment,
  type InstallmentBoleto,
  type InstallmentPlan,
} from './plan';
import {
  type Draft,
  draftOf,
  dueReminderStages,
  effectiveDueDate,
  finish,
  graceEndsAt,
  isOpen,
  issueAt,
  needsIssuance,
  parsePlanJobId,
  putInstallment,
  savePlan,
  unpaidFirst,
} from './state';

export { SWEEP_HOURS_BACK };
/** Saves a run may make in a row while work stays due (one boleto per save). */
const MAX_ROUNDS = 4;
export const REMINDER_KIND = 'installment_plan_reminder';

export type DueDeps = InstallmentPlanDeps;

interface Applied {
  draft: Draft;
  issued: IssuedBoleto | null;
  reminders: { number: number; step: ReminderStepAt }[];
  /** Boletos to cancel after the save (the grace of installment 1 ended). */
  canceled: InstallmentBoleto[];
}

/**
 * Everything time has made due on the plan by `now`, in one draft: the grace of installment 1
 * (the plan canceled), each issued open installment's `due_today` and `overdue` (the customer's
 * overdue count + 1, webhook installment_plan.installment_overdue), its reminder stages (only the
 * latest due one is mailed), and one issuance of an active plan's next installment.
 */
async function applyTime(
  deps: DueDeps,
  plan: InstallmentPlan,
  now: Date,
  context: ReminderContext,
): Promise<Applied> {
  const draft = draftOf(withOffsets(plan, offsetsFor(context)));
  const first = plan.installmentsDetail[0];
  if (
    plan.status === 'pending_activation' &&
    first &&
    unpaidFirst(first) &&
    graceEndsAt(first) <= now.getTime()
  )
    return {
      draft,
      issued: null,
      reminders: [],
      canceled: cancelDraft(deps, plan, 'first_installment_unpaid', draft),
    };
  const today = saoPauloDate(now);
  let issued: IssuedBoleto | null = null;
  const reminders: Applied['reminders'] = [];
  for (const original of plan.installmentsDetail) {
    let i = original;
    if (issued === null && needsIssuance(plan, i) && issueAt(i) <= now.getTime()) {
      // A provider that cannot issue now must not hold the other installments back: reported, retried.
      try {
        issued = await issueBoleto(deps, plan, i, i.dueDate < today ? today : i.dueDate);
        i = { ...i, boleto: issued.boleto };
        draft.webhooks.push({ name: 'installment_plan.installment_issued', extra: { number: i.number } });
      } catch (error) {
        deps.reporter.error('could not issue an installment boleto', error, { id: plan.uuid });
      }
    }
    if (isOpen(i) && i.boleto !== null) {
      const due = effectiveDueDate(i);
      if (i.status === 'scheduled' && today >= due) i = { ...i, status: 'due_today' };
      if (i.status === 'due_today' && today > due) {
        i = { ...i, status: 'overdue' };
        draft.customerOverdueDelta += 1;
        draft.webhooks.push({ name: 'installment_plan.installment_overdue', extra: { number: i.number } });
      }
      const steps = dueReminderStages(draft.plan, i, now);
      if (steps.length > 0) {
        i = { ...i, remindersSent: [...i.remindersSent, ...steps.map((s) => s.stage)] };
        reminders.push({ number: i.number, step: steps[steps.length - 1] });
      }
    }
    if (i !== original) putInstallment(draft, i);
  }
  return { draft, issued, reminders, canceled: [] };
}

/** What a reminder says of an issued installment: its boleto (line and PDF link) and the amount due. */
export function installmentReminderCharge(
  plan: InstallmentPlan,
  i: Installment,
  boleto: NonNullable<Installment['boleto']>,
): ReminderCharge {
  return {
    itemName: `${plan.product.name} (parcela ${i.number}/${plan.installments})`,
    amount: i.amount,
    dueDate: effectiveDueDate(i),
    terms: termsForDueDate(i.lateCharges ?? null, i.dueDate, effectiveDueDate(i)),
    payUrl: boleto.pdfUrl,
    boletoLine: boleto.barcodeLine,
    // The boleto híbrido's pix pays the same installment.
    pixCopyPaste: boleto.pixQrCode ?? null,
  };
}

/**
 * Sends the steps the save recorded (the boleto's line and PDF link) on their channels. A plan has
 * no timeline: each channel's failure is reported to the job's log.
 */
async function sendReminders(
  deps: DueDeps,
  plan: InstallmentPlan,
  context: ReminderContext,
  reminders: Applied['reminders'],
) {
  if (reminders.length === 0) return;
  try {
    const recipient = await recipientFor(deps, plan);
    for (const r of reminders) {
      const i = plan.installmentsDetail.find((x) => x.number === r.number);
      const step = stepAt(context, r.step.days);
      if (!i?.boleto || !step) continue;
      await deliverStep(deps, {
        tenant: plan.tenant,
        kind: REMINDER_KIND,
        context,
        recipient,
        step,
        charge: installmentReminderCharge(plan, i, i.boleto),
      });
    }
  } catch (error) {
    deps.reporter.error('could not send an installment reminder', error, { id: plan.uuid });
  }
}

/**
 * Applies what is due on the plan by now in one save, then sends its reminders and cancels the
 * boletos of a plan the grace canceled. Null when nothing was due (or another run won the version race).
 */
export async function advancePlan(deps: DueDeps, plan: InstallmentPlan): Promise<InstallmentPlan | null> {
  const now = deps.clock.now();
  if (plan.dueAt === null || Date.parse(plan.dueAt) > now.getTime()) return null;
  const context = await deps.reminderSettings.read(plan.tenant, plan.customer.id);
  const { draft, issued, reminders, canceled } = await applyTime(deps, plan, now, context);
  const { next, changes } = finish(deps, plan, draft, issued ? { transactions: [issued.transaction] } : {});
  // Nothing moved (an issuance the provider refused): the sweep tries again, no empty write.
  if (draft.plan === plan && next.dueAt === plan.dueAt) return null;
  let saved: InstallmentPlan;
  try {
    saved = await savePlan(deps, next, plan, changes);
  } catch (error) {
    if (issued) await undoBoleto(deps, plan, issued);
    if (isConflict(error, 'changed')) return null;
    throw error;
  }
  await sendReminders(deps, saved, context, reminders);
  await cancelBoletos(deps, saved, canceled);
  return saved;
}

/** `advancePlan` again while the plan it wrote still has work due by now (the next boleto), a few rounds at most. */
export function advanceDue(deps: DueDeps, plan: InstallmentPlan): Promise<InstallmentPlan | null> {
  return advanceWhileDue((p) => advancePlan(deps, p), plan, MAX_ROUNDS);
}

/** The `installment-plan-due` job: re-reads the plan and applies what is due by now; firing twice changes nothing. */
export async function runPlanDueJob(deps: DueDeps, jobId: string) {
  const ref = parsePlanJobId(jobId);
  if (!ref) throw new Error(`not an installment plan job id: ${jobId}`);
  return runDue(
    deps,
    () => deps.installmentPlans.get(ref.tenant, ref.uuid),
    async (plan) => {
      const saved = await advanceDue(deps, plan);
      return saved ? { outcome: 'advanced' as const, status: saved.status } : NOTHING_DUE;
    },
  );
}

/** The heartbeat's backstop of the one-time schedules: every plan due by now, found by the due index. */
export async function sweepDuePlans(deps: DueDeps): Promise<{ due: number; ran: number }> {
  const due = await deps.installmentPlans.duePlans(deps.clock.now(), SWEEP_HOURS_BACK);
  return sweepDue(deps, INSTALLMENT_PLAN_DUE_JOB, due, (jobId) => runPlanDueJob(deps, jobId));
}
