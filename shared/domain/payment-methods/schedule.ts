import { type DueJob, type ScheduleDeps, scheduleAtDue } from '#shared/domain/due-schedule';
import { jobId, parseNumericJobId } from '#shared/domain/job-id';
import type { Tenant } from '#shared/domain/tenant';
import { nextExpiryStep } from './expiry';
import type { PaymentMethod } from './payment-method';

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
 * step schedules the next).
 */
export async function scheduleNextExpiryStep(deps: ExpiryScheduleDeps, pm: PaymentMethod): Promise<void> {
  const next = nextExpiryStep(pm);
  const name = expiryScheduleName(pm);
  if (!next || !name) return;
  const job: DueJob = {
    payload: { job: PAYMENT_METHOD_EXPIRY_JOB, id: expiryJobId(pm.tenant, pm.id) },
    nameAt: () => name,
  };
  await scheduleAtDue(deps, job, next.at.toISOString());
}
