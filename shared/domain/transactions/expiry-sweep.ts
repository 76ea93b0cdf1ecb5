import type { Deps } from '#shared/domain/deps';
import { expirePix } from './notifications';

/** How far back the heartbeat looks for expiries a schedule missed. */
export const SWEEP_HOURS = 6;

/** One charge that cannot be expired must not stop the sweep: `reporter` takes it, retried next beat. */
export type ExpirySweepDeps = Pick<Deps, 'transactions' | 'clock' | 'ids' | 'payments' | 'reporter'>;

/** The backstop of the one-time expiry schedules: any pix still pending past its expiry is expired. */
export async function sweepPixExpiries(deps: ExpirySweepDeps): Promise<{ due: number; expired: number }> {
  const due = await deps.transactions.duePixExpiries(deps.clock.now(), SWEEP_HOURS);
  let expired = 0;
  for (const id of due) {
    try {
      await expirePix(deps, id);
      expired += 1;
    } catch (error) {
      deps.reporter.error('could not expire a pix charge', error, { id });
    }
  }
  return { due: due.length, expired };
}
