import { saoPauloDate } from '#shared/dates';
import {
  advanceWhileDue,
  NOTHING_DUE,
  runDue,
  SWEEP_HOURS_BACK,
  sweepDue,
} from '#shared/domain/due-schedule';
import type { DomainEvent } from '#shared/domain/events/events';
import type { ReminderContext } from '#shared/domain/ports';
import { withOffsets } from '#shared/domain/reminders/schedule';
import type { Transaction } from '#shared/domain/transactions/transaction';
import { isConflict } from '#shared/errors';
import { collectDueCards } from './card';
import { SCHEDULED_CHARGE_DUE_JOB, type ScheduledCharge } from './charge';
import type { ScheduledChargeDeps } from './deps';
import { expireIssuedPix, issueCycle, scheduleIssuedExpiries, undoIssued } from './issue';
import { offsetsFor, type PendingReminder, recordDeliveries, sendReminders } from './reminders';
import {
  type Draft,
  draftOf,
  dueReminderStages,
  finish,
  isOpen,
  issueAt,
  needsIssuance,
  parseChargeJobId,
  pixExpiredOnClock,
  putCycle,
  saveCharge,
} from './state';

export { SWEEP_HOURS_BACK };

export type ChargeDueOutcome =
  /** The lifecycle moved (and card collection ran when a card cycle had work). */
  | { outcome: 'advanced'; status: ScheduledCharge['status'] }
  /** Nothing was due: not yet, done by another run, paused, cancelled or gone. */
  | { outcome: 'nothing_due' };

export type DueDeps = ScheduledChargeDeps;

/**
 * Everything time has made due on the charge by `now`, in one draft: each open cycle's issuance,
 * `due_today` (00:00 SP of its due date), `overdue` (00:00 SP of the next day: the customer's
 * overdue count +1, webhook `scheduled_charge.overdue`) and its reminder steps (every step due
 * is recorded; only the latest of them is sent, so a late run does not send a burst). The steps
 * are the customer's schedule as it is now (`reminderOffsets` follows it).
 */
async function applyTime(deps: DueDeps, charge: ScheduledCharge, now: Date, context: ReminderContext) {
  const draft: Draft = draftOf(withOffsets(charge, offsetsFor(context)));
  const today = saoPauloDate(now);
  const transactions: { record: Transaction; events: DomainEvent[] }[] = [];
  const reminders: PendingReminder[] = [];
  for (const original of charge.cycles) {
    if (!isOpen(original)) continue;
    let cycle = original;
    const at = now.toISOString();
    if (cycle.status === 'scheduled' && today >= cycle.dueDate) {
      cycle = { ...cycle, status: 'due_today', updatedAt: at };
      draft.timeline.push({ kind: 'due_today', cycleNumber: cycle.number, data: { dueDate: cycle.dueDate } });
    }
    if (cycle.status === 'due_today' && today > cycle.dueDate) {
      cycle = { ...cycle, status: 'overdue', updatedAt: at };
      draft.customerOverdueDelta += 1;
      draft.timeline.push({ kind: 'overdue', cycleNumber: cycle.number, data: { dueDate: cycle.dueDate } });
      draft.webhooks.push({ name: 'scheduled_charge.overdue', extra: { cycleNumber: cycle.number } });
    }
    if (
      needsIssuance(charge, cycle) &&
      issueAt(cycle.dueDate) <= now.getTime() &&
      transactions.length === 0
    ) {
      // A provider that cannot issue now must not hold the cycle's dates back: the rest is saved,
      // and issuance stays due (the heartbeat's sweep tries again).
      try {
        const issued = await issueCycle(deps, charge, cycle);
        cycle = issued.cycle;
        transactions.push(...issued.transactions);
        draft.timeline.push(...issued.timeline);
      } catch (error) {
        deps.reporter.error('could not issue a scheduled-charge cycle', error, { id: charge.id });
      }
    }
    const steps = dueReminderStages(draft.charge, cycle, now);
    if (steps.length > 0) {
      cycle = {
        ...cycle,
        remindersSent: [...cycle.remindersSent, ...steps.map((s) => s.stage)],
        updatedAt: at,
      };
      reminders.push({ cycleNumber: cycle.number, step: steps[steps.length - 1] });
    }
    if (cycle !== original) putCycle(draft, cycle);
  }
  return { draft, transactions, reminders };
}

