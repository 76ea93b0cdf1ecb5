import type { ApiKeyRecord } from '#shared/domain/auth/api-keys';
import { ApiKeyLimitError, DuplicateKeyNameError } from '#shared/domain/auth/api-keys';
import type { ApiKeyRepository } from '#shared/domain/ports';
import { ConflictError } from '#shared/errors';
import { apiKeyEntity, apiKeyNameEntity, apiKeyPointerEntity } from './entities/api-key';
import { keys } from './keys';
import { countRequest } from './rate-counter';
import {
  alreadyExists,
  ConditionFailedError,
  contended,
  type Item,
  type Table,
  type TransactItem,
} from './table';

const { bySeller } = apiKeyEntity.patterns;
const toRecord = (item: Item): ApiKeyRecord => apiKeyEntity.fromItem(item).record;

/** A create that keeps losing its set to other writes gives up after this many reads. */
const CREATE_ATTEMPTS = 3;

/** The key (by hash), its name guard and its pointer: indexes 0, 1 and 2 of the create transaction. */
function createItems(record: ApiKeyRecord, sellerShared: boolean): TransactItem[] {
  return [
    {
      Put: {
        Item: apiKeyEntity.toItem({ record, sellerShared }),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    { Put: { Item: apiKeyNameEntity.toItem(record), ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { Item: apiKeyPointerEntity.toItem(record), ConditionExpression: 'attribute_not_exists(pk)' } },
  ];
}

export function createApiKeyRepository(table: Table): ApiKeyRepository {
  return {
    async create(record, maxActive) {
      // The seller's set of active keys is read, then written back in the key's transaction on
      // the condition that nobody changed it meanwhile (its revision): the cap holds under
      // concurrent creates, and every key that is not its seller's only one shares the seller's
      // rate limit (sellerShared, set on the new key and on each one already there).
      for (let attempt = 0; attempt < CREATE_ATTEMPTS; attempt++) {
        const setKey = keys.apiKeySet(record.sellerId, record.environment);
        const set = await table.get<Item>(setKey, { consistent: true });
        const active = set?.hashes instanceof Set ? [...(set.hashes as Set<string>)] : [];
        if (maxActive !== undefined && active.length >= maxActive)
          throw new ApiKeyLimitError(maxActive, record.environment);
        try {
          await table.transact([
            ...createItems(record, active.length > 0),
            {
              Update: {
                Key: setKey,
                UpdateExpression: 'SET entity = :entity, version = :one, revision = :next ADD hashes :hash',
                ConditionExpression: set ? 'revision = :revision' : 'attribute_not_exists(pk)',
                ExpressionAttributeValues: {
                  ':entity': 'api-key-set',
                  ':one': 1,
                  ':next': Number(set?.revision ?? 0) + 1,
                  ':hash': new Set([record.hash]),
                  ...(set ? { ':revision': Number(set.revision ?? 0) } : {}),
                },
              },
            },
            ...active.map(
              (hash): TransactItem => ({
                Update: {
                  Key: keys.apiKey(hash),
                  UpdateExpression: 'SET sellerShared = :shared',
                  ConditionExpression: 'attribute_exists(pk)',
                  ExpressionAttributeValues: { ':shared': true },
                },
              }),
            ),
          ]);
          return;
        } catch (error) {
          if (contended(error)) continue;
          if (!(error instanceof ConditionFailedError)) throw error;
          if (error.failedIndexes.includes(1))
            throw new DuplicateKeyNameError(record.name, record.environment);
          if (error.failedIndexes.includes(0) || error.failedIndexes.includes(2))
            throw alreadyExists('The API key')(error);
          // The set changed since it was read (another key created or revoked): read it again.
        }
      }
      throw new ConflictError(
        "Other changes to this seller's API keys ran at the same moment; try again",
        'concurrent_update',
        { reason: 'contended' },
      );
    },

    async list(sellerId, environment) {
      const out: ApiKeyRecord[] = [];
      let cursor: string | undefined;
      do {
        const page = await table.query<Item>({
          IndexName: bySeller.name,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': bySeller.partitionKey },
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
      const item = await table.get<Item>(keys.apiKeyPointer(sellerId, id), { consistent: true });
      const pointer = item ? apiKeyPointerEntity.fromItem(item) : null;
      if (!pointer || pointer.revokedAt) return null;
      const hash = pointer.hash;
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
              Key: apiKeyPointerEntity.key(pointer),
              UpdateExpression: 'SET revokedAt = :at',
              ExpressionAttributeValues: { ':at': at.toISOString() },
            },
          },
          // The name is free again once its key is revoked.
          {
            Delete: { Key: apiKeyNameEntity.key(pointer) },
          },
          // And its place under the cap.
          {
            Update: {
              Key: keys.apiKeySet(sellerId, pointer.environment),
              UpdateExpression:
                'SET entity = :entity, version = :one, revision = if_not_exists(revision, :zero) + :one DELETE hashes :hash',
              ExpressionAttributeValues: {
                ':entity': 'api-key-set',
                ':one': 1,
                ':zero': 0,
                ':hash': new Set([hash]),
              },
            },
          },
        ]);
      } catch (error) {
        if (error instanceof ConditionFailedError) return null;
        throw error;
      }
      // lastUsedAt lives on the key item only (authenticate stamps it there): the answer reads it,
      // as the list does, instead of answering a used key as never used.
      const key = await table.get<Item>(keys.apiKey(hash), { consistent: true });
      return {
        ...pointer,
        lastUsedAt: (key?.lastUsedAt as string | undefined) ?? null,
        revokedAt: at.toISOString(),
      };
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
      return result
        ? {
            record: toRecord(result.item),
            count: result.count,
            sharesSellerLimit: result.item.sellerShared === true,
          }
        : null;
    },

    async isRevoked(hash) {
      const item = await table.get<Item>(keys.apiKey(hash), { consistent: true });
      return item?.revokedAt !== undefined && item.revokedAt !== null;
    },
  };
}
