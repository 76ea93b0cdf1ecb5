import type { CustomerProfile } from '#shared/domain/customers/customer';
import { CUSTOMER_NOT_FOUND, toPaymentMethodView } from '#shared/domain/payment-methods/payment-method';
import type {
  CustomerRepository,
  PaymentMethodRepository,
  PortalConfigRepository,
  SubscriptionRepository,
} from '#shared/domain/ports';
import { effectivePortalConfig, type PortalSettings } from '#shared/domain/products/portal-config';
import { type SubscriptionView, toSubscriptionView } from '#shared/domain/subscriptions/subscription';
import { ForbiddenError, NotFoundError } from '#shared/errors';
import { INSUFFICIENT_PERMISSIONS, type PortalSession } from './session';

export type PortalConfig = ReturnType<typeof effectivePortalConfig>;

/**
 * The configuration of a session: its product's (the session was created with `productId`), else
 * the seller's, else the defaults. One configuration per session, as Stripe's billing portal has
 * one per session; it governs every subscription the portal shows.
 */
export async function portalConfigOf(
  deps: { portalConfigs: Pick<PortalConfigRepository, 'get' | 'readForProduct'> },
  session: PortalSession,
): Promise<PortalConfig> {
  if (session.productId === null)
    return effectivePortalConfig(null, await deps.portalConfigs.get(session.tenant));
  const found = await deps.portalConfigs.readForProduct(session.tenant, { id: session.productId }, true);
  return effectivePortalConfig(found.product, found.seller);
}

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
  };
}

export type PortalActions = ReturnType<typeof actionsOf>;

/** A subscription as the portal shows it: the API's view and what the customer may do with it. */
export const toPortalSubscription = (view: SubscriptionView, config: PortalConfig) => ({
  ...view,
  actions: actionsOf(view, config),
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
 * The session customer's profile, by the uuid the session names (one key: it joins the request's
 * other reads), and only if it is still the customer of the session's numeric id.
 */
export async function sessionProfile(
  deps: { customers: Pick<CustomerRepository, 'findProfile'> },
  session: PortalSession,
): Promise<CustomerProfile | null> {
  const found = await deps.customers.findProfile(session.tenant, session.customer.uuid);
  return found && found.id === session.customer.id ? found : null;
}

export interface PortalReadDeps {
  customers: Pick<CustomerRepository, 'findProfile'>;
  portalConfigs: Pick<PortalConfigRepository, 'get' | 'readForProduct'>;
  subscriptions: Pick<SubscriptionRepository, 'listByCustomer'>;
  paymentMethods: Pick<PaymentMethodRepository, 'listByCustomer'>;
}

/**
 * GET /api/portal: everything the hosted portal page draws, read in parallel (the customer by the
 * uuid the session names, and the configuration, in one BatchGetItem on DynamoDB): the customer, the
 * session's configuration, the customer's subscriptions with the actions allowed on each, and the
 * active saved cards (the choices of a card change).
 */
export async function getPortal(deps: PortalReadDeps, session: PortalSession) {
  const { tenant, customer } = session;
  const [profile, config, subscriptions, methods] = await Promise.all([
    sessionProfile(deps, session),
    portalConfigOf(deps, session),
    deps.subscriptions.listByCustomer(tenant, customer.id),
    deps.paymentMethods.listByCustomer(tenant, customer.uuid),
  ]);
  if (!profile) throw new NotFoundError(CUSTOMER_NOT_FOUND);
  return {
    sessionId: session.id,
    expiresAt: session.expiresAt,
    returnUrl: session.returnUrl,
    customer: toPortalCustomer(profile),
    configuration: config,
    subscriptions: subscriptions.map((s) => toPortalSubscription(toSubscriptionView(s), config)),
    paymentMethods: methods.filter((m) => m.status === 'active').map(toPaymentMethodView),
  };
}