/**
 * Applies everything due on the charge by now in one save (issuance, due_today, overdue,
 * reminders, the next cycle), then sends the reminders it recorded, expires the pix a test clock
 * passed the expiry of, and runs card collection
 * (`collectDueCards`) for card cycles. A paused or cancelled charge changes nothing. Answers the
 * charge as last written, or null when nothing was due (or another run won the version race).
 */
export async function advanceCharge(deps: DueDeps, charge: ScheduledCharge): Promise<ScheduledCharge | null> {
  const now = deps.clock.now();
  if (charge.canceledAt !== null || charge.pausedAt !== null) return null;
  if (charge.dueAt === null || Date.parse(charge.dueAt) > now.getTime()) return null;
  const context = await deps.reminderSettings.read(charge.tenant, charge.customer.id);
  const { draft, transactions, reminders } = await applyTime(deps, charge, now, context);
  const records = transactions.map((t) => t.record);
  const { next, changes } = finish(deps, charge, draft, transactions.length ? { transactions } : {});
  const moved =
    changes.timeline.length > 0 ||
    changes.events.length > 0 ||
    next.cycles.length !== charge.cycles.length ||
    next.dueAt !== charge.dueAt ||
    next.status !== charge.status ||
    reminders.length > 0;
  let saved = charge;
  if (moved) {
    try {
      saved = await saveCharge(deps, next, charge, changes);
    } catch (error) {
      await undoIssued(deps, records);
      if (isConflict(error, 'changed')) return null;
      throw error;
    }
    await scheduleIssuedExpiries(deps, records);
    saved = await recordDeliveries(deps, saved, await sendReminders(deps, saved, context, reminders));
  }
  await expireIssuedPix(deps, saved, pixExpiredOnClock(saved, now));
  if (saved.methods.includes('card')) saved = await collectDueCards(deps, saved);
  return saved;
}

/**
 * The `scheduled-charge-due` job: re-reads the charge and applies what is due by now. Firing twice
 * changes nothing the second time: the first run moved `dueAt` on, or the second loses the
 * version race and stops.
 */
export async function runChargeDueJob(deps: DueDeps, jobId: string): Promise<ChargeDueOutcome> {
  const ref = parseChargeJobId(jobId);
  if (!ref) throw new Error(`not a scheduled charge job id: ${jobId}`);
  return runDue(
    deps,
    () => deps.scheduledCharges.get(ref.tenant, ref.id),
    async (charge) => {
      const saved = await advanceDue(deps, charge);
      return saved ? { outcome: 'advanced' as const, status: saved.status } : NOTHING_DUE;
    },
  );
}

/** Saves a run may make in a row while work stays due (a boleto issued after the pix: ISSUED_PER_SAVE). */
const MAX_ROUNDS = 4;

/**
 * `advanceCharge` again while the charge it wrote still has work due by now (the second issued
 * method), a few rounds at most; the rest is left to the schedule. Null when nothing was due.
 */
export function advanceDue(deps: DueDeps, charge: ScheduledCharge): Promise<ScheduledCharge | null> {
  return advanceWhileDue((c) => advanceCharge(deps, c), charge, MAX_ROUNDS);
}

/** The heartbeat's backstop of the one-time schedules: every charge due by now, found by the due index. */
export async function sweepDueCharges(deps: DueDeps): Promise<{ due: number; ran: number }> {
  const due = await deps.scheduledCharges.dueCharges(deps.clock.now(), SWEEP_HOURS_BACK);
  return sweepDue(deps, SCHEDULED_CHARGE_DUE_JOB, due, (jobId) => runChargeDueJob(deps, jobId));
}
