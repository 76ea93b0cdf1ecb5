import type { ProviderAccounts } from '#shared/domain/ports/provider-connections';
import { BadRequestError, ServiceUnavailableError } from '#shared/errors';
import { type AsaasClient, AsaasRefusal, AsaasUnavailable } from './client';

/** The connection check: GET /myAccount/commercialInfo answers the account's name for a valid key. */
export function asaasAccounts(client: AsaasClient): ProviderAccounts {
  return {
    async accountName(credentials) {
      try {
        const info = await client.request<{ name?: string; companyName?: string }>(
          credentials,
          'GET',
          '/myAccount/commercialInfo',
        );
        return info.companyName || info.name || 'Asaas account';
      } catch (error) {
        if (error instanceof AsaasRefusal)
          throw new BadRequestError(
            `apiKey was refused by Asaas (${credentials.environment}): check the key and its environment`,
            'provider_credentials_invalid',
          );
        if (error instanceof AsaasUnavailable)
          throw new ServiceUnavailableError(
            'Asaas could not be reached to check the key; nothing was stored. Try again later.',
            'provider_unavailable',
          );
        throw error;
      }
    },
  };
}
