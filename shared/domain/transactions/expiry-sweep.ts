import type { Deps } from '#shared/domain/deps';
import { type ExpiryDeps, expirePix } from './notifications';

/** How far back the heartbeat looks for expiries a schedule missed. */
export const SWEEP_HOURS = 6;

/** One charge that cannot be expired must not stop the sweep: `reporter` takes it, retried next beat. */
export type ExpirySweepDeps = Pick<Deps, 'transactions' | 'clock' | 'ids' | 'payments' | 'reporter'> &
  Pick<ExpiryDeps, 'settle'>;

/** The backstop of the one-time expiry schedules: any pix still pending past its expiry is expired. */
export async function sweepPixExpiries(
  deps: ExpirySweepDeps,
): Promise<{ due: number; expired: number; paid: number }> {
  const due = await deps.transactions.duePixExpiries(deps.clock.now(), SWEEP_HOURS);
  let expired = 0;
  let paid = 0;
  for (const id of due) {
    try {
      const outcome = await expirePix(deps, id);
      if ('paid' in outcome) paid += 1;
      else expired += 1;
    } catch (error) {
      deps.reporter.error('could not expire a pix charge', error, { id });
    }
  }
  return { due: due.length, expired, paid };
}
