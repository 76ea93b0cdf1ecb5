import type { Deps } from '#shared/domain/deps';
import { NOTHING_DUE, runDue, sweepDue } from '#shared/domain/due-schedule';
import { type DomainEvent, newEvent } from '#shared/domain/events/events';
import {
  dueExpiryStep,
  type ExpiryStep,
  nextExpiryStep,
  PAYMENT_METHOD_EXPIRY_JOB,
  parseExpiryJobId,
  scheduleNextExpiryStep,
} from './expiry';
import { type PaymentMethod, toPaymentMethodView } from './payment-method';

/** How many index months behind the current one the heartbeat looks for steps a schedule missed. */
export const SWEEP_MONTHS_BACK = 2;

/** `reporter`: a failed schedule, and one method that cannot advance (the sweep goes on). */
export type ExpiryStepDeps = Pick<Deps, 'paymentMethods' | 'scheduler' | 'clock' | 'ids' | 'reporter'> &
  Partial<Pick<Deps, 'clockScope'>>;

export type ExpiryStepOutcome =
  | { outcome: 'expiring_soon'; stage: number }
  | { outcome: 'expired' }
  /** Nothing was due (already done by another run, not yet due, or the method was deleted). */
  | { outcome: 'nothing_due' };

function apply(deps: ExpiryStepDeps, pm: PaymentMethod, step: ExpiryStep, at: string) {
  const next: PaymentMethod = { ...pm, updatedAt: at, version: pm.version + 1 };
  let events: DomainEvent[];
  if (step.kind === 'expire') {
    next.status = 'expired';
    next.expiredAt = at;
    events = [
      newEvent(deps, pm.tenant, 'payment_method.expired', {
        ...toPaymentMethodView(next),
        status: 'expired',
      }),
    ];
  } else {
    next.expiryNotices = [...pm.expiryNotices, step.stage];
    events = [
      newEvent(deps, pm.tenant, 'payment_method.expiring_soon', {
        ...toPaymentMethodView(next),
        stage: step.stage,
        daysUntilExpiry: step.daysUntilExpiry,
      }),
    ];
  }
  next.nextExpiryStepAt = nextExpiryStep(next)?.at.toISOString() ?? null;
  return { next, events };
}

/**
 * Runs whatever expiry step of the method is due now: a stage's `payment_method.expiring_soon` or
 * the expiry (`status` expired, `payment_method.expired`), each written with its event in one
 * transaction on the version read. Firing twice, or a schedule and the sweep together, changes
 * nothing the second time: the loser's write fails its condition, or it finds nothing due. A
 * deleted method has nothing due. The winner schedules the next step.
 */
export async function runExpiryStep(deps: ExpiryStepDeps, jobId: string): Promise<ExpiryStepOutcome> {
  const ref = parseExpiryJobId(jobId);
  if (!ref) throw new Error(`not a payment method job id: ${jobId}`);
  return runDue(
    deps,
    () => deps.paymentMethods.get(ref.tenant, ref.id),
    async (pm): Promise<ExpiryStepOutcome> => {
      const now = deps.clock.now();
      const step = dueExpiryStep(pm, now);
      if (!step) return NOTHING_DUE;
      const { next, events } = apply(deps, pm, step, now.toISOString());
      await deps.paymentMethods.save(next, pm, events);
      await scheduleNextExpiryStep(deps, next);
      return step.kind === 'expire'
        ? { outcome: 'expired' }
        : { outcome: 'expiring_soon', stage: step.stage };
    },
  );
}

/** The heartbeat's backstop of the one-time schedules: every step due by now, found by the index. */
export async function sweepExpirySteps(deps: ExpiryStepDeps): Promise<{ due: number; ran: number }> {
  const due = await deps.paymentMethods.dueExpirySteps(deps.clock.now(), SWEEP_MONTHS_BACK);
  return sweepDue(deps, PAYMENT_METHOD_EXPIRY_JOB, due, (jobId) => runExpiryStep(deps, jobId));
}
