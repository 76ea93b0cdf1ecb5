import type { Runtime } from '#infra/local/runtime';
import type { PaymentMethod } from '#shared/domain/payment-methods/payment-method';
import { createPortalSession } from '#shared/domain/portal/sessions';
import type { PriceView } from '#shared/domain/subscriptions/price';
import { createPrice } from '#shared/domain/subscriptions/prices';
import { createPriceSchema, createSubscriptionSchema } from '#shared/domain/subscriptions/schemas';
import { type CreateByApiDeps, createSubscriptionByApi } from '#shared/domain/subscriptions/start';
import type { SubscriptionView } from '#shared/domain/subscriptions/subscription';
import type { Tenant } from '#shared/domain/tenant';
import { createSale, createTransactionSchema } from '#shared/domain/transactions/create';
import { sandbox, throwingReporter } from './fixtures';
import type { BenchContext } from './recipes';
import { APPROVED_CARD, buyer, testSeller } from './transaction-recipes';

/**
 * Set-up of the subscription, portal and renewal-job measurements, straight through the domain
 * (no HTTP, not measured, no rate limit): prices, buyers with saved cards, subscriptions started as
 * POST /api/subscriptions starts them (the first cycle charged on the saved card), portal sessions.
 * Everything acts on the test environment: only the sandbox provider keeps saved cards.
 */

/** The container's adapters under the names the subscription use cases take. */
export function subscriptionDeps(runtime: Runtime) {
  const { deps } = runtime;
  return {
    subscriptions: deps.repos.subscriptions,
    prices: deps.repos.prices,
    products: deps.repos.products,
    portalConfigs: deps.repos.portalConfigs,
    customers: deps.repos.customers,
    sessions: deps.repos.checkoutSessions,
    atomically: deps.atomically,
    transactions: deps.repos.transactions,
    attempts: deps.repos.attempts,
    paymentMethods: deps.repos.paymentMethods,
    startReader: deps.repos.subscriptionStartReader,
    payments: deps.payments,
    scheduler: deps.scheduler,
    clock: deps.clock,
    ids: deps.ids,
    reporter: throwingReporter,
  } satisfies CreateByApiDeps & Record<string, unknown>;
}

export interface SubscriptionSeller {
  sellerId: number;
  tenant: Tenant;
  /** Dashboard JWT (live unless the request says X-Environment: test). */
  token: string;
  /** sk_test_ key: its requests act on the test environment. */
  key: string;
  product: { id: number; uuid: string };
  /** A monthly price of the product (no trial unless asked). */
  price: PriceView;
}

/** A monthly price body (unitAmount in reais). */
export const priceBody = (i: number, trialDays = 0) => ({
  name: `Bench plan ${i}`,
  unitAmount: 29.9,
  billingInterval: 'month',
  ...(trialDays > 0 ? { trialDays } : {}),
});

export async function createPrices(ctx: BenchContext, tenant: Tenant, productId: number, count: number) {
  const { deps } = ctx.runtime;
  const priceDeps = {
    prices: deps.repos.prices,
    products: deps.repos.products,
    portalConfigs: deps.repos.portalConfigs,
    clock: deps.clock,
    ids: deps.ids,
  };
  const out: PriceView[] = [];
  for (let i = 0; i < count; i++) {
    out.push(await createPrice(priceDeps, tenant, String(productId), createPriceSchema.parse(priceBody(i))));
  }
  return out;
}

/** A test seller with a product and one monthly price of it. */
export async function subscriptionSeller(ctx: BenchContext): Promise<SubscriptionSeller> {
  const seller = await testSeller(ctx);
  const tenant = sandbox(seller.sellerId);
  const [price] = await createPrices(ctx, tenant, seller.product.id, 1);
  return { ...seller, tenant, price };
}

export interface CardHolder {
  customerId: number;
  customerUuid: string;
  /** The customer's saved cards, oldest first. */
  cards: PaymentMethod[];
}

