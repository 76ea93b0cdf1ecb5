import * as z from 'zod';
import type { Deps } from '#shared/domain/deps';
import { installmentReminderCharge } from '#shared/domain/installment-plans/due';
import { findPlan } from '#shared/domain/installment-plans/queries';
import { isOpen } from '#shared/domain/installment-plans/state';
import { recipientFor } from '#shared/domain/scheduled-charges/reminders';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError, NotFoundError } from '#shared/errors';
import { centavosToReais } from '#shared/money';
import { parseInput } from '#shared/validation';
import { amountDueFor, OPT_OUT_PATH, reminderValues } from './deliver';
import { resolveSchedule } from './schedule';
import { previewDay, renderedStep } from './settings';

/**
 * The preview of a reminder step for a carnê installment, as `previewReminder` renders one for a
 * scheduled charge: the step of the customer's schedule, on the day it would go out, on each of
 * its channels, with the installment's boleto. Nothing is sent and no opt-out token is made.
 */

export type InstallmentPreviewDeps = Pick<
  Deps,
  'reminderSettings' | 'customers' | 'installmentPlans' | 'clock' | 'publicBaseUrl'
>;

export const INSTALLMENT_NOT_FOUND = 'Installment not found';
export const NOT_ISSUED = 'Installment has no boleto yet: its reminders start once it is issued';

export const installmentPreviewSchema = z.strictObject({
  step: z
    .number({ error: 'step must be the offsetDays of a step of the schedule' })
    .int('step must be the offsetDays of a step of the schedule')
    .describe("The offsetDays of a step of the schedule the plan's customer follows"),
  installmentPlanId: z
    .uuid({ error: 'installmentPlanId must be the uuid of an installment plan' })
    .describe('The carnê (its uuid)'),
  installment: z
    .number({ error: 'installment must be the number of an installment of the plan' })
    .int('installment must be the number of an installment of the plan')
    .positive('installment must be the number of an installment of the plan')
    .optional()
    .describe('The installment to render; default: the earliest open one with a boleto'),
});

/** POST /api/reminder-schedule/installment-preview. */
export async function previewInstallmentReminder(
  deps: InstallmentPreviewDeps,
  tenant: Tenant,
  input: unknown,
) {
  const body = parseInput(installmentPreviewSchema, input);
  const plan = await findPlan(deps, tenant, body.installmentPlanId);
  const installment =
    body.installment === undefined
      ? (plan.installmentsDetail.find((i) => isOpen(i) && i.boleto) ??
        plan.installmentsDetail.find(isOpen) ??
        plan.installmentsDetail[plan.installmentsDetail.length - 1])
      : plan.installmentsDetail.find((i) => i.number === body.installment);
  if (!installment) throw new NotFoundError(INSTALLMENT_NOT_FOUND);
  const context = await deps.reminderSettings.read(tenant, plan.customer.id);
  const schedule = resolveSchedule(context.seller?.schedule ?? null, context.customer?.schedule ?? null);
  const step = schedule.steps.find((s) => s.offsetDays === body.step);
  if (!step) throw new NotFoundError('Reminder step not found');
  // A reminder carries the boleto it asks the customer to pay: none is sent before it exists.
  if (!installment.boleto) throw new ConflictError(NOT_ISSUED, 'installment_not_issued');
  const recipient = await recipientFor(deps, plan);
  const charge = installmentReminderCharge(plan, installment, installment.boleto);
  const day = previewDay(charge.dueDate, step.offsetDays, deps.clock.now());
  const values = reminderValues(
    tenant,
    context,
    recipient,
    charge,
    day,
    `${deps.publicBaseUrl}${OPT_OUT_PATH}/exemplo`,
  );
  return {
    step,
    installment: installment.number,
    sendDate: day,
    amountDue: centavosToReais(amountDueFor(charge, day).amountDue),
    ...renderedStep(step, values, recipient),
  };
}
