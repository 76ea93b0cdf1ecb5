import type { ScheduledCharge } from './charge';
import type { ScheduledChargeDeps } from './deps';

/**
 * Card collection of a charge's cycles, called by the due job after it applied the lifecycle:
 * charges the saved card of every open card cycle whose silent charge (its due date reached, no
 * attempt yet) or retry (`nextRetryAt` by now) is due, and converts or lapses a trial. Returns the
 * charge as last written. (Seam between the lifecycle and card modules of issue 13: the card
 * helper writes the body; until then nothing is charged.)
 */
export async function collectDueCards(
  _deps: ScheduledChargeDeps,
  charge: ScheduledCharge,
): Promise<ScheduledCharge> {
  return charge;
}
