import type { ProviderConnection } from '#shared/domain/ports/provider-connections';
import { keys } from '../keys';
import { defineEntity } from './entity';

/**
 * A seller's connected live provider account (its key only encrypted). Its provider pattern lists
 * every connected seller of a provider, for the daily reconciliation: one item per seller, read
 * once a day, so one partition per provider is enough.
 */
export const providerConnectionEntity = defineEntity({
  entity: 'provider-connection',
  version: 1,
  key: (c: ProviderConnection) => keys.providerConnection(c.sellerId, c.provider),
  patterns: {
    byProvider: {
      index: 'gsi1',
      doc: '`PROVIDER#<provider>#CONNECTED` / `<sellerId>` (15 digits): the sellers connected to a provider',
      at: (c) => ({ pk: keys.connectedSellers(c.provider), sk: String(c.sellerId).padStart(15, '0') }),
    },
  },
  attributes: (c) => ({ ...c }),
  fromItem: (item): ProviderConnection => ({
    sellerId: Number(item.sellerId),
    provider: String(item.provider),
    environment: item.environment === 'production' ? 'production' : 'sandbox',
    encryptedApiKey: String(item.encryptedApiKey),
    apiKeyLast4: String(item.apiKeyLast4),
    accountName: String(item.accountName),
    webhookTokenHash: String(item.webhookTokenHash),
    connectedAt: String(item.connectedAt),
  }),
});
