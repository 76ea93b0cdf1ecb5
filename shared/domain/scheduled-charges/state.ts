import { addDays, saoPauloDate, startOfSaoPauloDay } from '#shared/dates';
import { type DueJob, followDueAt, type ScheduleDeps } from '#shared/domain/due-schedule';
import { type DomainEvent, type EventsOf, newEvent, type TrialEvent } from '#shared/domain/events/events';
import { jobId, parseJobId } from '#shared/domain/job-id';
import type { Clock, Ids, ScheduledChargeChanges } from '#shared/domain/ports';
import { DEFAULT_OFFSETS, stepKey } from '#shared/domain/reminders/schedule';
import { anchoredDate } from '#shared/domain/subscriptions/periods';
import type { Tenant } from '#shared/domain/tenant';
import { ConflictError, NotFoundError } from '#shared/errors';
import {
  type ChargeStatus,
  type Cycle,
  type NewTimelineEntry,
  newPayToken,
  OPEN_CYCLE_STATUSES,
  SCHEDULED_CHARGE_DUE_JOB,
  type ScheduledCharge,
  toScheduledChargeView,
} from './charge';
import type { ScheduledChargeDeps } from './deps';

/**
 * The pure rules of the scheduled-charge state machine (docs/decisions.md, "Scheduled charges
 * (issue 13)"): cycle due dates, the derived status, when the due job has work next, and a cycle
 * paid. Every use case builds its change with these and writes it with `saveCharge`.
 */

const HOUR_MS = 3_600_000;
/** Pix and boleto of a cycle are issued this many days before its due date, at 00:00 Sao Paulo. */
export const ISSUE_DAYS_AHEAD = 5;
/** Reminders go out at 09:00 Sao Paulo. */
export const REMINDER_TIME_MS = 9 * HOUR_MS;
/** A reminder step of a due date: its key on `remindersSent` and its days from the due date. */
export interface ReminderStepAt {
  stage: string;
  days: number;
}

/** The steps a charge follows: the offsets resolved from its customer's schedule, else the default. */
export const reminderStepsOf = (charge: Pick<ScheduledCharge, 'reminderOffsets'>): ReminderStepAt[] =>
  (charge.reminderOffsets ?? DEFAULT_OFFSETS).map((days) => ({ stage: stepKey(days), days }));
/** A pix issued for a cycle stays payable until the end of its due date plus these days. */
export const PIX_PAYABLE_DAYS_AFTER_DUE = 29;
/** A cycle's pix stays payable to the end of its due date + 29 days (the life of an overdue charge). */
export const pixExpiryOf = (dueDate: string) =>
  startOfSaoPauloDay(addDays(dueDate, PIX_PAYABLE_DAYS_AFTER_DUE + 1)).toISOString();
export const CYCLE_NOT_FOUND = 'Cycle not found';

export const isOpen = (cycle: Pick<Cycle, 'status'>) => OPEN_CYCLE_STATUSES.includes(cycle.status);

/**
 * When the due job expires an open cycle's issued pix: only on a test clock, in the clock's time
 * (in real time the pix's own schedule and the heartbeat's sweep do); null otherwise.
 */
function pixExpiryOnClock(charge: ScheduledCharge, cycle: Cycle): number | null {
  if (!charge.testClockId || !isOpen(cycle) || cycle.issued.pix === null) return null;
  return Date.parse(pixExpiryOf(cycle.dueDate));
}

/** A charge on a test clock: the open cycles whose issued pix the clock's `now` has expired. */
export const pixExpiredOnClock = (charge: ScheduledCharge, now: Date): Cycle[] =>
  charge.cycles.filter((c) => {
    const at = pixExpiryOnClock(charge, c);
    return at !== null && at <= now.getTime();
  });
const dayStart = (date: string) => startOfSaoPauloDay(date).getTime();

/** Due date of cycle n (1..): (n−1) × intervalCount intervals after the anchor, with the subscriptions' calendar. */
export function cycleDueDate(charge: Pick<ScheduledCharge, 'anchorDate' | 'recurrence'>, n: number): string {
  if (!charge.recurrence || n === 1) return charge.anchorDate;
  const { interval, intervalCount } = charge.recurrence;
  return anchoredDate(charge.anchorDate, interval, intervalCount, n - 1);
}

