import { addDays, addMonthsAnchored, startOfSaoPauloDay } from '#shared/dates';
import { type DueJob, followDueAt, type ScheduleDeps } from '#shared/domain/due-schedule';
import { type DomainEvent, type EventsOf, newEvent } from '#shared/domain/events/events';
import { jobId, parseJobId } from '#shared/domain/job-id';
import type { Clock, Ids, InstallmentPlanChanges } from '#shared/domain/ports';
import { FACTOR_SCALE } from '#shared/domain/products/products';
import { type ReminderStepAt, reminderAt, reminderStepsOf } from '#shared/domain/scheduled-charges/state';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError, NotFoundError } from '#shared/errors';
import type { InstallmentPlanDeps } from './deps';
import {
  INSTALLMENT_NOT_FOUND,
  INSTALLMENT_PLAN_DUE_JOB,
  type Installment,
  type InstallmentPlan,
  OPEN_INSTALLMENT_STATUSES,
} from './plan';
import { toPlanView } from './view';

/**
 * The pure rules of a carnê (docs/decisions.md, "Installment plans (issue 14)"): amounts, due
 * dates, when the due job has work next, and what one change writes. Every use case builds a
 * Draft, closes it with `finish` and writes it with `savePlan`.
 */

/** Installment n ≥ 2 is registered this many days before its due date, at 00:00 Sao Paulo. */
export const ISSUE_DAYS_AHEAD = 10;
/** Installment 1 unpaid at 00:00 of this many days after its effective due date cancels the plan. */
export const GRACE_DAYS = 10;
/** An identical plan (same customer, product, count, first due date, affiliate) within this window is 409. */
export const IDENTICAL_WINDOW_MS = 10 * 60_000;
/** firstDueDate and a second copy's dueDate: today .. today + 90 days (Sao Paulo). */
export const MAX_DAYS_AHEAD = 90;
export const MIN_INSTALLMENTS = 2;
export const MAX_INSTALLMENTS = 12;

/**
 * `round_half_up(baseValue × fator / installments)` in integer centavos, the factor in
 * ten-thousandths: no float touches money (docs/decisions.md, "Installment plans (issue 14)").
 */
export function installmentAmountOf(baseValue: number, fatorScaled: number, installments: number): number {
  const denominator = 2 * installments * FACTOR_SCALE;
  return Math.floor((baseValue * fatorScaled * 2 + installments * FACTOR_SCALE) / denominator);
}

/** Installment n's due date: the anchor's day n − 1 months later, or that month's last day. */
export const installmentDueDate = (firstDueDate: string, n: number) => addMonthsAnchored(firstDueDate, n - 1);

export const isOpen = (i: Pick<Installment, 'status'>) => OPEN_INSTALLMENT_STATUSES.includes(i.status);
/** The current boleto's due date (a second copy may move it), else the installment's. */
export const effectiveDueDate = (i: Installment) => i.boleto?.dueDate ?? i.dueDate;
const dayStart = (date: string) => startOfSaoPauloDay(date).getTime();
/** 00:00 Sao Paulo, ISSUE_DAYS_AHEAD days before the due date. */
export const issueAt = (i: Installment) => dayStart(addDays(i.dueDate, -ISSUE_DAYS_AHEAD));
/** 00:00 Sao Paulo of the GRACE_DAYS-th day after installment 1's effective due date. */
export const graceEndsAt = (first: Installment) => dayStart(addDays(effectiveDueDate(first), GRACE_DAYS));

/** Installment 1 still waiting for money (open, or its boleto failed): the grace applies. */
export const unpaidFirst = (first: Installment) => isOpen(first) || first.status === 'failed';

/** An active plan's open installment without a boleto yet. */
export const needsIssuance = (plan: InstallmentPlan, i: Installment) =>
  plan.status === 'active' && i.boleto === null && isOpen(i);

/** Reminder steps of the plan's schedule for an issued open installment, due by `now` and not sent, oldest first. */
export function dueReminderStages(
  plan: Pick<InstallmentPlan, 'reminderOffsets'>,
  i: Installment,
  now: Date,
): ReminderStepAt[] {
  if (!isOpen(i) || i.boleto === null) return [];
  return reminderStepsOf(plan).filter(
    (s) => !i.remindersSent.includes(s.stage) && reminderAt(effectiveDueDate(i), s.days) <= now.getTime(),
  );
}

/** Every instant an installment has work at (past ones included: they are due now). */
function installmentWork(plan: InstallmentPlan, i: Installment): number[] {
  if (!isOpen(i)) return [];
  if (needsIssuance(plan, i)) return [issueAt(i)];
  if (i.boleto === null) return [];
  const due = effectiveDueDate(i);
  const times: number[] = [];
  if (i.status === 'scheduled') times.push(dayStart(due));
  if (i.status !== 'overdue') times.push(dayStart(addDays(due, 1)));
  for (const s of reminderStepsOf(plan))
    if (!i.remindersSent.includes(s.stage)) times.push(reminderAt(due, s.days));
  return times;
}

