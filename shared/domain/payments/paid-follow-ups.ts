import { type PayDeps, payInstallmentOfTransaction } from '#shared/domain/installment-plans/payments';
import {
  type PaidNotificationDeps,
  payCycleOfTransaction,
} from '#shared/domain/scheduled-charges/notifications';
import type { Transaction } from '#shared/domain/transactions/transaction';
import type { Logger } from '#shared/logger';

export type FollowUpDeps = Omit<PaidNotificationDeps, 'onScheduleError' | 'onCancelError'> &
  Omit<PayDeps, 'onScheduleError'>;

/**
 * What a provider notification's transaction moves besides itself, whichever provider sent it
 * (the sandbox's signed route, Asaas's): a scheduled-charge cycle it collects, a carnê installment
 * its boleto pays (or fails). Failed schedules and cancels are logged: the change is saved and the
 * heartbeat's sweeps are the backstop.
 */
export function notificationFollowUps(deps: FollowUpDeps, log: Logger): (t: Transaction) => Promise<void> {
  const onScheduleError = (error: unknown) =>
    log.error('could not schedule a scheduled-charge or carnê job', { error });
  return async (t) => {
    await payCycleOfTransaction(
      {
        ...deps,
        onScheduleError,
        onCancelError: (error) => log.error('could not cancel an issued pix or boleto', { error }),
      },
      t,
    );
    await payInstallmentOfTransaction({ ...deps, onScheduleError }, t);
  };
}
