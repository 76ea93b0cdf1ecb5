import { readNumberedPage } from '#shared/domain/paging';
import type { SubscriptionRepository } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { NotFoundError } from '#shared/errors';
import type { ListSubscriptionsInput } from './schemas';
import { SUBSCRIPTION_NOT_FOUND, type Subscription, toHistoryView, toSubscriptionView } from './subscription';

/**
 * Who is asking: the seller (no customer), or a customer in the portal, who sees only their own
 * subscriptions; another customer's answers exactly like a missing one.
 */
export interface Scope {
  customerId?: number;
}

/** A subscription of the tenant (and of the scope's customer); 404 `Subscription not found` otherwise. */
export async function findSubscription(
  deps: { subscriptions: Pick<SubscriptionRepository, 'get'> },
  tenant: Tenant,
  id: number,
  scope: Scope = {},
): Promise<Subscription> {
  const found = await deps.subscriptions.get(tenant, id);
  if (!found || (scope.customerId !== undefined && found.customer.id !== scope.customerId))
    throw new NotFoundError(SUBSCRIPTION_NOT_FOUND);
  return found;
}

/** GET /api/subscriptions/{id}: the spec's Subscription, unwrapped. */
export async function getSubscription(
  deps: { subscriptions: Pick<SubscriptionRepository, 'get'> },
  tenant: Tenant,
  id: number,
  scope: Scope = {},
) {
  return toSubscriptionView(await findSubscription(deps, tenant, id, scope));
}

/**
 * GET /api/subscriptions: newest first, filtered by status, customer and product (the repository
 * reads the narrowest index and filters the rest).
 */
export async function listSubscriptions(
  deps: { subscriptions: Pick<SubscriptionRepository, 'list'> },
  tenant: Tenant,
  query: ListSubscriptionsInput,
) {
  const page = await readNumberedPage(query, (at) => deps.subscriptions.list(tenant, { ...query, ...at }));
  return {
    data: page.items.map(toSubscriptionView),
    count: page.items.length,
    totalCount: page.totalCount,
    totalPages: Math.ceil(page.totalCount / query.limit),
  };
}

/**
 * GET /api/subscriptions/{id}/events: the history, newest first. History records live in the
 * tenant's partition and every subscription has at least its `subscription.created`, so for the
 * seller an empty answer means no such subscription and one query suffices; the portal reads the
 * subscription first to check whose it is.
 */
export async function listSubscriptionEvents(
  deps: { subscriptions: Pick<SubscriptionRepository, 'get' | 'history'> },
  tenant: Tenant,
  id: number,
  scope: Scope = {},
) {
  if (scope.customerId !== undefined)
    return subscriptionEvents(deps, await findSubscription(deps, tenant, id, scope));
  const entries = await deps.subscriptions.history(tenant, id);
  if (entries.length === 0) await findSubscription(deps, tenant, id);
  return entries.map(toHistoryView);
}

/** The history of a subscription the caller has found (and checked is in its scope), newest first. */
export async function subscriptionEvents(
  deps: { subscriptions: Pick<SubscriptionRepository, 'history'> },
  s: Pick<Subscription, 'tenant' | 'id'>,
) {
  return (await deps.subscriptions.history(s.tenant, s.id)).map(toHistoryView);
}
