import type { ApiKeyRecord } from '#shared/domain/auth/api-keys';
import { keys } from '../keys';
import type { Item } from '../table';
import { defineEntity } from './entity';

/** An API key as stored: its record, and whether its seller has another active key in its environment. */
export interface StoredApiKey {
  record: ApiKeyRecord;
  sellerShared: boolean;
}

/** The key's record as an item holds it: the key itself, or its pointer (with the update-set fields). */
const recordOf = (item: Item): ApiKeyRecord => ({
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
});

/** What the key and its pointer both copy of the record. */
const recordAttributes = (record: ApiKeyRecord): Item => ({
  id: record.id,
  sellerId: record.sellerId,
  environment: record.environment,
  name: record.name,
  keyPreview: record.keyPreview,
  permissions: record.permissions,
  createdAt: record.createdAt,
  hash: record.hash,
});

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
    ...recordAttributes(record),
    ...(sellerShared ? { sellerShared: true } : {}),
  }),
  fromItem: (item): StoredApiKey => ({ record: recordOf(item), sellerShared: item.sellerShared === true }),
});

/**
 * A key's pointer in its seller's partition (`APIKEY#<keyId>`): key id to hash, for revocation, with
 * a copy of what the revoke answer shows so revoking needs no second read; `revokedAt` is set by
 * the revocation's update.
 */
export const apiKeyPointerEntity = defineEntity({
  entity: 'api-key-pointer',
  version: 1,
  key: (record: ApiKeyRecord) => keys.apiKeyPointer(record.sellerId, record.id),
  patterns: {},
  attributes: recordAttributes,
  fromItem: recordOf,
});

/** The uniqueness guard of a key's name in its seller's environment, deleted on revocation. */
export const apiKeyNameEntity = defineEntity({
  entity: 'api-key-name',
  version: 1,
  key: (record: ApiKeyRecord) => keys.apiKeyName(record.sellerId, record.environment, record.name),
  patterns: {},
  attributes: (record) => ({ id: record.id }),
  fromItem: (item) => ({ id: String(item.id) }),
});
