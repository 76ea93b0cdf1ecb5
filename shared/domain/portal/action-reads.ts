import type { CustomerProfile } from '#shared/domain/customers/customer';
import { findSubscription } from '#shared/domain/subscriptions/queries';
import type { Subscription } from '#shared/domain/subscriptions/subscription';
import type { PortalActionDeps } from './actions';
import { portalConfigOf, sessionProfile } from './portal';
import { early, knowing } from './prefetch';
import type { PortalSession } from './session';

export type Profile = () => Promise<CustomerProfile | null>;

/**
 * The reads of an action, started together (one BatchGetItem on DynamoDB): the session's
 * configuration, the customer's subscription `id` (taken after the configuration's checks, so a
 * refused action answers 403 even for another customer's subscription) and, with `profile`, the
 * customer's profile (the session names its uuid).
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
  return {
    config: portalConfigOf(deps, session),
    subscription:
      id === null
        ? noSubscription
        : early(findSubscription(deps, session.tenant, id, { customerId: session.customer.id })),
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
