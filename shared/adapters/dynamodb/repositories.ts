import type { Clock } from '#shared/domain/ports';
import { createAffiliationRepository } from './affiliation-repository';
import { createApiKeyRepository } from './api-key-repository';
import { createAttemptRepository } from './attempt-repository';
import { createCheckoutSessionRepository } from './checkout-session-repository';
import { createCustomerDirectory } from './customer-directory';
import { createCustomerAndProductReader } from './customer-product-reader';
import { createCustomerRepository } from './customer-repository';
import { createDeliveryRepository } from './delivery-repository';
import { createHealthRepository } from './health-repository';
import { createIdempotencyRepository } from './idempotency-repository';
import { createInstallmentPlanRepository } from './installment-plan-repository';
import { createMailLog, createSandboxMailbox } from './mail-repository';
import { createEventOutbox } from './outbox';
import { createPaymentMethodRepository } from './payment-method-repository';
import { createPortalConfigRepository } from './portal-config-repository';
import { createPortalSessionRepository } from './portal-session-repository';
import { createPriceRepository } from './price-repository';
import { createProductRepository } from './product-repository';
import { createFailedAuthCounter, createRateLimitRepository } from './rate-limit-repository';
import { createReconciliationRepository } from './reconciliation-repository';
import { createReminderSettingsRepository } from './reminder-settings-repository';
import { createScheduledChargeRepository } from './scheduled-charge-repository';
import { createSellerRepository } from './seller-repository';
import { createSubscriptionRepository } from './subscription-repository';
import { createSubscriptionStartReader } from './subscription-start-reader';
import type { Table } from './table';
import { createTeamRepository } from './team-repository';
import { createTestClockRepository } from './test-clock-repository';
import { createTransactionRepository } from './transaction-repository';
import { createWebhookEndpointRepository } from './webhook-endpoint-repository';

/**
 * Every repository, built once per container from the one table. `clock` is the container's: the
 * few repositories that compare stored instants with now (installment plans) read it.
 */
export function createRepositories(table: Table, clock: Clock = { now: () => new Date() }) {
  return {
    health: createHealthRepository(table),
    apiKeys: createApiKeyRepository(table),
    rateLimits: createRateLimitRepository(table),
    failedAuth: createFailedAuthCounter(table),
    idempotency: createIdempotencyRepository(table),
    sellers: createSellerRepository(table),
    team: createTeamRepository(table),
    outbox: createEventOutbox(table),
    webhookEndpoints: createWebhookEndpointRepository(table),
    reconciliations: createReconciliationRepository(table),
    deliveries: createDeliveryRepository(table),
    customers: createCustomerRepository(table),
    customerDirectory: createCustomerDirectory(table),
    customerAndProduct: createCustomerAndProductReader(table),
    products: createProductRepository(table),
    transactions: createTransactionRepository(table),
    attempts: createAttemptRepository(table),
    portalConfigs: createPortalConfigRepository(table),
    reminderSettings: createReminderSettingsRepository(table),
    sandboxMailbox: createSandboxMailbox(table),
    mailLog: createMailLog(table),
    checkoutSessions: createCheckoutSessionRepository(table),
    affiliations: createAffiliationRepository(table),
    paymentMethods: createPaymentMethodRepository(table),
    prices: createPriceRepository(table),
    subscriptions: createSubscriptionRepository(table),
    subscriptionStartReader: createSubscriptionStartReader(table),
    scheduledCharges: createScheduledChargeRepository(table),
    installmentPlans: createInstallmentPlanRepository(table, clock),
    portalSessions: createPortalSessionRepository(table),
    testClocks: createTestClockRepository(table),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