/**
 * Whether the series has a cycle after cycle n: recurring, not cancelled (now or at period end),
 * within `endAfterCycles`, and due no later than `endDate`.
 */
export function hasCycleAfter(
  charge: Pick<ScheduledCharge, 'anchorDate' | 'recurrence' | 'canceledAt' | 'cancelAtPeriodEnd'>,
  n: number,
): boolean {
  const r = charge.recurrence;
  if (!r || charge.canceledAt !== null || charge.cancelAtPeriodEnd) return false;
  if (r.endAfterCycles !== null && n + 1 > r.endAfterCycles) return false;
  if (r.endDate !== null && cycleDueDate(charge, n + 1) > r.endDate) return false;
  return true;
}

/** A new open cycle: the charge's current amount, a fresh pay token, nothing issued or sent yet. */
export function newCycle(
  deps: { ids: Ids; clock: Clock },
  charge: Pick<ScheduledCharge, 'tenant' | 'id' | 'amount' | 'anchorDate' | 'recurrence'>,
  number: number,
  dueDate: string = cycleDueDate(charge, number),
): Cycle {
  const at = deps.clock.now().toISOString();
  return {
    number,
    dueDate,
    amount: charge.amount,
    status: 'scheduled',
    payToken: newPayToken(deps.ids, charge),
    transactionIds: [],
    issued: { pix: null, boleto: null },
    remindersSent: [],
    paidAt: null,
    paidBy: null,
    paidTransactionId: null,
    paymentDate: null,
    externalReference: null,
    attemptCount: 0,
    nextRetryAt: null,
    claim: null,
    failureCode: null,
    failureReason: null,
    gatewayFailureCode: null,
    createdAt: at,
    updatedAt: at,
  };
}

/** A recurring card-only series: cycle 1 is paid on the link and saves the card. */
export const isCardOnlySeries = (c: Pick<ScheduledCharge, 'type' | 'methods'>) =>
  c.type === 'recurring' && c.methods.length === 1 && c.methods[0] === 'card';

/**
 * A cycle collected by charging the saved card silently (at 00:00 of its due date): card is among
 * the methods and a card is saved. Such a cycle is not issued ahead and gets no reminder.
 */
export const isSilentCardCycle = (c: Pick<ScheduledCharge, 'methods' | 'paymentMethod'>) =>
  c.methods.includes('card') && c.paymentMethod !== null;

/** Pix and boleto among the methods, the ones issued ahead. */
export const issuedMethods = (c: Pick<ScheduledCharge, 'methods'>) =>
  c.methods.filter((m): m is 'pix' | 'boleto' => m === 'pix' || m === 'boleto');

/** The trial is on until the end of its last day (Sao Paulo). */
export const inTrial = (c: Pick<ScheduledCharge, 'trialEndsOn'>, now: Date) =>
  c.trialEndsOn !== null && saoPauloDate(now) <= c.trialEndsOn;

/** The charge's status, derived in the contract's order (docs/state-machines.md, "Statuses"). */
export function deriveStatus(charge: ScheduledCharge, now: Date): ChargeStatus {
  if (charge.canceledAt !== null) return charge.type === 'one_time' ? 'canceled' : 'recurrence_canceled';
  if (charge.pausedAt !== null) return 'paused';
  if (inTrial(charge, now)) return 'trial';
  const open = charge.cycles.filter(isOpen);
  const first = charge.cycles.find((c) => c.number === 1);
  if (isCardOnlySeries(charge) && first && isOpen(first) && charge.paymentMethod === null)
    return 'pending_tokenization';
  if (open.some((c) => c.status === 'overdue')) return 'overdue';
  if (open.some((c) => c.status === 'due_today')) return 'due_today';
  if (open.length > 0) return 'scheduled';
  const last = charge.cycles[charge.cycles.length - 1];
  return last && hasCycleAfter(charge, last.number) ? 'scheduled' : 'paid';
}

