import type { Cycle, ScheduledCharge } from './charge';
import type { ScheduledChargeDeps } from './deps';
import { type Draft, draftOf, finish, inTrial, isOpen, saveCharge } from './state';

/**
 * A trial's end (docs/decisions.md, "Scheduled charges (issue 13)"): once its last day has passed,
 * cycle 1's first card charge converts it (`trial_converted`) or its failure lapses it
 * (`trial_lapsed`); with no card saved it lapses at once and cycle 1 stays open on its link.
 */

/** Whether cycle `c`'s next card charge is the one that ends the charge's trial. */
export const trialEnd = (charge: ScheduledCharge, c: Cycle, now: Date): boolean =>
  charge.trialEndsOn !== null && c.number === 1 && c.attemptCount === 0 && !inTrial(charge, now);

/** The trial ended without a paid cycle 1: timeline `trial_lapsed`, webhook customer.trial_lapsed. */
export function lapse(draft: Draft, cycleNumber: number, trialEndsOn: string | null, reason: string) {
  draft.timeline.push({ kind: 'trial_lapsed', cycleNumber, data: { trialEndsOn, reason } });
  draft.webhooks.push({ name: 'customer.trial_lapsed', extra: { cycleNumber } });
}

/** Timeline kinds that say the trial already ended one way or the other. */
const ENDED = new Set(['trial_converted', 'trial_lapsed']);

/**
 * A trial that ended with no card to charge lapses once: the timeline is read only in that case
 * (the trial is over, cycle 1 open and never tried), so a run after the lapse writes nothing.
 */
export async function trialOutcome(
  deps: ScheduledChargeDeps,
  charge: ScheduledCharge,
  c: Cycle,
  now: Date,
): Promise<ScheduledCharge> {
  if (!trialEnd(charge, c, now) || !isOpen(c) || c.claim !== null || charge.paymentMethod !== null)
    return charge;
  const timeline = await deps.scheduledCharges.timeline(charge.tenant, charge.id, 100);
  if (timeline.some((e) => ENDED.has(e.kind))) return charge;
  const draft = draftOf(charge);
  lapse(draft, 1, charge.trialEndsOn, 'no_card');
  const { next, changes } = finish(deps, charge, draft);
  return saveCharge(deps, next, charge, changes);
}
