import { addDays, daysBetween, saoPauloDate, startOfSaoPauloDay } from '#shared/dates';
import { type DueJob, type ScheduleDeps, scheduleAtDue } from '#shared/domain/due-schedule';
import { jobId, parseNumericJobId } from '#shared/domain/job-id';
import type { Tenant } from '#shared/domain/tenant';
import type { PaymentMethod } from './payment-method';

/**
 * When a saved card expires and when its holder's seller is warned. A card is valid through the last
 * day of its expiry month (Sao Paulo), so it expires when the first day of the next month begins;
 * `payment_method.expiring_soon` is due at the start of the day 30, 14 and 7 days before that.
 */
export const EXPIRY_STAGES = [30, 14, 7] as const;
export type ExpiryStage = (typeof EXPIRY_STAGES)[number];

export interface CardExpiry {
  expiryMonth: number;
  /** Four digits. */
  expiryYear: number;
}

/** What the expiry steps depend on: the card, its status, the stages already sent and the save day. */
export interface ExpiryState extends CardExpiry {
  status: 'active' | 'expired';
  /** Stages already notified. */
  expiryNotices: readonly ExpiryStage[];
  /** ISO instant the card was saved: a stage whose day came before it is never sent. */
  createdAt: string;
}

export type ExpiryStep = { kind: 'stage'; stage: ExpiryStage; daysUntilExpiry: number } | { kind: 'expire' };

/** The Sao Paulo day on which the card is no longer valid: the 1st of the month after its expiry month. */
export function expiryDay(card: CardExpiry): string {
  const next = card.expiryYear * 12 + card.expiryMonth; // months since year 0 of the following month
  const year = Math.floor(next / 12);
  const month = (next % 12) + 1;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-01`;
}

/** The instant the card expires (the start of expiryDay in Sao Paulo). */
export const expiresAt = (card: CardExpiry): Date => startOfSaoPauloDay(expiryDay(card));

/** The Sao Paulo day of a stage: `stage` days before the expiry day. */
export const stageDay = (card: CardExpiry, stage: ExpiryStage): string => addDays(expiryDay(card), -stage);

const eligible = (state: ExpiryState, stage: ExpiryStage) =>
  stageDay(state, stage) >= saoPauloDate(new Date(state.createdAt));

/**
 * The step due at `now`, or null. Past the expiry day the card expires (stages not sent by then are
 * dropped). Otherwise only the latest stage reached counts: a stage missed until the next one came
 * is never sent late, and a stage is sent at most once, never after a smaller one.
 */
export function dueExpiryStep(state: ExpiryState, now: Date): ExpiryStep | null {
  if (state.status !== 'active') return null;
  const today = saoPauloDate(now);
  const end = expiryDay(state);
  if (today >= end) return { kind: 'expire' };
  const reached = EXPIRY_STAGES.filter((stage) => stageDay(state, stage) <= today);
  const stage = reached.at(-1);
  if (stage === undefined || !eligible(state, stage)) return null;
  if (state.expiryNotices.some((sent) => sent <= stage)) return null;
  return { kind: 'stage', stage, daysUntilExpiry: daysBetween(today, end) };
}

/**
 * The next step the state waits for and when it becomes due (possibly already past: then
 * dueExpiryStep answers it now); null once expired. This instant is what schedules and the sweep
 * index use.
 */
export function nextExpiryStep(state: ExpiryState): { step: ExpiryStage | 'expire'; at: Date } | null {
  if (state.status !== 'active') return null;
  const smallestSent = Math.min(...state.expiryNotices, Number.POSITIVE_INFINITY);
  const stage = EXPIRY_STAGES.find((s) => s < smallestSent && eligible(state, s));
  if (stage !== undefined) return { step: stage, at: startOfSaoPauloDay(stageDay(state, stage)) };
  return { step: 'expire', at: expiresAt(state) };
}

/** The job that runs a saved card's next expiry step (a stage's warning or the expiry itself). */
export const PAYMENT_METHOD_EXPIRY_JOB = 'payment-method-expiry';

export const expiryJobId = (tenant: Tenant, id: number) => jobId(tenant, id);

export const parseExpiryJobId = parseNumericJobId;

/** One schedule name per method and step, so a step is never scheduled twice under two names. */
export function expiryScheduleName(pm: PaymentMethod): string | null {
  const next = nextExpiryStep(pm);
  if (!next) return null;
  return `pm-expiry-${pm.tenant.environment}-${pm.tenant.sellerId}-${pm.id}-${next.step}`;
}

export type ExpiryScheduleDeps = ScheduleDeps;

/**
 * Schedules the method's next expiry step through the due engine (one schedule at a time: each
 * step schedules the next). A card on a test clock has none: its clock's advance runs its steps.
 */
export async function scheduleNextExpiryStep(deps: ExpiryScheduleDeps, pm: PaymentMethod): Promise<void> {
  const next = nextExpiryStep(pm);
  const name = expiryScheduleName(pm);
  if (!next || !name) return;
  const job: DueJob = {
    payload: { job: PAYMENT_METHOD_EXPIRY_JOB, id: expiryJobId(pm.tenant, pm.id) },
    nameAt: () => name,
    testClockId: pm.testClockId,
  };
  await scheduleAtDue(deps, job, next.at.toISOString());
}