/** The i-th distinct expiry, from January 2031 on (a card saved twice for a customer is kept once). */
const expiryOf = (i: number) => ({ expiryMonth: (i % 12) + 1, expiryYear: 2031 + Math.floor(i / 12) });

/**
 * `customers` buyers of the seller, each with `cardsPerCustomer` saved cards: cards are saved the
 * way a buyer saves one, by an approved card payment with `saveCard: true`.
 */
export async function cardHolders(
  ctx: BenchContext,
  seller: SubscriptionSeller,
  customers: number,
  cardsPerCustomer = 1,
  number = APPROVED_CARD.number,
): Promise<CardHolder[]> {
  const { deps } = ctx.runtime;
  const saleDeps = {
    products: deps.repos.products,
    portalConfigs: deps.repos.portalConfigs,
    transactions: deps.repos.transactions,
    attempts: deps.repos.attempts,
    customers: deps.repos.customers,
    sessions: deps.repos.checkoutSessions,
    atomically: deps.atomically,
    affiliations: deps.repos.affiliations,
    paymentMethods: deps.repos.paymentMethods,
    payments: deps.payments,
    scheduler: deps.scheduler,
    clock: deps.clock,
    ids: deps.ids,
    reporter: throwingReporter,
  };
  const out: CardHolder[] = [];
  for (let c = 0; c < customers; c++) {
    let customer: { id: number; uuid: string } | undefined;
    for (let k = 0; k < cardsPerCustomer; k++) {
      const body = {
        productId: seller.product.uuid,
        paymentMethod: 'creditcard',
        customer: buyer(seller.sellerId, c),
        card: { ...APPROVED_CARD, number, ...expiryOf(k) },
        saveCard: true,
      };
      customer = (await createSale(saleDeps, createTransactionSchema.parse(body))).customer;
    }
    const { id, uuid } = customer as { id: number; uuid: string };
    const cards = await deps.repos.paymentMethods.listByCustomer(seller.tenant, uuid);
    if (cards.length !== cardsPerCustomer)
      throw new Error(`bench set-up: expected ${cardsPerCustomer} saved cards, found ${cards.length}`);
    out.push({ customerId: id, customerUuid: uuid, cards: [...cards].sort((a, b) => a.id - b.id) });
  }
  return out;
}

/**
 * `count` subscriptions of the holder to the seller's price on its first card, as POST
 * /api/subscriptions starts them: the first cycle is charged on the card at once (active, renewal
 * scheduled at the period's end). Sequential: one tenant's list counters take one write at a time.
 */
export async function subscribe(
  ctx: BenchContext,
  seller: SubscriptionSeller,
  holder: CardHolder,
  count: number,
  status: SubscriptionView['status'] = 'active',
): Promise<SubscriptionView[]> {
  const deps = subscriptionDeps(ctx.runtime);
  const input = createSubscriptionSchema.parse({
    customerId: holder.customerId,
    priceId: seller.price.id,
    paymentMethodId: holder.cards[0].id,
  });
  const out: SubscriptionView[] = [];
  for (let i = 0; i < count; i++) {
    const view = await createSubscriptionByApi(deps, seller.tenant, input);
    if (view.status !== status)
      throw new Error(`bench set-up: a new subscription is ${view.status}, expected ${status}`);
    out.push(view);
  }
  return out;
}

/** A portal session of the holder (one hour); answers its token. */
export async function portalToken(ctx: BenchContext, seller: SubscriptionSeller, holder: CardHolder) {
  const { deps } = ctx.runtime;
  const sessionDeps = {
    portalSessions: deps.repos.portalSessions,
    customers: deps.repos.customers,
    sessions: deps.repos.checkoutSessions,
    atomically: deps.atomically,
    products: deps.repos.products,
    portalConfigs: deps.repos.portalConfigs,
    clock: deps.clock,
    ids: deps.ids,
    publicBaseUrl: deps.config.publicBaseUrl,
    allowLocalHttp: deps.urlPolicy.allowLocalHttp,
  };
  const session = await createPortalSession(sessionDeps, seller.tenant, { customerId: holder.customerId });
  return session.token;
}
