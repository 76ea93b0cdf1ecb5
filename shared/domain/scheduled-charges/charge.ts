import { formatCalendarDay } from '#shared/dates';
import {
  type LateChargeTerms,
  lateChargeTermsView,
  NO_LATE_CHARGES,
} from '#shared/domain/payments/amount-due';
import { amountDueView, termsForDueDate } from '#shared/domain/payments/late-charge-settings';
import type { Ids } from '#shared/domain/ports/system';
import type { Tenant } from '#shared/domain/tenant';
import { type Transaction, toTransactionView } from '#shared/domain/transactions/transaction';
import { centavosToReais } from '#shared/money';
import { SCHEDULED_CHARGE_NOT_FOUND } from './not-found';

/**
 * Scheduled charges (issue 13): a one-time charge or a recurring series, each made of cycles with
 * a due date. docs/state-machines.md ("Scheduled charges") is the contract every
 * module of this folder follows; this file holds the stored shapes and the API's views.
 */

export const SCHEDULED_CHARGE_PREFIX = 'sch_';
/** `sch_test_` or `sch_live_` and 24 base62 characters: a fixed length, so an id is never a prefix of another. */
export const SCHEDULED_CHARGE_ID_LENGTH = 24;
export { SCHEDULED_CHARGE_NOT_FOUND };
/** The one job of a charge: whatever is due at `dueAt` (issuance, due_today, reminders, overdue, card charge, retry, next cycle). */
export const SCHEDULED_CHARGE_DUE_JOB = 'scheduled-charge-due';
/** The public pay link of a cycle: `/cobranca/{payToken}`. */
export const PAY_TOKEN_PREFIX = 'cob_';

/**
 * What a cycle's payment is for, as its transaction, its receipt and the provider name it: the
 * product, else the seller's description, else the cycle's due date; never the charge's internal id.
 */
export const cycleItemName = (
  charge: Pick<ScheduledCharge, 'product' | 'description'>,
  cycle: Pick<Cycle, 'dueDate'>,
): string =>
  charge.product?.name ??
  charge.description ??
  `Cobrança com vencimento em ${formatCalendarDay(cycle.dueDate)}`;
/** The token's secret: 32 base62 characters (190 bits), the only credential the link carries. */
const PAY_TOKEN_SECRET_LENGTH = 32;
/**
 * A pay token names its charge: `cob_<sellerId>_<charge id>_<secret>`, so the link reads the charge
 * directly (no pointer item). docs/decisions.md ("Scheduled charges (issue 13)").
 */
const PAY_TOKEN_WITH_CHARGE = /^cob_(\d{1,15})_(sch_(test|live)_[A-Za-z0-9]{24})_[A-Za-z0-9]{32}$/;

/** A new cycle's pay token: the charge's seller and id, then a fresh secret. */
export const newPayToken = (ids: Pick<Ids, 'prefixed'>, charge: Pick<ScheduledCharge, 'tenant' | 'id'>) =>
  ids.prefixed(`${PAY_TOKEN_PREFIX}${charge.tenant.sellerId}_${charge.id}`, PAY_TOKEN_SECRET_LENGTH);

/** Whether a text has the shape of a pay token; anything else names nothing. */
export const isPayToken = (text: string) => PAY_TOKEN_WITH_CHARGE.test(text);

/** The charge a pay token names, or null when the text is no pay token. */
export function chargeOfPayToken(payToken: string): { tenant: Tenant; chargeId: string } | null {
  const m = PAY_TOKEN_WITH_CHARGE.exec(payToken);
  if (!m) return null;
  return { tenant: { sellerId: Number(m[1]), environment: m[3] as Tenant['environment'] }, chargeId: m[2] };
}

export const CHARGE_STATUSES = [
  'scheduled',
  'due_today',
  'overdue',
  'paid',
  'paused',
  'canceled',
  'trial',
  'pending_tokenization',
  'recurrence_canceled',
] as const;
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

