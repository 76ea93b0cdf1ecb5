import type { CustomerDirectory, MagicLinkKeyring, ResponsePacer } from '#shared/domain/ports/customer-area';
import type {
  ProviderAccounts,
  ProviderConnectionRepository,
  ProviderLinks,
  SecretCipher,
} from '#shared/domain/ports/provider-connections';
import type {
  AffiliationRepository,
  ApiKeyRepository,
  Atomically,
  AttemptRepository,
  CardTestingKeyring,
  CheckoutSessionRepository,
  Clock,
  ClockScope,
  CustomerAndProductReader,
  CustomerRepository,
  DeliveryRepository,
  EventBus,
  EventLog,
  EventOutbox,
  GatewayRouter,
  HealthRepository,
  IdentityProvider,
  Ids,
  InstallmentPlanRepository,
  MailboxReader,
  Mailer,
  MailLog,
  Messenger,
  Metrics,
  PaymentGateway,
  PaymentMethodRepository,
  PortalConfigRepository,
  PortalSessionRepository,
  PriceRepository,
  ProductRepository,
  Queue,
  RateLimitRepository,
  ReminderSettingsRepository,
  Reporter,
  RequestLogStore,
  SandboxOperations,
  ScheduledChargeRepository,
  Scheduler,
  SellerAccountRepository,
  SubscriptionRepository,
  SubscriptionStartReader,
  TeamRepository,
  TestClockRepository,
  TransactionRepository,
  UrlPolicy,
  WebhookEndpointRepository,
  WebhookSender,
} from './ports';
import type { ReconciliationRepository } from './ports/reconciliations';

/**
 * Every port and setting a use case may take, under one name each. A use case names the part it
 * needs as `Pick<Deps, 'transactions' | 'clock'>`; each container builds one Deps
 * (shared/platform/container.ts) and every handler and job passes it, adding only what belongs to
 * the request (the buyer's IP, a request's log).
 */
export interface Deps {
  // Repositories.
  transactions: TransactionRepository;
  /** Payment attempts, written ahead of every provider call that can move money. */
  attempts: AttemptRepository;
  products: ProductRepository;
  customers: CustomerRepository;
  /** The customer area's view of a customer across sellers. */
  directory: CustomerDirectory;
  customerAndProduct: CustomerAndProductReader;
  affiliations: AffiliationRepository;
  paymentMethods: PaymentMethodRepository;
  /** Checkout sessions. */
  sessions: CheckoutSessionRepository;
  prices: PriceRepository;
  subscriptions: SubscriptionRepository;
  startReader: SubscriptionStartReader;
  scheduledCharges: ScheduledChargeRepository;
  installmentPlans: InstallmentPlanRepository;
  portalSessions: PortalSessionRepository;
  portalConfigs: PortalConfigRepository;
  /** Reminder schedules, channels and opt-outs of sellers and customers. */
  reminderSettings: ReminderSettingsRepository;
  apiKeys: ApiKeyRepository;
  rateLimits: RateLimitRepository;
  health: HealthRepository;
  outbox: EventOutbox;
  /** Webhook endpoints. */
  endpoints: WebhookEndpointRepository;
  deliveries: DeliveryRepository;
  mailLog: MailLog;
  /** The events of the last 30 days with their deliveries. */
  events: EventLog;
  /** Sellers' API requests of the last 7 days (GET /api/request-logs). */
  requestLogs: RequestLogStore;
  /** Sellers that signed up alone, and whether their login has a second factor. */
  sellerAccounts: SellerAccountRepository;
  /** Sellers' teams (members, invitations) and business profiles. */
  team: TeamRepository;
  /** Sellers' live provider connections, their sealed keys and the provider's links to our charges. */
  connections: ProviderConnectionRepository;
  providerAccounts: ProviderAccounts;
  cipher: SecretCipher;
  links: ProviderLinks;
  /** The daily reconciliations with the live provider, one record per tenant and day. */
  reconciliations: ReconciliationRepository;
  /** Sandbox sellers' test clocks and the due index of the work on each. */
  testClocks: TestClockRepository;

  /** Writes that stand or fall together (the unit of work's write side). */
  atomically: Atomically;
  /** Failures that must not fail the use case: a schedule, a mail, a clean-up after the write. */
  reporter: Reporter;

  // Time, ids and the outside world.
  /** Business time: what the local runtime's test clock moves (due dates, schedules, retries). */
  clock: Clock;
  /** Real time, which no test clock moves (credentials, rate limits, webhook signatures). */
  wallClock: Clock;
  /** Whose time `clock` reads: real time, or a sandbox test clock's while work on it runs. */
  clockScope: ClockScope;
  ids: Ids;
  scheduler: Scheduler;
  queue: Queue;
  bus: EventBus;
  /** The provider of each environment: sandbox for test, the live provider for live. */
  payments: GatewayRouter;
  /** The gateway the health check reports (the sandbox). */
  gateway: PaymentGateway;
  /** The live provider (Asaas), which the health check reports beside the sandbox. */
  liveGateway: PaymentGateway;
  sandbox: SandboxOperations;
  mailer: Mailer;
  /** WhatsApp and SMS: a sandbox tenant's are kept in the mailbox, the rest go to the providers. */
  messenger: Messenger;
  mailbox: MailboxReader;
  sender: WebhookSender;
  urlPolicy: UrlPolicy;
  metrics: Metrics;
  identity: IdentityProvider;
  /** The key that seals customer-area magic links. */
  magicLinks: MagicLinkKeyring;
  /** The key of card fingerprints and proof-of-work challenges. */
  cardKeys: CardTestingKeyring;
  /** Holds answers whose timing must not tell what they found (wall time). */
  pacer: ResponsePacer;

  // Settings.
  /** Where links for buyers point (pay links, checkout and portal URLs). */
  publicBaseUrl: string;
  /** Only the local runtime may deliver webhooks to, or redirect to, http://127.0.0.1. */
  allowLocalHttp: boolean;
}
