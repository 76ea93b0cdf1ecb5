import { apiKeyRoutes } from '#functions/api-keys/routes';
import { authRoutes } from '#functions/auth/routes';
import { chargePaymentRoutes } from '#functions/charge-payments/routes';
import { checkoutRoutes } from '#functions/checkout/routes';
import { customerAreaRoutes } from '#functions/customer-area/routes';
import { customerRoutes } from '#functions/customers/routes';
import { docsRoutes } from '#functions/docs/routes';
import { eventRoutes } from '#functions/events/routes';
import { healthRoutes } from '#functions/health/routes';
import { installmentPlanRoutes } from '#functions/installment-plans/routes';
import { pagesRoutes } from '#functions/pages/routes';
import { portalRoutes } from '#functions/portal/routes';
import { productRoutes } from '#functions/products/routes';
import { providerConnectionRoutes } from '#functions/provider-connections/routes';
import { scheduledChargeRoutes } from '#functions/scheduled-charges/routes';
import { subscriptionRoutes } from '#functions/subscriptions/routes';
import { testHelperRoutes } from '#functions/test-helpers/routes';
import { transactionRoutes } from '#functions/transactions/routes';
import { webhookEndpointRoutes } from '#functions/webhook-endpoints/routes';
import type { RouteGroup } from '#shared/http/types';

/**
 * Every endpoint group, aggregated once. CDK makes one Lambda and its API routes per group, the
 * local gateway serves from the same list, and the bench walks it.
 */
export const httpGroups: RouteGroup[] = [
  healthRoutes,
  apiKeyRoutes,
  webhookEndpointRoutes,
  testHelperRoutes,
  productRoutes,
  transactionRoutes,
  checkoutRoutes,
  subscriptionRoutes,
  scheduledChargeRoutes,
  installmentPlanRoutes,
  customerRoutes,
  docsRoutes,
  pagesRoutes,
  portalRoutes,
  chargePaymentRoutes,
  providerConnectionRoutes,
  customerAreaRoutes,
  authRoutes,
  eventRoutes,
];

/**
 * The function that answers API Gateway's `$default` route (a request no route matches), so an
 * unknown route gets its 404 from the same error mapper as every other answer.
 */
export const defaultRouteGroup = healthRoutes.name;

/** Functions that API Gateway does not call: scheduled jobs, stream, bus and queue consumers. */
export const asyncFunctions = [
  'jobs',
  'outbox-publisher',
  'webhook-fanout',
  'webhook-delivery',
  'notifications',
  'migrations',
  'request-log',
] as const;

export const functionNames = [...httpGroups.map((g) => g.name), ...asyncFunctions];

/** Source file of a function; esbuild bundles it to build/<name>/index.mjs. */
export const entryOf = (name: string) => `functions/${name}/handler.ts`;