/** The earliest open cycle's due date, else the last cycle's. */
export function chargeDueDate(charge: Pick<ScheduledCharge, 'cycles' | 'dueDate'>): string {
  const open = charge.cycles.filter(isOpen).sort((a, b) => a.dueDate.localeCompare(b.dueDate));
  return open[0]?.dueDate ?? charge.cycles[charge.cycles.length - 1]?.dueDate ?? charge.dueDate;
}

/** When a reminder stage of a due date goes out: 09:00 Sao Paulo, `days` from the due date. */
export const reminderAt = (dueDate: string, days: number) =>
  dayStart(addDays(dueDate, days)) + REMINDER_TIME_MS;

/** The instant a cycle's pix and boleto are issued: 00:00 Sao Paulo, 5 days before its due date. */
export const issueAt = (dueDate: string) => dayStart(addDays(dueDate, -ISSUE_DAYS_AHEAD));

/** Whether a cycle still has pix or boleto to issue. */
export function needsIssuance(
  charge: Pick<ScheduledCharge, 'methods' | 'paymentMethod'>,
  cycle: Cycle,
): boolean {
  if (!isOpen(cycle) || isSilentCardCycle(charge)) return false;
  return issuedMethods(charge).some((m) => cycle.issued[m] === null);
}

/**
 * Reminder steps of an open cycle that are due by `now` and not sent, oldest first. A cycle that
 * is charged silently gets none; the `after_*` stages only once the cycle is past its due date.
 */
export function dueReminderStages(
  charge: Pick<ScheduledCharge, 'methods' | 'paymentMethod' | 'reminderOffsets'>,
  cycle: Cycle,
  now: Date,
): ReminderStepAt[] {
  if (!isOpen(cycle) || isSilentCardCycle(charge)) return [];
  return reminderStepsOf(charge).filter(
    (s) => !cycle.remindersSent.includes(s.stage) && reminderAt(cycle.dueDate, s.days) <= now.getTime(),
  );
}

/** Every instant an open cycle has work at (past ones included: they are due now). */
function cycleWork(charge: ScheduledCharge, cycle: Cycle): number[] {
  if (!isOpen(cycle)) return [];
  const times: number[] = [];
  if (needsIssuance(charge, cycle)) times.push(issueAt(cycle.dueDate));
  if (cycle.status === 'scheduled') times.push(dayStart(cycle.dueDate));
  if (cycle.status !== 'overdue') times.push(dayStart(addDays(cycle.dueDate, 1)));
  if (!isSilentCardCycle(charge)) {
    for (const s of reminderStepsOf(charge))
      if (!cycle.remindersSent.includes(s.stage)) times.push(reminderAt(cycle.dueDate, s.days));
  }
  if (isSilentCardCycle(charge) && cycle.attemptCount === 0 && cycle.claim === null)
    times.push(dayStart(cycle.dueDate));
  if (cycle.nextRetryAt !== null) times.push(Date.parse(cycle.nextRetryAt));
  if (cycle.claim !== null) times.push(Date.parse(cycle.claim.claimedAt));
  return times;
}

/**
 * The next instant the due job has work (ISO), or null: the earliest of every open cycle's
 * issuance, due_today, overdue, reminders, silent charge and retry (and, on a test clock, its
 * pix's expiry while ahead), the trial's end and the next cycle's creation. A cancelled or paused
 * charge has none (resume derives it again).
 */
export function nextDueAt(charge: ScheduledCharge, now: Date): string | null {
  if (charge.canceledAt !== null || charge.pausedAt !== null) return null;
  const times = charge.cycles.flatMap((c) => cycleWork(charge, c));
  for (const c of charge.cycles) {
    const expiry = pixExpiryOnClock(charge, c);
    if (expiry !== null && expiry > now.getTime()) times.push(expiry);
  }
  if (charge.trialEndsOn !== null && inTrial(charge, now))
    times.push(dayStart(addDays(charge.trialEndsOn, 1)));
  const last = charge.cycles[charge.cycles.length - 1];
  // The next cycle is created when the last one reaches its due date (or is closed).
  if (last && hasCycleAfter(charge, last.number))
    times.push(isOpen(last) ? dayStart(last.dueDate) : now.getTime());
  if (times.length === 0) return null;
  return new Date(Math.min(...times)).toISOString();
}

