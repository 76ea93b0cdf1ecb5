import type {
  Clock,
  CustomerRepository,
  GatewayRouter,
  Ids,
  Mailer,
  PaymentMethodRepository,
  ProductRepository,
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
  publicBaseUrl: string;
  /** The change is saved: a failed schedule is reported here and left to the heartbeat's sweep. */
  onScheduleError?: (error: unknown) => void;
  /** One charge that cannot advance must not stop the sweep: reported here, retried next beat. */
  onDueError?: (error: unknown, jobId: string) => void;
  /** The IP address of the request, when it is the buyer's (a card payment's `remoteIp`). */
  buyerIp?: string;
}
