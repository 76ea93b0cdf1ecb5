import type { ChargeResult } from '#shared/domain/payments/gateway';
import type {
  ProviderChargeLink,
  ProviderConnectionRepository,
  ProviderLinks,
  ProviderPixAuthorization,
} from '#shared/domain/ports/provider-connections';
import { ConflictError } from '#shared/errors';
import { providerConnectionEntity } from './entities/provider-connection';
import { keys } from './keys';
import { ConditionFailedError, type Item, TABLE, type Table, type TransactItem } from './table';

const notExists = { condition: 'attribute_not_exists(#pk)', names: { '#pk': TABLE.partitionKey } };

/** A seller's provider connection; the webhook token pointer changes with it in one transaction. */
export function createProviderConnectionRepository(table: Table): ProviderConnectionRepository {
  const toConnection = providerConnectionEntity.fromItem;
  const { byProvider } = providerConnectionEntity.patterns;
  return {
    async get(sellerId, provider) {
      const item = await table.get<Item>(keys.providerConnection(sellerId, provider), { consistent: true });
      return item ? toConnection(item) : null;
    },
    async save(connection) {
      const previous = await table.get<Item>(
        keys.providerConnection(connection.sellerId, connection.provider),
        {
          consistent: true,
        },
      );
      await table.transact([
        ...(previous && previous.webhookTokenHash !== connection.webhookTokenHash
          ? [
              {
                Delete: {
                  Key: keys.providerWebhookToken(connection.provider, String(previous.webhookTokenHash)),
                },
              },
            ]
          : []),
        { Put: { Item: providerConnectionEntity.toItem(connection) } },
        {
          Put: {
            Item: {
              ...keys.providerWebhookToken(connection.provider, connection.webhookTokenHash),
              entity: 'provider-webhook-token',
              version: 1,
              sellerId: connection.sellerId,
            },
          },
        },
      ]);
    },
    async remove(connection) {
      const { sellerId, provider, webhookTokenHash } = connection;
      try {
        await table.transact([
          {
            Delete: {
              Key: keys.providerConnection(sellerId, provider),
              // The connection as read: a replacement in between keeps its own token pointer.
              ConditionExpression: 'webhookTokenHash = :hash',
              ExpressionAttributeValues: { ':hash': webhookTokenHash },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          } as TransactItem,
          { Delete: { Key: keys.providerWebhookToken(provider, webhookTokenHash) } },
        ]);
        return true;
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        if (!error.itemAt(0)) return false;
        throw new ConflictError(
          'The provider connection changed at the same time; retry',
          'concurrent_update',
          {
            reason: 'changed',
            cause: error,
          },
        );
      }
    },
    async connectedSellers(provider, cursor) {
      const page = await table.query<Item>({
        IndexName: byProvider.name,
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': byProvider.partitionKey },
        ExpressionAttributeValues: { ':pk': keys.connectedSellers(provider) },
        cursor,
      });
      return { sellerIds: page.items.map((i) => Number(i.sellerId)), cursor: page.cursor };
    },
    async sellerOfWebhookToken(provider, tokenHash) {
      const item = await table.get<Item>(keys.providerWebhookToken(provider, tokenHash));
      return item ? Number(item.sellerId) : null;
    },
  };
}

/** What the live provider adapter remembers between calls (see ProviderLinks). */
export function createProviderLinks(table: Table, provider: string): ProviderLinks {
  return {
    async customerId(sellerId, account, document) {
      const item = await table.get<Item>(keys.providerCustomer(provider, sellerId, account, document));
      return item ? String(item.customerId) : null;
    },
    async saveCustomer(sellerId, account, document, customerId) {
      await table.put({
        ...keys.providerCustomer(provider, sellerId, account, document),
        entity: 'provider-customer',
        version: 1,
        customerId,
      });
    },
    async reserveCharge(link: ProviderChargeLink) {
      await table.put(
        {
          ...keys.providerCharge(provider, link.gatewayPayId),
          entity: 'provider-charge',
          version: 1,
          ...link,
        },
        {
          ConditionExpression: notExists.condition,
          ExpressionAttributeNames: notExists.names,
        },
      );
    },
    async linkCharge(gatewayPayId, providerPaymentId) {
      await table.update({
        Key: keys.providerCharge(provider, gatewayPayId),
        UpdateExpression: 'SET providerPaymentId = :id',
        ExpressionAttributeValues: { ':id': providerPaymentId },
      });
    },
    async charge(gatewayPayId) {
      const item = await table.get<Item>(keys.providerCharge(provider, gatewayPayId), { consistent: true });
      if (!item) return null;
      return {
        gatewayPayId: Number(item.gatewayPayId),
        providerPaymentId: String(item.providerPaymentId ?? ''),
        sellerId: Number(item.sellerId),
        method: item.method as ProviderChargeLink['method'],
        amountCentavos: Number(item.amountCentavos),
      };
    },
    async replayed(sellerId, key) {
      const item = await table.get<Item>(keys.providerIdempotency(provider, sellerId, key), {
        consistent: true,
      });
      return item?.result ? (item.result as ChargeResult) : null;
    },
    async reserveKey(sellerId, key, gatewayPayId) {
      const item = {
        ...keys.providerIdempotency(provider, sellerId, key),
        entity: 'provider-idempotency',
        version: 1,
        gatewayPayId,
        result: null,
      };
      try {
        await table.put(item, {
          ConditionExpression: notExists.condition,
          ExpressionAttributeNames: notExists.names,
        });
        return gatewayPayId;
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
        const first = await table.get<Item>(keys.providerIdempotency(provider, sellerId, key), {
          consistent: true,
        });
        return Number(first?.gatewayPayId ?? gatewayPayId);
      }
    },
    async remember(sellerId, key, result) {
      await table.put({
        ...keys.providerIdempotency(provider, sellerId, key),
        entity: 'provider-idempotency',
        version: 1,
        gatewayPayId: result.gatewayPayId,
        result,
      });
    },
    async rememberCardIp(sellerId, tokenHash, ip) {
      await table.put({
        ...keys.providerCardIp(provider, sellerId, tokenHash),
        entity: 'provider-card-ip',
        version: 1,
        ip,
      });
    },
    async cardIp(sellerId, tokenHash) {
      const item = await table.get<Item>(keys.providerCardIp(provider, sellerId, tokenHash));
      return item ? String(item.ip) : null;
    },
    async savePixAuthorization(a) {
      await table.transact([
        {
          Put: {
            Item: {
              ...keys.providerPixAuthorization(provider, a.authorizationId),
              entity: 'provider-pix-authorization',
              version: 1,
              ...a,
            },
            ConditionExpression: notExists.condition,
            ExpressionAttributeNames: notExists.names,
          },
        },
        {
          Put: {
            Item: {
              ...keys.providerPixConciliation(provider, a.conciliationId),
              entity: 'provider-pix-conciliation',
              version: 1,
              authorizationId: a.authorizationId,
            },
            ConditionExpression: notExists.condition,
            ExpressionAttributeNames: notExists.names,
          },
        },
      ]);
    },
    async pixAuthorization(authorizationId) {
      const item = await table.get<Item>(keys.providerPixAuthorization(provider, authorizationId), {
        consistent: true,
      });
      return item ? toPixAuthorization(item) : null;
    },
    async pixAuthorizationOfConciliation(conciliationId) {
      const pointer = await table.get<Item>(keys.providerPixConciliation(provider, conciliationId), {
        consistent: true,
      });
      return pointer ? this.pixAuthorization(String(pointer.authorizationId)) : null;
    },
    async setPixAuthorizationStatus(authorizationId, status) {
      try {
        // Revocation is final (BCB: a cancelled, refused or expired authorization never comes back).
        await table.update({
          Key: keys.providerPixAuthorization(provider, authorizationId),
          UpdateExpression: 'SET #s = :s, version = version + :one',
          ConditionExpression: 'attribute_exists(#pk) AND #s <> :revoked',
          ExpressionAttributeNames: { '#s': 'status', '#pk': TABLE.partitionKey },
          ExpressionAttributeValues: { ':s': status, ':revoked': 'revoked', ':one': 1 },
        });
      } catch (error) {
        if (!(error instanceof ConditionFailedError)) throw error;
      }
    },
  };
}

const toPixAuthorization = (item: Item): ProviderPixAuthorization => ({
  authorizationId: String(item.authorizationId),
  sellerId: Number(item.sellerId),
  account: String(item.account),
  customerId: String(item.customerId),
  gatewayPayId: Number(item.gatewayPayId),
  conciliationId: String(item.conciliationId),
  maxAmountCentavos: Number(item.maxAmountCentavos),
  status: item.status as ProviderPixAuthorization['status'],
});
