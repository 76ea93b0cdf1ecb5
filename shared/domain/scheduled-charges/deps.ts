import type { Deps } from '#shared/domain/deps';

/**
 * What the scheduled-charge engine (use cases, the due job, payments) needs. Use cases take the
 * narrowest Pick of it they can; the container and jobs.ts build the whole.
 */
export type ScheduledChargeDeps = Pick<
  Deps,
  | 'scheduledCharges'
  | 'transactions'
  | 'attempts'
  | 'atomically'
  | 'customers'
  | 'products'
  | 'paymentMethods'
  | 'payments'
  | 'scheduler'
  | 'mailer'
  | 'messenger'
  | 'cipher'
  | 'reminderSettings'
  | 'clock'
  | 'ids'
  | 'publicBaseUrl'
  | 'reporter'
> &
  /** The sandbox test clock the work runs on (a charge is created on its customer's). */
  Partial<Pick<Deps, 'clockScope'>> & {
    /** The IP address of the request, when it is the buyer's (a card payment's `remoteIp`). */
    buyerIp?: string;
  };
