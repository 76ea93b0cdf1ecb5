import type {
  AffiliationRepository,
  Clock,
  CustomerRepository,
  GatewayRouter,
  Ids,
  InstallmentPlanRepository,
  Mailer,
  ProductRepository,
  Scheduler,
  TransactionRepository,
} from '#shared/domain/ports';

/**
 * What the carnê engine (use cases, the due job, payments) needs. Use cases take the narrowest
 * Pick of it they can; the handler and jobs.ts build the whole.
 */
export interface InstallmentPlanDeps {
  installmentPlans: InstallmentPlanRepository;
  /** Ids for boleto transactions, reads of them, and their settlement. */
  transactions: TransactionRepository;
  customers: CustomerRepository;
  products: ProductRepository;
  affiliations: AffiliationRepository;
  payments: GatewayRouter;
  scheduler: Scheduler;
  mailer: Mailer;
  clock: Clock;
  ids: Ids;
  /** The change is saved: a failed schedule is reported here and left to the heartbeat's sweep. */
  onScheduleError?: (error: unknown) => void;
  /** One plan that cannot advance must not stop the sweep: reported here, retried next beat. */
  onDueError?: (error: unknown, jobId: string) => void;
  onMailError?: (error: unknown) => void;
  /** A boleto that could not be made unpayable after the plan's save. */
  onCancelError?: (error: unknown) => void;
}
