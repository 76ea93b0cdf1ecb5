import { type ApiKeyDeps, createApiKey, type KeyPermissions } from '#shared/domain/auth/api-keys';
import type { Deps } from '#shared/domain/deps';
import { type ConnectionDeps, connectProvider } from '#shared/domain/provider-connections/connections';
import type { Environment } from '#shared/domain/tenant';
import { requireSecondFactor } from './accounts';

type GateDeps = Pick<Deps, 'sellerAccounts'>;

/** A key made from the dashboard: a live one needs the login's second factor first. */
export async function createDashboardApiKey(
  deps: ApiKeyDeps & GateDeps,
  sellerId: number,
  input: { name: string; environment: Environment; permissions?: KeyPermissions },
) {
  if (input.environment === 'live')
    await requireSecondFactor(deps.sellerAccounts, sellerId, 'create a live API key');
  return createApiKey(deps, sellerId, input);
}

/** The provider account serves the seller's live sales: connecting it needs the second factor first. */
export async function connectLiveProvider(deps: ConnectionDeps & GateDeps, sellerId: number, input: unknown) {
  await requireSecondFactor(deps.sellerAccounts, sellerId, 'connect a live payment provider');
  return connectProvider(deps, sellerId, input);
}