export const CYCLE_STATUSES = ['scheduled', 'due_today', 'overdue', 'paid', 'failed', 'canceled'] as const;
export type CycleStatus = (typeof CYCLE_STATUSES)[number];
/** Cycles still waiting for money. */
export const OPEN_CYCLE_STATUSES: readonly CycleStatus[] = ['scheduled', 'due_today', 'overdue'];

export const CHARGE_TYPES = ['one_time', 'recurring'] as const;
export type ChargeType = (typeof CHARGE_TYPES)[number];

export const CHARGE_METHODS = ['pix', 'boleto', 'card'] as const;
export type ChargeMethod = (typeof CHARGE_METHODS)[number];

export const RECURRENCE_INTERVALS = ['week', 'month', 'year'] as const;
export type RecurrenceInterval = (typeof RECURRENCE_INTERVALS)[number];

export interface Recurrence {
  interval: RecurrenceInterval;
  /** Every `intervalCount` intervals (1 = every week, month or year). */
  intervalCount: number;
  /** The series ends after this many cycles (null: no count limit). */
  endAfterCycles: number | null;
  /** No cycle is due after this date, YYYY-MM-DD (null: no date limit). */
  endDate: string | null;
}

/** The spec's timeline event kinds, plus the ones every other transition writes. */
export const TIMELINE_KINDS = [
  'created',
  'updated',
  'due_today',
  'overdue',
  'reminder_sent',
  'reminder_failed',
  'reminder_skipped',
  'issued',
  'paid',
  'manually_marked_paid',
  'postponed',
  'payment_failed',
  'cycle_failed',
  'canceled',
  'recurrence_canceled',
  'cancel_at_period_end_set',
  'cancel_at_period_end_cleared',
  'paused',
  'resumed',
  'payment_method_attached',
  'payment_method_changed',
  'payment_method_cleared',
  'trial_started',
  'trial_converted',
  'trial_lapsed',
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export interface TimelineEntry {
  /** Numeric, allocated by the repository (the charge's own counter). */
  id: number;
  kind: TimelineKind;
  cycleNumber: number | null;
  data: Record<string, unknown>;
  createdAt: string;
}
export type NewTimelineEntry = Pick<TimelineEntry, 'kind' | 'cycleNumber' | 'data'>;

export const ATTEMPT_SOURCES = [
  'cycle1_interactive',
  'silent_charge',
  'card_retry',
  'manual_mark_paid',
  'fallback_pix',
] as const;
export type AttemptSource = (typeof ATTEMPT_SOURCES)[number];
export const ATTEMPT_STATUSES = ['pending', 'succeeded', 'declined', 'canceled', 'errored'] as const;
export type AttemptStatus = (typeof ATTEMPT_STATUSES)[number];

/** One try at collecting a cycle (the spec's Scheduled charge attempt), stored apart from the charge. */
export interface Attempt {
  /** From the `scheduled-charge-attempt` sequence. */
  id: number;
  chargeId: string;
  cycleNumber: number;
  /** 1.. within the cycle. */
  attemptNumber: number;
  attemptedAt: string;
  source: AttemptSource;
  paymentMethod: 'card' | 'pix' | 'boleto' | 'manual';
  /** Null when the saved card was deleted since (the snapshot below stays). */
  paymentMethodId: number | null;
  cardLast4: string | null;
  cardBrand: string | null;
  status: AttemptStatus;
  failureCode: string | null;
  failureReason: string | null;
  gatewayFailureCode: string | null;
  gatewayChargeId: number | null;
  transactionId: number | null;
}

/** A card charge in flight for a cycle: claimed (a conditional write) before the provider is called. */
export interface CycleClaim {
  attemptNumber: number;
  transactionId: number;
  idempotencyKey: string;
  source: AttemptSource;
  claimedAt: string;
}

export interface Cycle {
  /** 1.. in the series (a one-time charge has cycle 1 only). */
  number: number;
  /** YYYY-MM-DD, Sao Paulo. Postpone moves it; reminders follow it. */
  dueDate: string;
  /** Centavos, frozen when the cycle is created (an update changes later cycles only). */
  amount: number;
  status: CycleStatus;
  /** The public pay link's token (`cob_…`), unguessable, one per cycle. */
  payToken: string;
  /** Transactions issued or paid for this cycle (pix and boleto issued ahead, card payments), oldest first. */
  transactionIds: number[];
  /** The pix and boleto issued ahead of the due date, shown on the link and in reminders. */
  issued: { pix: number | null; boleto: number | null };
  /** Reminder stages already sent for the current due date (`before_3`, `due`, `after_1`, …); postpone clears it. */
  remindersSent: string[];
  paidAt: string | null;
  /** `transaction` (a paid transaction) or `manual` (mark-paid, no transaction). */
  paidBy: 'transaction' | 'manual' | null;
  paidTransactionId: number | null;
  /** mark-paid: the date the seller says the money arrived, and its reconciliation reference. */
  paymentDate: string | null;
  externalReference: string | null;
  /** Card attempts made for this cycle so far. */
  attemptCount: number;
  /** When the next card retry is due (null: none planned). */
  nextRetryAt: string | null;
  claim: CycleClaim | null;
  failureCode: string | null;
  failureReason: string | null;
  gatewayFailureCode: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ScheduledCharge {
  id: string;
  tenant: Tenant;
  type: ChargeType;
  status: ChargeStatus;
  customer: { id: number; uuid: string; name: string; email: string; document: string };
  product: { id: number; uuid: string; name: string } | null;
  description: string | null;
  /** Centavos of the next cycles. */
  amount: number;
  methods: ChargeMethod[];
  /** The due date of the earliest open cycle (or of the last cycle when none is open). */
  dueDate: string;
  /** The first cycle's due date: later due dates are computed from it (the 31st clamps and returns). */
  anchorDate: string;
  recurrence: Recurrence | null;
  trialDays: number;
  /** The trial's last day (YYYY-MM-DD) when the series started with one. */
  trialEndsOn: string | null;
  /** The saved card later card cycles are charged on. */
  paymentMethod: { id: number; cardLast4: string; cardBrand: string } | null;
  cancelAtPeriodEnd: boolean;
  pausedAt: string | null;
  canceledAt: string | null;
  /** Cycles of the series, oldest first (the repository stores each as its own item). */
  cycles: Cycle[];
  /** Open cycles that are overdue now (the customer's overdue count moved with it). */
  overdueCycles: number;
  /** The next time the due job has work; null when nothing will ever be due. */
  dueAt: string | null;
  /** The sandbox test clock it lives on (its customer's, at creation): its due work runs in that clock's time. */
  testClockId?: string | null;
  /**
   * The days from each due date its reminders go out at, resolved from the customer's schedule
   * when the charge was created and at each due run (null: the default schedule's).
   */
  reminderOffsets: number[] | null;
  /** How many timeline entries the charge has written: the id of the last one (the next continues it). */
  timelineSeq: number;
  /**
   * Fine, interest and discount of every pix and boleto of the series, for the first cycle's due
   * date (`anchorDate`); a later cycle's discount tiers keep their distance from its own due date.
   * Null (or absent on charges stored before): none.
   */
  lateCharges?: LateChargeTerms | null;
  createdAt: string;
  updatedAt: string;
  version: number;
}

/** The terms of one cycle (its due date's discount tiers). */
export const cycleTerms = (c: Pick<ScheduledCharge, 'lateCharges' | 'anchorDate'>, dueDate: string) =>
  termsForDueDate(c.lateCharges ?? null, c.anchorDate, dueDate);

/** The charge as the API shows it (the spec's Scheduled charge table, plus the series fields). */
export function toScheduledChargeView(c: ScheduledCharge) {
  return {
    id: c.id,
    object: 'scheduled_charge' as const,
    customerId: c.customer.id,
    amount: centavosToReais(c.amount),
    dueDate: c.dueDate,
    methods: c.methods,
    status: c.status,
    type: c.type,
    description: c.description,
    recurrence: c.recurrence,
    trialDays: c.trialDays,
    trialEndsOn: c.trialEndsOn,
    paymentMethod: c.paymentMethod,
    cancelAtPeriodEnd: c.cancelAtPeriodEnd,
    pausedAt: c.pausedAt,
    canceledAt: c.canceledAt,
    customer: {
      id: c.customer.id,
      uuid: c.customer.uuid,
      name: c.customer.name,
      email: c.customer.email,
      document: c.customer.document,
    },
    product: c.product,
    ...lateChargeTermsView(c.lateCharges ?? NO_LATE_CHARGES),
    environment: c.tenant.environment,
    ...(c.testClockId ? { testClockId: c.testClockId } : {}),
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
}

/** A cycle's id in the API: the charge's id and the cycle's number. */
export const cycleIdOf = (chargeId: string, cycleNumber: number) => `${chargeId}_c${cycleNumber}`;

export const payUrlOf = (baseUrl: string, payToken: string) =>
  `${baseUrl.replace(/\/$/, '')}/cobranca/${payToken}`;

/**
 * A payment of a charge (its detail's `transactions`): a card charge, approved or not, or a pix or
 * boleto that was paid. A pix or boleto issued and never paid is an instrument, shown under its cycle.
 */
export const isPayment = (t: Transaction): boolean => t.paymentMethod === 'creditcard' || t.paidAt !== null;

/**
 * A cycle as the detail shows it, with `issued`: the pix and boleto issued for it (ahead of its due
 * date, again after a postpone), oldest first, paid or not, as the transactions API shows them.
 */
export const toCycleView = (
  charge: Pick<ScheduledCharge, 'id' | 'lateCharges' | 'anchorDate'>,
  cycle: Cycle,
  baseUrl: string,
  transactions: ReadonlyMap<number, Transaction>,
  today: string,
) => ({
  cycleId: cycleIdOf(charge.id, cycle.number),
  cycleNumber: cycle.number,
  dueDate: cycle.dueDate,
  amount: centavosToReais(cycle.amount),
  ...amountDueView(today, {
    amount: cycle.amount,
    dueDate: cycle.dueDate,
    lateCharges: cycleTerms(charge, cycle.dueDate),
    open: OPEN_CYCLE_STATUSES.includes(cycle.status),
  }),
  status: cycle.status,
  payUrl: payUrlOf(baseUrl, cycle.payToken),
  paidAt: cycle.paidAt,
  paidBy: cycle.paidBy,
  paymentDate: cycle.paymentDate,
  externalReference: cycle.externalReference,
  attemptCount: cycle.attemptCount,
  nextRetryAt: cycle.nextRetryAt,
  failureCode: cycle.failureCode,
  failureReason: cycle.failureReason,
  issued: cycle.transactionIds
    .map((id) => transactions.get(id))
    .filter((t): t is Transaction => t !== undefined && t.paymentMethod !== 'creditcard')
    .map((t) => toTransactionView(t, today)),
});

export const toAttemptView = (a: Attempt) => ({
  id: a.id,
  cycleId: cycleIdOf(a.chargeId, a.cycleNumber),
  cycleNumber: a.cycleNumber,
  attemptNumber: a.attemptNumber,
  attemptedAt: a.attemptedAt,
  source: a.source,
  paymentMethod: a.paymentMethod,
  paymentMethodId: a.paymentMethodId,
  cardLast4: a.cardLast4,
  cardBrand: a.cardBrand,
  status: a.status,
  failureCode: a.failureCode,
  failureReason: a.failureReason,
  gatewayFailureCode: a.gatewayFailureCode,
  gatewayChargeId: a.gatewayChargeId,
  transactionId: a.transactionId,
});
