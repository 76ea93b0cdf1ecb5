import type { PaymentProvider } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';

/**
 * Whether the tenant's provider can charge it now: configured, and for a per-seller provider (Asaas)
 * the seller has connected an account. Checked before anything is written; false answers the 503.
 */
export async function providerReady(provider: PaymentProvider, tenant: Tenant): Promise<boolean> {
  if (!provider.ready) return false;
  return provider.connected ? provider.connected(tenant) : true;
}