/** The next instant the due job has work (ISO), or null once the plan is completed or canceled. */
export function nextDueAt(plan: InstallmentPlan): string | null {
  if (plan.status === 'completed' || plan.status === 'canceled') return null;
  const times = plan.installmentsDetail.flatMap((i) => installmentWork(plan, i));
  const first = plan.installmentsDetail[0];
  if (plan.status === 'pending_activation' && first && unpaidFirst(first)) times.push(graceEndsAt(first));
  if (times.length === 0) return null;
  return new Date(Math.min(...times)).toISOString();
}

/** What one change writes besides the plan: webhooks (built from the final plan), a boleto, the overdue count. */
export interface Draft {
  plan: InstallmentPlan;
  webhooks: { name: EventsOf<'installment_plan'>; extra?: Record<string, unknown> }[];
  customerOverdueDelta: number;
}

export const draftOf = (plan: InstallmentPlan): Draft => ({ plan, webhooks: [], customerOverdueDelta: 0 });

export function putInstallment(draft: Draft, installment: Installment): void {
  draft.plan = {
    ...draft.plan,
    installmentsDetail: draft.plan.installmentsDetail.map((i) =>
      i.number === installment.number ? installment : i,
    ),
  };
}

export function findInstallment(plan: InstallmentPlan, number: number): Installment {
  const found = plan.installmentsDetail.find((i) => i.number === number);
  if (!found) throw new NotFoundError(INSTALLMENT_NOT_FOUND);
  return found;
}

/** An installment_plan.* webhook: the plan as the API shows it (`id` its uuid), plus `extra`. */
export function planEvent(
  deps: { ids: Ids; clock: Clock },
  plan: InstallmentPlan,
  name: EventsOf<'installment_plan'>,
  extra: Record<string, unknown> = {},
): DomainEvent {
  return newEvent(deps, plan.tenant, name, {
    id: plan.uuid,
    ...toPlanView(plan),
    ...extra,
  });
}

/** Closes a draft: counters derived, dueAt, version + 1, webhooks built from the written plan. */
export function finish(
  deps: { ids: Ids; clock: Clock },
  previous: InstallmentPlan,
  draft: Draft,
  extra: Omit<InstallmentPlanChanges, 'events' | 'customerOverdueDelta'> = {},
): { next: InstallmentPlan; changes: InstallmentPlanChanges } {
  const now = deps.clock.now();
  const d = draft.plan;
  const paid = d.installmentsDetail.filter((i) => i.status === 'paid');
  const next: InstallmentPlan = {
    ...d,
    installmentsPaid: paid.length,
    totalCollected: paid.reduce((sum, i) => sum + (i.paidAmount ?? 0), 0),
    overdueInstallments: d.installmentsDetail.filter((i) => i.status === 'overdue').length,
    updatedAt: now.toISOString(),
    version: previous.version + 1,
  };
  next.dueAt = nextDueAt(next);
  const changes: InstallmentPlanChanges = {
    ...extra,
    events: draft.webhooks.map((w) => planEvent(deps, next, w.name, w.extra)),
  };
  if (draft.customerOverdueDelta !== 0) changes.customerOverdueDelta = draft.customerOverdueDelta;
  return { next, changes };
}

/** `Installment plan cannot be <action> in status <status>` (409). */
export const refused = (action: string, status: string) =>
  new ConflictError(`Installment plan cannot be ${action} in status ${status}`, 'invalid_transition');

/** The due job's id: `<sellerId>:<environment>:<uuid>`. */
export const planJobId = (tenant: Tenant, uuid: string) => jobId(tenant, uuid);

export function parsePlanJobId(value: string): { tenant: Tenant; uuid: string } | null {
  const ref = parseJobId(value, /[0-9a-f-]{36}/);
  return ref && { tenant: ref.tenant, uuid: ref.id };
}

/** The plan's due job; one schedule name per plan and due time (at most 57 characters). */
export const planDueJob = (plan: Pick<InstallmentPlan, 'tenant' | 'uuid' | 'testClockId'>): DueJob => ({
  payload: { job: INSTALLMENT_PLAN_DUE_JOB, id: planJobId(plan.tenant, plan.uuid) },
  nameAt: (dueAt) => `carne-${plan.uuid}-${Math.floor(Date.parse(dueAt) / 1000)}`,
  testClockId: plan.testClockId,
});

/** Writes `next` on `previous`'s version with its changes, then keeps the due job's schedule in step. */
export async function savePlan(
  deps: Pick<InstallmentPlanDeps, 'installmentPlans'> & ScheduleDeps,
  next: InstallmentPlan,
  previous: InstallmentPlan,
  changes: InstallmentPlanChanges,
): Promise<InstallmentPlan> {
  await deps.installmentPlans.save(next, previous, changes);
  await followDueAt(deps, planDueJob(next), previous.dueAt, next.dueAt);
  return next;
}
