import { jobId, parseNumericJobId } from '#shared/domain/job-id';
import type { ScheduledJob, Scheduler } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { nextExpiryStep } from './expiry';
import type { PaymentMethod } from './payment-method';

/** The job that runs a saved card's next expiry step (a stage's warning or the expiry itself). */
export const PAYMENT_METHOD_EXPIRY_JOB = 'payment-method-expiry';

/** A schedule never targets the past: a step already due runs a minute from now. */
const MIN_LEAD_MS = 60_000;

export const expiryJobId = (tenant: Tenant, id: number) => jobId(tenant, id);

export const parseExpiryJobId = parseNumericJobId;

/** One schedule name per method and step, so a step is never scheduled twice under two names. */
export function expiryScheduleName(pm: PaymentMethod): string | null {
  const next = nextExpiryStep(pm);
  if (!next) return null;
  return `pm-expiry-${pm.tenant.environment}-${pm.tenant.sellerId}-${pm.id}-${next.step}`;
}

export interface ExpiryScheduleDeps {
  scheduler: Scheduler;
  clock: { now(): Date };
  /** The method is saved: a failed schedule is reported here and left to the heartbeat's sweep. */
  onScheduleError?: (error: unknown) => void;
}

/** Schedules the method's next expiry step (one schedule at a time: each step schedules the next). */
export async function scheduleNextExpiryStep(deps: ExpiryScheduleDeps, pm: PaymentMethod): Promise<void> {
  const next = nextExpiryStep(pm);
  const name = expiryScheduleName(pm);
  if (!next || !name) return;
  const at = new Date(Math.max(next.at.getTime(), deps.clock.now().getTime() + MIN_LEAD_MS));
  const payload: ScheduledJob = { job: PAYMENT_METHOD_EXPIRY_JOB, id: expiryJobId(pm.tenant, pm.id) };
  await deps.scheduler.scheduleAt(name, at, payload).catch((error) => deps.onScheduleError?.(error));
}
