import type { CustomerProfile } from '#shared/domain/customers/customer';
import { findSubscription } from '#shared/domain/subscriptions/queries';
import type { Subscription } from '#shared/domain/subscriptions/subscription';
import type { PortalActionDeps } from './actions';
import { portalConfigOf, sessionProfile, subscriptionConfigOf } from './portal';
import { early, knowing } from './prefetch';
import type { PortalSession } from './session';

export type Profile = () => Promise<CustomerProfile | null>;

/**
 * The reads of an action, started together (one BatchGetItem on DynamoDB): the customer's
 * subscription `id` and, with `profile`, the customer's profile (the session names its uuid). The
 * configuration that rules the action is the subscription's own product's, read once the
 * subscription is known (so another customer's subscription is 404 before any 403); an action on
 * no subscription (billing data) follows the session's configuration.
 */
export function startReads(
  deps: PortalActionDeps,
  session: PortalSession,
  id: number | null,
  profile: boolean,
) {
  const noProfile: Profile = async () => null;
  const noSubscription = async (): Promise<Subscription> => {
    throw new Error('this portal action reads no subscription');
  };
  const subscription =
    id === null ? null : findSubscription(deps, session.tenant, id, { customerId: session.customer.id });
  return {
    config: subscription
      ? subscription.then((s) => subscriptionConfigOf(deps, s))
      : portalConfigOf(deps, session),
    subscription: subscription ? early(subscription) : noSubscription,
    profile: profile ? early(sessionProfile(deps, session)) : noProfile,
  };
}

/** The action's deps with the subscription this request already read (the use case reads it once). */
export const withSubscription = (deps: PortalActionDeps, s: Subscription): PortalActionDeps => ({
  ...deps,
  subscriptions: knowing(
    deps.subscriptions,
    'get',
    (tenant: PortalSession['tenant'], id: number) =>
      id === s.id && tenant.sellerId === s.tenant.sellerId && tenant.environment === s.tenant.environment,
    s,
  ),
});
