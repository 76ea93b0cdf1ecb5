import type { ApiKeyRecord } from '#shared/domain/auth/api-keys';
import { keys } from '../keys';
import { defineEntity } from './entity';

/** An API key as stored: its record, and whether its seller has another active key in its environment. */
export interface StoredApiKey {
  record: ApiKeyRecord;
  sellerShared: boolean;
}

/**
 * An API key, keyed by the SHA-256 of the key. It also holds the key's rate-limit slots (`rl0`,
 * `rl1`, `rlAt`); `lastUsedAt` and `revokedAt` are set by updates, never by the create's Put (the
 * revocation's condition is `attribute_not_exists(revokedAt)`).
 */
export const apiKeyEntity = defineEntity({
  entity: 'api-key',
  version: 1,
  key: ({ record }: StoredApiKey) => keys.apiKey(record.hash),
  patterns: {
    bySeller: {
      index: 'gsi1',
      doc: "`SELLER#<id>#APIKEYS` / `<createdAt>#<keyId>`: a seller's API keys, newest first",
      at: ({ record }) => ({
        pk: keys.apiKeysOfSeller(record.sellerId),
        sk: `${record.createdAt}#${record.id}`,
      }),
    },
  },
  attributes: ({ record, sellerShared }) => ({
    id: record.id,
    sellerId: record.sellerId,
    environment: record.environment,
    name: record.name,
    keyPreview: record.keyPreview,
    permissions: record.permissions,
    createdAt: record.createdAt,
    hash: record.hash,
    ...(sellerShared ? { sellerShared: true } : {}),
  }),
  fromItem: (item): StoredApiKey => ({
    record: {
      id: String(item.id),
      sellerId: Number(item.sellerId),
      environment: item.environment as ApiKeyRecord['environment'],
      name: String(item.name),
      keyPreview: String(item.keyPreview),
      permissions: item.permissions === 'read' ? 'read' : 'write',
      createdAt: String(item.createdAt),
      lastUsedAt: (item.lastUsedAt as string | undefined) ?? null,
      revokedAt: (item.revokedAt as string | undefined) ?? null,
      hash: String(item.hash),
    },
    sellerShared: item.sellerShared === true,
  }),
});