/** What one transition writes besides the charge: timeline entries, webhooks, the customer's overdue count. */
export interface Draft {
  charge: ScheduledCharge;
  timeline: NewTimelineEntry[];
  /** Webhooks by name with what their payload adds to the charge's view; built from the final charge. */
  webhooks: { name: EventsOf<'scheduled_charge'> | TrialEvent; extra?: Record<string, unknown> }[];
  customerOverdueDelta: number;
}

export const draftOf = (charge: ScheduledCharge): Draft => ({
  charge,
  timeline: [],
  webhooks: [],
  customerOverdueDelta: 0,
});

/** Replaces cycle `number` in the draft. */
export function putCycle(draft: Draft, cycle: Cycle): void {
  draft.charge = {
    ...draft.charge,
    cycles: draft.charge.cycles.map((c) => (c.number === cycle.number ? cycle : c)),
  };
}

/**
 * What follows any change: the next cycle is created when the last one reached its due date or
 * closed (never while paused), a cancellation at period end takes effect once no cycle is open.
 */
export function settle(deps: { ids: Ids; clock: Clock }, draft: Draft, now: Date): void {
  for (;;) {
    const c = draft.charge;
    const last = c.cycles[c.cycles.length - 1];
    if (c.canceledAt !== null || c.pausedAt !== null || !last || last.status === 'scheduled') break;
    if (!hasCycleAfter(c, last.number)) break;
    draft.charge = { ...c, cycles: [...c.cycles, newCycle(deps, c, last.number + 1)] };
  }
  const c = draft.charge;
  if (c.canceledAt !== null) return;
  if (c.type === 'recurring' && c.cancelAtPeriodEnd && !c.cycles.some(isOpen)) {
    draft.charge = { ...c, canceledAt: now.toISOString(), cancelAtPeriodEnd: false };
    draft.timeline.push({ kind: 'recurrence_canceled', cycleNumber: null, data: { atPeriodEnd: true } });
    draft.webhooks.push({ name: 'scheduled_charge.recurrence_canceled' });
  }
}

/** A scheduled_charge.* (or customer.trial_*) webhook: the charge as the API shows it, plus `extra`. */
export function chargeEvent(
  deps: { ids: Ids; clock: Clock },
  charge: ScheduledCharge,
  name: EventsOf<'scheduled_charge'> | TrialEvent,
  extra: Record<string, unknown> = {},
): DomainEvent {
  return newEvent(deps, charge.tenant, name, { ...toScheduledChargeView(charge), ...extra });
}

/**
 * Closes a draft into the charge to write (settled, status, dueDate and dueAt derived, version + 1)
 * and its changes (events built from the written charge).
 */
export function finish(
  deps: { ids: Ids; clock: Clock },
  previous: ScheduledCharge,
  draft: Draft,
  extra: Omit<ScheduledChargeChanges, 'events' | 'timeline' | 'customerOverdueDelta'> = {},
): { next: ScheduledCharge; changes: ScheduledChargeChanges } {
  const now = deps.clock.now();
  settle(deps, draft, now);
  const settled = draft.charge;
  const next: ScheduledCharge = {
    ...settled,
    overdueCycles: settled.cycles.filter((c) => c.status === 'overdue').length,
    dueDate: chargeDueDate(settled),
    updatedAt: now.toISOString(),
    version: previous.version + 1,
  };
  next.status = deriveStatus(next, now);
  next.dueAt = nextDueAt(next, now);
  const changes: ScheduledChargeChanges = {
    ...extra,
    events: draft.webhooks.map((w) => chargeEvent(deps, next, w.name, w.extra)),
    timeline: draft.timeline,
  };
  if (draft.customerOverdueDelta !== 0) changes.customerOverdueDelta = draft.customerOverdueDelta;
  return { next, changes };
}

export type CyclePayment =
  | { by: 'transaction'; transactionId: number; at: string }
  | { by: 'manual'; paymentDate: string; externalReference: string | null; at: string };

/** `Cycle <n> cannot be marked paid in status <status>` (409). */
export const cycleRefused = (n: number, status: string) =>
  new ConflictError(`Cycle ${n} cannot be marked paid in status ${status}`, 'invalid_transition');

