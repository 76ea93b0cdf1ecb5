import type { Deps } from '#shared/domain/deps';

/**
 * What the carnê engine (use cases, the due job, payments) needs. Use cases take the narrowest
 * Pick of it they can; the handler and jobs.ts build the whole.
 */
export type InstallmentPlanDeps = Pick<
  Deps,
  | 'installmentPlans'
  | 'transactions'
  | 'customers'
  | 'products'
  | 'affiliations'
  | 'payments'
  | 'scheduler'
  | 'mailer'
  | 'clock'
  | 'ids'
> & {
  /** The change is saved: a failed schedule is reported here and left to the heartbeat's sweep. */
  onScheduleError?: (error: unknown) => void;
  /** One plan that cannot advance must not stop the sweep: reported here, retried next beat. */
  onDueError?: (error: unknown, jobId: string) => void;
  onMailError?: (error: unknown) => void;
  /** A boleto that could not be made unpayable after the plan's save. */
  onCancelError?: (error: unknown) => void;
};
