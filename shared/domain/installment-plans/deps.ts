import type { Deps } from '#shared/domain/deps';

/**
 * What the carnê engine (use cases, the due job, payments) needs. Use cases take the narrowest
 * Pick of it they can; the handler and jobs.ts build the whole.
 */
/**
 * `reporter` takes what must not fail the plan's saved change: a failed schedule (the heartbeat's
 * sweep is the backstop), a plan that cannot advance (the sweep goes on), a reminder, a boleto that
 * could not be made unpayable after the save.
 */
export type InstallmentPlanDeps = Pick<
  Deps,
  | 'installmentPlans'
  | 'transactions'
  | 'attempts'
  | 'atomically'
  | 'customers'
  | 'products'
  | 'affiliations'
  | 'payments'
  | 'scheduler'
  | 'mailer'
  | 'messenger'
  | 'cipher'
  | 'reminderSettings'
  | 'publicBaseUrl'
  | 'clock'
  | 'ids'
  | 'reporter'
> &
  /** The sandbox test clock the work runs on (a carnê is created on its customer's). */
  Partial<Pick<Deps, 'clockScope'>>;
