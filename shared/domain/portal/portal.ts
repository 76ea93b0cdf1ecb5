import type { CustomerProfile } from '#shared/domain/customers/customer';
import type { Deps } from '#shared/domain/deps';
import { CUSTOMER_NOT_FOUND, toPaymentMethodView } from '#shared/domain/payment-methods/payment-method';
import { effectivePortalConfig, type PortalSettings } from '#shared/domain/products/portal-config';
import {
  type Subscription,
  type SubscriptionView,
  toSubscriptionView,
} from '#shared/domain/subscriptions/subscription';
import type { Tenant } from '#shared/domain/tenant';
import { ForbiddenError, NotFoundError } from '#shared/errors';
import { INSUFFICIENT_PERMISSIONS, type PortalSession } from './session';

export type PortalConfig = ReturnType<typeof effectivePortalConfig>;

type ConfigDeps = Pick<Deps, 'portalConfigs' | 'team'>;

/**
 * A product's portal configuration: its own, else the seller's, else the defaults (null: the
 * seller's), with the seller's business profile where the configuration names no business, logo or colour.
 */
async function configOfProduct(
  deps: ConfigDeps,
  tenant: Tenant,
  productId: number | null,
): Promise<PortalConfig> {
  const [found, [brand]] = await Promise.all([
    productId === null
      ? deps.portalConfigs.get(tenant).then((seller) => ({ product: null, seller }))
      : deps.portalConfigs.readForProduct(tenant, { id: productId }, true),
    deps.team.profiles([tenant.sellerId]),
  ]);
  return effectivePortalConfig(found.product, found.seller, brand ?? null);
}

/**
 * The configuration of the session (its product's when it was created with `productId`, else the
 * seller's): the page's look and texts, and whether the customer may change their billing data.
 * It never allows anything on a subscription: that is the subscription's own product's to say.
 */
export const portalConfigOf = (deps: ConfigDeps, session: PortalSession): Promise<PortalConfig> =>
  configOfProduct(deps, session.tenant, session.productId);

/**
 * The configuration that governs what the customer may do with a subscription: its own product's,
 * whatever product the session was made for (a session for one product must not open what
 * another product's configuration forbids).
 */
export const subscriptionConfigOf = (
  deps: ConfigDeps,
  subscription: Pick<Subscription, 'tenant' | 'price'>,
): Promise<PortalConfig> => configOfProduct(deps, subscription.tenant, subscription.price.product.id);

type Flag = keyof Pick<
  PortalSettings,
  'allowCancelSubscription' | 'allowUpdatePaymentMethod' | 'allowUpdateBillingInfo' | 'allowViewInvoices'
>;

/** 403 `Insufficient permissions` when the configuration does not allow the action. */
export function requireFlag(config: PortalConfig, flag: Flag): void {
  if (!config[flag]) throw new ForbiddenError(INSUFFICIENT_PERMISSIONS);
}

/**
 * What the customer may do with a subscription now: the configuration's flags and the
 * subscription's state (the same rules the actions enforce; a button the page shows works).
 */
export function actionsOf(s: Pick<SubscriptionView, 'status' | 'pauseCollection'>, config: PortalConfig) {
  const manage = config.allowCancelSubscription;
  // With cancelAtPeriodEndOnly every cancel is one at period end, which only an active one takes.
  const cancellable = config.cancelAtPeriodEndOnly
    ? s.status === 'active'
    : s.status === 'active' || s.status === 'pending' || s.status === 'pending_cancellation';
  return {
    cancel: manage && cancellable,
    pause: manage && s.status === 'active' && s.pauseCollection === null,
    resume:
      manage && s.pauseCollection !== null && (s.status === 'active' || s.status === 'pending_cancellation'),
    reactivate:
      manage && (s.status === 'pending_cancellation' || s.status === 'canceled' || s.status === 'failed'),
    // Any state: a canceled or failed subscription gets the card its reactivation will charge.
    updatePaymentMethod: config.allowUpdatePaymentMethod,
    viewInvoices: config.allowViewInvoices,
  };
}

export type PortalActions = ReturnType<typeof actionsOf>;

/**
 * A subscription as the portal shows it: the API's view, what the customer may do with it and how
 * a cancellation goes, by its own product's configuration (subscriptionConfigOf).
 */
export const toPortalSubscription = (view: SubscriptionView, config: PortalConfig) => ({
  ...view,
  actions: actionsOf(view, config),
  cancelRules: {
    atPeriodEndOnly: config.cancelAtPeriodEndOnly,
    reasonRequired: config.requireCancelReason,
  },
});

export const toPortalCustomer = (
  p: Pick<CustomerProfile, 'id' | 'uuid' | 'name' | 'email' | 'phone' | 'document'>,
) => ({
  id: p.id,
  uuid: p.uuid,
  name: p.name,
  email: p.email,
  phone: p.phone,
  document: p.document,
});

/**
 * The session customer's profile, by the uuid the session names, and only if it is still the
 * customer of the session's numeric id.
 */
export async function sessionProfile(
  deps: Pick<Deps, 'customers'>,
  session: PortalSession,
): Promise<CustomerProfile | null> {
  const found = await deps.customers.findProfile(session.tenant, session.customer.uuid);
  return found && found.id === session.customer.id ? found : null;
}

export type PortalReadDeps = Pick<
  Deps,
  'customers' | 'portalConfigs' | 'subscriptions' | 'paymentMethods' | 'team'
>;

/**
 * GET /api/portal: everything the hosted portal page draws: the customer, the session's
 * configuration, the customer's subscriptions with the actions their own products' configurations
 * allow, and the active saved cards (the choices of a card change). The two lists come first; the
 * profile and every configuration they name are then read together.
 */
export async function getPortal(deps: PortalReadDeps, session: PortalSession) {
  const { tenant, customer } = session;
  const [subscriptions, methods] = await Promise.all([
    deps.subscriptions.listByCustomer(tenant, customer.id),
    deps.paymentMethods.listByCustomer(tenant, customer.uuid),
  ]);
  const productIds = [...new Set(subscriptions.map((s) => s.price.product.id))];
  const [profile, config, configs] = await Promise.all([
    sessionProfile(deps, session),
    portalConfigOf(deps, session),
    Promise.all(productIds.map((id) => configOfProduct(deps, tenant, id))),
  ]);
  if (!profile) throw new NotFoundError(CUSTOMER_NOT_FOUND);
  const configOf = new Map(productIds.map((id, i) => [id, configs[i]]));
  return {
    sessionId: session.id,
    expiresAt: session.expiresAt,
    returnUrl: session.returnUrl,
    customer: toPortalCustomer(profile),
    configuration: config,
    subscriptions: subscriptions.map((s) =>
      toPortalSubscription(toSubscriptionView(s), configOf.get(s.price.product.id) as PortalConfig),
    ),
    paymentMethods: methods.filter((m) => m.status === 'active').map(toPaymentMethodView),
  };
}
