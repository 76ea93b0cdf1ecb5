import {
  getPortal,
  type PortalReadDeps,
  subscriptionConfigOf,
  toPortalSubscription,
} from '#shared/domain/portal/portal';
import type { PortalSession } from '#shared/domain/portal/session';
import { type PortalTokenDeps, verifyPortalToken } from '#shared/domain/portal/verifier';
import type { SubscriptionRepository } from '#shared/domain/ports';
import { toSubscriptionView } from '#shared/domain/subscriptions/subscription';
import { NotFoundError, UnauthorizedError } from '#shared/errors';
import type { PageAnswer } from './page';
import { renderPortalExpiredPage, renderPortalPage } from './portal-page';

export type PortalPageDeps = PortalTokenDeps &
  PortalReadDeps & { subscriptions: Pick<SubscriptionRepository, 'listByCustomer' | 'get'> };

/** The page of a link that opens nothing: no data, whatever the reason. */
const closed = (status: 401 | 404): PageAnswer => ({ status, html: renderPortalExpiredPage() });

type Portal = Awaited<ReturnType<typeof getPortal>>;

/**
 * The customer's list is read through an index, which DynamoDB updates a moment after the write:
 * the page drawn right after an action would show the state before it. The subscription just
 * changed is read again by its key (a consistent read), with its product's configuration, and put
 * in its place.
 */
async function withFresh(deps: PortalPageDeps, session: PortalSession, data: Portal, id: number) {
  const s = await deps.subscriptions.get(session.tenant, id);
  if (!s || s.customer.id !== session.customer.id) return data;
  // Its actions are its own product's to say, as in the list (not the session's configuration).
  const fresh = toPortalSubscription(toSubscriptionView(s), await subscriptionConfigOf(deps, s));
  const known = data.subscriptions.some((x) => x.id === id);
  return {
    ...data,
    subscriptions: known
      ? data.subscriptions.map((x) => (x.id === id ? fresh : x))
      : [fresh, ...data.subscriptions],
  };
}

/** `?updated=` as the script sends it: a subscription id, or nothing (any other text is ignored). */
function updatedId(value: string | undefined): number | null {
  const id = Number(value);
  return value && /^\d{1,15}$/.test(value) && Number.isSafeInteger(id) && id > 0 ? id : null;
}

/**
 * GET /portal?token=…: the portal drawn from the same data GET /api/portal answers. The page checks
 * the token itself (a public route) so that an unknown or expired one gets the Portuguese page with
 * 401 rather than a JSON error; a customer gone since the session was made gets it with 404.
 * `updated` names the subscription an action just changed (the script's re-render after it).
 */
export async function portalPage(
  deps: PortalPageDeps,
  query: { token?: string; updated?: string },
): Promise<PageAnswer> {
  const session = await verifyPortalToken(deps, query.token).catch((error: unknown) => {
    if (error instanceof UnauthorizedError) return null;
    throw error;
  });
  if (!session) return closed(401);
  let data = await getPortal(deps, session).catch((error: unknown) => {
    if (error instanceof NotFoundError) return null;
    throw error;
  });
  if (!data) return closed(404);
  const updated = updatedId(query.updated);
  if (updated !== null) data = await withFresh(deps, session, data, updated);
  return { status: 200, html: renderPortalPage(data, deps.clock.now()) };
}
