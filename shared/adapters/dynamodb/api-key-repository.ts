import type { ApiKeyRecord } from '#shared/domain/auth/api-keys';
import { DuplicateKeyNameError } from '#shared/domain/auth/api-keys';
import type { ApiKeyRepository } from '#shared/domain/ports';
import { keys } from './keys';
import { countRequest } from './rate-counter';
import { alreadyExists, ConditionFailedError, type Item, orConflict, type Table } from './table';
import { TABLE } from './table-definition';

const ENTITY = 'api-key';
/** A seller's keys, newest first. */
const byOwner = TABLE.indexes.byUuidOrOwner;

function toRecord(item: Item): ApiKeyRecord {
  return {
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
  };
}

export function createApiKeyRepository(table: Table): ApiKeyRepository {
  return {
    async create(record) {
      // Key, name guard and pointer in one transaction: the name is unique per environment
      // by condition, never by a read first.
      await orConflict(
        table.transact([
          {
            Put: {
              Item: {
                ...keys.apiKey(record.hash),
                [byOwner.partitionKey]: keys.apiKeysOfSeller(record.sellerId),
                [byOwner.sortKey]: `${record.createdAt}#${record.id}`,
                entity: ENTITY,
                version: 1,
                id: record.id,
                sellerId: record.sellerId,
                environment: record.environment,
                name: record.name,
                keyPreview: record.keyPreview,
                permissions: record.permissions,
                createdAt: record.createdAt,
                hash: record.hash,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              Item: {
                ...keys.apiKeyName(record.sellerId, record.environment, record.name),
                entity: 'api-key-name',
                version: 1,
                id: record.id,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              Item: {
                ...keys.apiKeyPointer(record.sellerId, record.id),
                entity: 'api-key-pointer',
                version: 1,
                // A copy of what the revoke answer shows, so revoking needs no second read.
                id: record.id,
                sellerId: record.sellerId,
                hash: record.hash,
                environment: record.environment,
                name: record.name,
                keyPreview: record.keyPreview,
                permissions: record.permissions,
                createdAt: record.createdAt,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ]),
        (failure) =>
          failure.failedIndexes.includes(1)
            ? new DuplicateKeyNameError(record.name, record.environment)
            : alreadyExists('The API key')(failure),
      );
    },

    async list(sellerId, environment) {
      const out: ApiKeyRecord[] = [];
      let cursor: string | undefined;
      do {
        const page = await table.query<Item>({
          IndexName: byOwner.name,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': byOwner.partitionKey },
          ExpressionAttributeValues: { ':pk': keys.apiKeysOfSeller(sellerId) },
          ScanIndexForward: false,
          cursor,
        });
        out.push(...page.items.map(toRecord));
        cursor = page.cursor;
      } while (cursor);
      return environment ? out.filter((r) => r.environment === environment) : out;
    },

    async revoke(sellerId, id, at) {
      const pointer = await table.get<Item>(keys.apiKeyPointer(sellerId, id), { consistent: true });
      if (!pointer || pointer.revokedAt) return null;
      const hash = String(pointer.hash);
      try {
        await table.transact([
          {
            Update: {
              Key: keys.apiKey(hash),
              UpdateExpression: 'SET revokedAt = :at',
              ConditionExpression:
                'attribute_exists(pk) AND attribute_not_exists(revokedAt) AND sellerId = :seller',
              ExpressionAttributeValues: { ':at': at.toISOString(), ':seller': sellerId },
            },
          },
          {
            Update: {
              Key: keys.apiKeyPointer(sellerId, id),
              UpdateExpression: 'SET revokedAt = :at',
              ExpressionAttributeValues: { ':at': at.toISOString() },
            },
          },
          // The name is free again once its key is revoked.
          {
            Delete: {
              Key: keys.apiKeyName(
                sellerId,
                pointer.environment as ApiKeyRecord['environment'],
                String(pointer.name),
              ),
            },
          },
        ]);
      } catch (error) {
        if (error instanceof ConditionFailedError) return null;
        throw error;
      }
      // lastUsedAt lives on the key item only; the pointer has everything else the answer shows.
      return toRecord({ ...pointer, revokedAt: at.toISOString() });
    },

    async authenticate(hash, at, window) {
      const result = await countRequest({
        table,
        key: keys.apiKey(hash),
        window,
        now: at,
        guard: 'attribute_exists(pk) AND attribute_not_exists(revokedAt)',
        set: { lastUsedAt: at.toISOString() },
      });
      return result ? { record: toRecord(result.item), count: result.count } : null;
    },

    async isRevoked(hash) {
      const item = await table.get<Item>(keys.apiKey(hash), { consistent: true });
      return item?.revokedAt !== undefined && item.revokedAt !== null;
    },
  };
}
