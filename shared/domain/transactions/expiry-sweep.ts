import type { Deps } from '#shared/domain/deps';
import { expirePix } from './notifications';

/** How far back the heartbeat looks for expiries a schedule missed. */
export const SWEEP_HOURS = 6;

export type ExpirySweepDeps = Pick<Deps, 'transactions' | 'clock' | 'ids' | 'payments'> & {
  /** One charge that cannot be expired must not stop the sweep: it is reported here and retried next beat. */
  onExpiryError?: (error: unknown, jobId: string) => void;
};

/** The backstop of the one-time expiry schedules: any pix still pending past its expiry is expired. */
export async function sweepPixExpiries(deps: ExpirySweepDeps): Promise<{ due: number; expired: number }> {
  const due = await deps.transactions.duePixExpiries(deps.clock.now(), SWEEP_HOURS);
  let expired = 0;
  for (const id of due) {
    try {
      await expirePix(deps, id);
      expired += 1;
    } catch (error) {
      deps.onExpiryError?.(error, id);
    }
  }
  return { due: due.length, expired };
}
