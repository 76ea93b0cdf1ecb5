import type {
  Clock,
  CustomerRepository,
  GatewayRouter,
  Ids,
  Mailer,
  PaymentMethodRepository,
  ProductRepository,
  Reporter,
  ScheduledChargeRepository,
  Scheduler,
  TransactionRepository,
} from '#shared/domain/ports';

/**
 * What the scheduled-charge engine (use cases, the due job, payments) needs. Use cases take the
 * narrowest Pick of it they can; the container and jobs.ts build the whole.
 */
export interface ScheduledChargeDeps {
  scheduledCharges: ScheduledChargeRepository;
  /** Ids for issued and card transactions, reads of them, and writes of issued ones. */
  transactions: TransactionRepository;
  customers: CustomerRepository;
  products: ProductRepository;
  paymentMethods: PaymentMethodRepository;
  payments: GatewayRouter;
  scheduler: Scheduler;
  mailer: Mailer;
  clock: Clock;
  ids: Ids;
  /** The public base URL pay links are built on. */
  baseUrl: string;
  /**
   * What must not fail the charge's saved change: a failed schedule (the heartbeat's sweep is the
   * backstop), a charge that cannot advance (the sweep goes on, retried next beat).
   */
  reporter: Reporter;
  /** The IP address of the request, when it is the buyer's (a card payment's `remoteIp`). */
  buyerIp?: string;
}
