import { billingEmailOf } from '#shared/domain/customers/customer';
import type { ReminderContext } from '#shared/domain/ports';
import {
  type Delivery,
  deliverStep,
  type ReminderCharge,
  type ReminderRecipient,
  stepAt,
} from '#shared/domain/reminders/deliver';
import { offsetsOf, resolveSchedule } from '#shared/domain/reminders/schedule';
import type { Transaction } from '#shared/domain/transactions/transaction';
import { isConflict } from '#shared/errors';
import {
  type Cycle,
  cycleItemName,
  cycleTerms,
  type NewTimelineEntry,
  payUrlOf,
  type ScheduledCharge,
} from './charge';
import type { ScheduledChargeDeps } from './deps';
import { draftOf, finish, type ReminderStepAt, saveCharge } from './state';

/**
 * The reminders of a cycle (docs/decisions.md, "Reminder schedule and channels"): the steps of the
 * customer's schedule, each once per due date. The due job records a step in the cycle's save
 * (`remindersSent`) and sends it after: a step is never sent twice, and a failed send is recorded
 * on the timeline, not retried. Each channel's outcome is written on the charge's timeline.
 */

export const REMINDER_KIND = 'scheduled_charge_reminder';

export type ReminderDeps = Pick<
  ScheduledChargeDeps,
  | 'customers'
  | 'transactions'
  | 'mailer'
  | 'messenger'
  | 'cipher'
  | 'reminderSettings'
  | 'publicBaseUrl'
  | 'reporter'
  | 'clock'
  | 'ids'
  | 'scheduledCharges'
  | 'scheduler'
>;

/** A step recorded by the due job's save, sent after it. */
export interface PendingReminder {
  cycleNumber: number;
  step: ReminderStepAt;
}

/** The days the customer's schedule sends at: null when they are the default's. */
export function offsetsFor(context: ReminderContext): number[] | null {
  const schedule = resolveSchedule(context.seller?.schedule ?? null, context.customer?.schedule ?? null);
  return context.seller?.schedule || context.customer?.schedule ? offsetsOf(schedule) : null;
}

/** The customer as the seller's profile has it: the resolved billing e-mail and the phone. */
export async function recipientFor(
  deps: Pick<ScheduledChargeDeps, 'customers'>,
  charge: Pick<ScheduledCharge, 'tenant' | 'customer'>,
): Promise<ReminderRecipient> {
  const profile = await deps.customers.findProfileById(charge.tenant, charge.customer.id);
  return profile
    ? { customerId: profile.id, name: profile.name, email: billingEmailOf(profile), phone: profile.phone }
    : { customerId: charge.customer.id, name: charge.customer.name, email: charge.customer.email, phone: '' };
}

const issuedOf = async (deps: ReminderDeps, charge: ScheduledCharge, id: number | null) =>
  id === null ? null : deps.transactions.get(charge.tenant, id);

const pending = (t: Transaction | null) =>
  t !== null && (t.status === 'pendingPix' || t.status === 'pendingBoleto');

/** What a reminder says of a cycle: its amount and due date, the pay link, the pix and boleto still payable. */
export async function cycleReminderCharge(
  deps: Pick<ReminderDeps, 'transactions' | 'publicBaseUrl'>,
  charge: ScheduledCharge,
  cycle: Cycle,
): Promise<ReminderCharge> {
  const [pix, boleto] = await Promise.all([
    issuedOf(deps as ReminderDeps, charge, cycle.issued.pix),
    issuedOf(deps as ReminderDeps, charge, cycle.issued.boleto),
  ]);
  return {
    itemName: cycleItemName(charge, cycle),
    amount: cycle.amount,
    dueDate: cycle.dueDate,
    terms: cycleTerms(charge, cycle.dueDate),
    payUrl: payUrlOf(deps.publicBaseUrl, cycle.payToken),
    boletoLine: pending(boleto) ? (boleto?.boleto?.formattedLine ?? null) : null,
    // A cycle's own pix first; else its boleto híbrido's pix, which pays the same cycle.
    pixCopyPaste:
      (pending(pix) ? (pix?.pix?.qrCode ?? null) : null) ??
      (pending(boleto) ? (boleto?.boleto?.pixQrCode ?? null) : null),
  };
}

const timelineOf = (cycleNumber: number, stage: string, d: Delivery): NewTimelineEntry => ({
  kind:
    d.status === 'sent' ? 'reminder_sent' : d.status === 'failed' ? 'reminder_failed' : 'reminder_skipped',
  cycleNumber,
  data: { stage, channel: d.channel, to: d.to, ...(d.reason ? { reason: d.reason } : {}) },
});

/** Sends the steps the save recorded; answers the timeline entries of their outcomes. */
export async function sendReminders(
  deps: ReminderDeps,
  charge: ScheduledCharge,
  context: ReminderContext,
  reminders: PendingReminder[],
): Promise<NewTimelineEntry[]> {
  const entries: NewTimelineEntry[] = [];
  if (reminders.length === 0) return entries;
  const recipient = await recipientFor(deps, charge);
  for (const r of reminders) {
    const step = stepAt(context, r.step.days);
    const cycle = charge.cycles.find((c) => c.number === r.cycleNumber);
    if (!step || !cycle) continue;
    try {
      const deliveries = await deliverStep(deps, {
        tenant: charge.tenant,
        kind: REMINDER_KIND,
        context,
        recipient,
        step,
        charge: await cycleReminderCharge(deps, charge, cycle),
      });
      entries.push(...deliveries.map((d) => timelineOf(r.cycleNumber, r.step.stage, d)));
    } catch (error) {
      deps.reporter.error('could not send a scheduled-charge reminder', error, { id: charge.id });
    }
  }
  return entries;
}

/**
 * Writes the outcomes on the charge's timeline, on the version the due job saved; another change
 * saved since is read again once. A write that still fails is reported: the messages went out.
 */
export async function recordDeliveries(
  deps: ReminderDeps,
  charge: ScheduledCharge,
  entries: NewTimelineEntry[],
): Promise<ScheduledCharge> {
  if (entries.length === 0) return charge;
  let current = charge;
  for (let tries = 1; tries <= 2; tries++) {
    const draft = draftOf(current);
    draft.timeline.push(...entries);
    const { next, changes } = finish(deps, current, draft);
    try {
      return await saveCharge(deps, next, current, changes);
    } catch (error) {
      const again = isConflict(error, 'changed') && tries < 2;
      const latest = again ? await deps.scheduledCharges.get(charge.tenant, charge.id) : null;
      if (!latest) {
        deps.reporter.error('could not record reminder deliveries', error, { id: charge.id });
        return current;
      }
      current = latest;
    }
  }
  return current;
}
