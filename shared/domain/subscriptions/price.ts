import type { Tenant } from '#shared/domain/tenant';
import { centavosToReais } from '#shared/money';

export const PRICE_NOT_FOUND = 'Price not found';
export const BILLING_INTERVALS = ['week', 'month', 'year'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];
/** Stripe's bounds: at most one year between charges (52 weeks, 12 months, 1 year). */
export const MAX_INTERVAL_COUNT: Record<BillingInterval, number> = { week: 52, month: 12, year: 1 };
/** Trials up to two years (Stripe's 730 days). */
export const MAX_TRIAL_DAYS = 730;

/**
 * A subscription price of a product (Stripe's recurring Price): what a subscriber pays every
 * `intervalCount` `billingInterval`s. Prices are never deleted, only deactivated: a subscription
 * keeps renewing at the price it started with (it holds a snapshot).
 */
export interface SubscriptionPrice {
  /** From the `subscription-price` sequence. */
  id: number;
  uuid: string;
  tenant: Tenant;
  product: { id: number; uuid: string; name: string };
  name: string;
  /** Centavos, at least 500, never 0 (spec rule 1). */
  unitAmount: number;
  billingInterval: BillingInterval;
  intervalCount: number;
  /** 0 = no trial. */
  trialDays: number;
  isActive: boolean;
  createdAt: string;
  updatedAt: string;
  version: number;
}

export const toPriceView = (p: SubscriptionPrice) => ({
  id: p.id,
  uuid: p.uuid,
  object: 'subscription_price' as const,
  productId: p.product.id,
  productUuid: p.product.uuid,
  product: { id: p.product.id, name: p.product.name },
  name: p.name,
  unitAmount: centavosToReais(p.unitAmount),
  billingInterval: p.billingInterval,
  intervalCount: p.intervalCount,
  trialDays: p.trialDays,
  isActive: p.isActive,
  environment: p.tenant.environment,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});

export type PriceView = ReturnType<typeof toPriceView>;
