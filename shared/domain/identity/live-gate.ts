import { type ApiKeyDeps, createApiKey, type KeyPermissions } from '#shared/domain/auth/api-keys';
import type { Deps } from '#shared/domain/deps';
import { type ConnectionDeps, connectProvider } from '#shared/domain/provider-connections/connections';
import type { DashboardUser } from '#shared/domain/team/roles';
import { userOf } from '#shared/domain/team/team';
import type { Environment } from '#shared/domain/tenant';
import { requireSecondFactor } from './accounts';

type GateDeps = Pick<Deps, 'sellerAccounts'>;

/**
 * The member acting, as the gate reads them: their own login is the one whose second factor counts
 * (a login's TOTP is kept on the seller it signed up, `homeSellerId`), never the seller's signing-up
 * login. An invited admin without an authenticator cannot act live on an owner's seller that has
 * one, and one with an authenticator can on a seller whose owner has none.
 */
type Actor = DashboardUser | undefined;

/** A key made from the dashboard: a live one needs the acting member's second factor first. */
export async function createDashboardApiKey(
  deps: ApiKeyDeps & GateDeps,
  sellerId: number,
  actor: Actor,
  input: { name: string; environment: Environment; permissions?: KeyPermissions },
) {
  if (input.environment === 'live')
    await requireSecondFactor(deps.sellerAccounts, userOf(actor).homeSellerId, 'create a live API key');
  return createApiKey(deps, sellerId, input);
}

/** The provider account serves the seller's live sales: connecting it needs the acting member's second factor first. */
export async function connectLiveProvider(
  deps: ConnectionDeps & GateDeps,
  sellerId: number,
  actor: Actor,
  input: unknown,
) {
  await requireSecondFactor(
    deps.sellerAccounts,
    userOf(actor).homeSellerId,
    'connect a live payment provider',
  );
  return connectProvider(deps, sellerId, input);
}
