import type {
  AffiliationRepository,
  Clock,
  CustomerRepository,
  GatewayRouter,
  Ids,
  InstallmentPlanRepository,
  Mailer,
  ProductRepository,
  Reporter,
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
  /**
   * What must not fail the plan's saved change: a failed schedule (the heartbeat's sweep is the
   * backstop), a plan that cannot advance (the sweep goes on), a reminder, a boleto that could not
   * be made unpayable after the save.
   */
  reporter: Reporter;
}
