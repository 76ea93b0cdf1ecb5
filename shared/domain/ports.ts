/**
 * The ports use cases depend on, one file per area under ./ports/. Adapters live in
 * shared/adapters/<service>/; the local runtime has its own implementations under infra/local/.
 * Domain code and adapters import ports only from this file.
 */
export type { AffiliationRepository } from './ports/affiliates';
export type { AttemptRepository } from './ports/attempts';
export type {
  ApiKeyRepository,
  FailedAuthCounter,
  RateLimitRepository,
  RateState,
  SellerRepository,
} from './ports/auth';
export type { CheckoutSessionRepository, SessionPage, SessionQuery } from './ports/checkout';
export type {
  CustomerAndProductReader,
  CustomerQuery,
  CustomerRepository,
  CustomerSearch,
} from './ports/customers';
export type { EventLog, EventLogQuery } from './ports/events';
export type { HealthRepository } from './ports/health';
export type { BeginOutcome, IdempotencyRepository } from './ports/idempotency';
export type {
  IdentityProvider,
  Refreshed,
  SellerAccountRepository,
  SellerLogin,
  SignedIn,
  SignInOutcome,
  TotpChallenge,
} from './ports/identity';
export type {
  InstallmentPlanChanges,
  InstallmentPlanPage,
  InstallmentPlanQuery,
  InstallmentPlanRepository,
} from './ports/installment-plans';
export type {
  Mailbox,
  MailboxPage,
  MailboxQuery,
  MailboxReader,
  MailLog,
  MailStore,
  MailSummary,
  StoredMail,
} from './ports/mail';
export type {
  BusEvent,
  EventBus,
  EventOutbox,
  Mailer,
  MailMessage,
  Queue,
  QueueMessage,
  ScheduledJob,
  Scheduler,
} from './ports/messaging';
export type { PaymentMethodRepository } from './ports/payment-methods';
export type {
  CardTestingKeyring,
  GatewayHealth,
  GatewayRouter,
  PaidDetails,
  PaymentGateway,
  PaymentProvider,
  ProviderPayment,
  SandboxCardBehaviour,
  SandboxOperations,
  SimulateOptions,
} from './ports/payments';
export type { PortalConfigRepository, ProductRepository } from './ports/products';
export type {
  ChannelMessage,
  CustomerReminderSettings,
  Messenger,
  OptOutRef,
  ReminderContext,
  ReminderSettingsRepository,
  SellerReminderSettings,
  SmsChannelSettings,
  WhatsappChannelSettings,
} from './ports/reminders';
export type { RequestLogEntry, RequestLogQuery, RequestLogSink, RequestLogStore } from './ports/request-log';
export type {
  ScheduledChargeChanges,
  ScheduledChargePage,
  ScheduledChargeQuery,
  ScheduledChargeRepository,
} from './ports/scheduled-charges';
export type {
  PortalSessionRepository,
  PriceRepository,
  SubscriptionChanges,
  SubscriptionPage,
  SubscriptionQuery,
  SubscriptionRepository,
  SubscriptionStartReader,
  SubscriptionStartReads,
} from './ports/subscriptions';
export type { Atomically, Clock, ClockScope, Ids, Metrics, Reporter, SecretKey } from './ports/system';
export type { BusinessProfile, TeamInvitation, TeamMember, TeamRepository } from './ports/team';
export type { TestClockRepository } from './ports/test-clocks';
export type {
  TransactionPage,
  TransactionQuery,
  TransactionRepository,
} from './ports/transactions';
export type {
  AttemptResult,
  DeliveryRef,
  DeliveryRepository,
  DeliveryWithEndpoint,
  Resolver,
  UrlPolicy,
  WebhookEndpointRepository,
  WebhookSender,
  WebhookTarget,
} from './ports/webhooks';