/**
 * Cycle `cycleNumber` paid, by a transaction (from any open or failed status) or by mark-paid
 * (due_today, overdue, or failed for a recurring cycle): timeline `paid`/`manually_marked_paid`,
 * webhook `scheduled_charge.paid` {seriesId, cycleNumber, transactionId}, the customer's overdue
 * count −1 when it was overdue, the next cycle created when the contract says, status derived.
 * 404 `Cycle not found`; 409 when the cycle's status refuses it.
 */
export function applyCyclePaid(
  deps: { ids: Ids; clock: Clock },
  charge: ScheduledCharge,
  cycleNumber: number,
  payment: CyclePayment,
): { next: ScheduledCharge; changes: ScheduledChargeChanges } {
  const cycle = charge.cycles.find((c) => c.number === cycleNumber);
  if (!cycle) throw new NotFoundError(CYCLE_NOT_FOUND);
  const allowed =
    payment.by === 'transaction'
      ? isOpen(cycle) || cycle.status === 'failed'
      : cycle.status === 'due_today' ||
        cycle.status === 'overdue' ||
        (charge.type === 'recurring' && cycle.status === 'failed');
  if (!allowed) throw cycleRefused(cycleNumber, cycle.status);
  const draft = draftOf(charge);
  const transactionId = payment.by === 'transaction' ? payment.transactionId : null;
  putCycle(draft, {
    ...cycle,
    status: 'paid',
    paidAt: payment.at,
    paidBy: payment.by,
    paidTransactionId: transactionId,
    transactionIds:
      transactionId === null || cycle.transactionIds.includes(transactionId)
        ? cycle.transactionIds
        : [...cycle.transactionIds, transactionId],
    paymentDate: payment.by === 'manual' ? payment.paymentDate : saoPauloDate(new Date(payment.at)),
    externalReference: payment.by === 'manual' ? payment.externalReference : null,
    nextRetryAt: null,
    claim: null,
    updatedAt: payment.at,
  });
  if (cycle.status === 'overdue') draft.customerOverdueDelta -= 1;
  draft.timeline.push(
    payment.by === 'manual'
      ? {
          kind: 'manually_marked_paid',
          cycleNumber,
          data: { paymentDate: payment.paymentDate, externalReference: payment.externalReference },
        }
      : { kind: 'paid', cycleNumber, data: { transactionId } },
  );
  draft.webhooks.push({
    name: 'scheduled_charge.paid',
    extra: { seriesId: charge.id, cycleNumber, transactionId },
  });
  return finish(deps, charge, draft);
}

/** The due job's id: `<sellerId>:<environment>:<chargeId>`. */
export const chargeJobId = (tenant: Tenant, id: string) => jobId(tenant, id);

export const parseChargeJobId = (value: string) => parseJobId(value, /sch_[A-Za-z0-9_]{1,60}/);

/** The charge's due job; one schedule name per charge and due time. */
export const chargeDueJob = (charge: Pick<ScheduledCharge, 'tenant' | 'id' | 'testClockId'>): DueJob => ({
  payload: { job: SCHEDULED_CHARGE_DUE_JOB, id: chargeJobId(charge.tenant, charge.id) },
  nameAt: (dueAt) => `sch-due-${charge.id}-${Math.floor(Date.parse(dueAt) / 1000)}`,
  testClockId: charge.testClockId,
});

/**
 * Writes `next` on `previous`'s version with its changes (one transaction), then keeps the
 * one-time schedule in step with `dueAt` (the subscriptions' due-schedule). Answers the charge as
 * written: its timeline counter moved on by the entries written with it.
 */
export async function saveCharge(
  deps: Pick<ScheduledChargeDeps, 'scheduledCharges'> & ScheduleDeps,
  next: ScheduledCharge,
  previous: ScheduledCharge,
  changes: ScheduledChargeChanges,
): Promise<ScheduledCharge> {
  const written = { ...next, timelineSeq: previous.timelineSeq + changes.timeline.length };
  await deps.scheduledCharges.save(written, previous, changes);
  await followDueAt(deps, chargeDueJob(written), previous.dueAt, written.dueAt);
  return written;
}
