import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createApiKeyRepository } from '#shared/adapters/dynamodb/api-key-repository';
import { createCustomerRepository } from '#shared/adapters/dynamodb/customer-repository';
import { createIdempotencyRepository } from '#shared/adapters/dynamodb/idempotency-repository';
import { createProductRepository } from '#shared/adapters/dynamodb/product-repository';
import { createRateLimitRepository } from '#shared/adapters/dynamodb/rate-limit-repository';
import { Table } from '#shared/adapters/dynamodb/table';
import { createTestClockRepository } from '#shared/adapters/dynamodb/test-clock-repository';
import { createTransactionRepository } from '#shared/adapters/dynamodb/transaction-repository';
import { createWebhookEndpointRepository } from '#shared/adapters/dynamodb/webhook-endpoint-repository';
import type { ApiKeyRecord } from '#shared/domain/auth/api-keys';
import { fixedWindow, rateWindow } from '#shared/domain/auth/rate-limit';
import type { CustomerProfile, GlobalCustomer } from '#shared/domain/customers/customer';
import type { DomainEvent } from '#shared/domain/events/events';
import type { Product } from '#shared/domain/products/products';
import type { Tenant } from '#shared/domain/tenant';
import type { TestClock } from '#shared/domain/test-clocks/test-clock';
import type { Transaction } from '#shared/domain/transactions/transaction';
import type { WebhookEndpoint } from '#shared/domain/webhooks/endpoints';
import { outboxPut as outboxItem } from '../support/outbox-put';

/**
 * The exact command each repository sends for its representative write, read back from the
 * mocked Document client (inputs as the repository built them, before marshalling).
 */
const ddb = mockClient(DynamoDBDocumentClient);
const TABLE_NAME = 'payment-service-test';
const table = () => new Table({ tableName: TABLE_NAME, client: new DynamoDBClient({ region: 'sa-east-1' }) });

const NOW = new Date('2026-03-10T15:00:00.000Z');
const NOW_ISO = NOW.toISOString();
const NOW_EPOCH = 1_773_154_800;
const TENANT: Tenant = { sellerId: 7, environment: 'test' };
const TENANT_PK = 'SELLER#7#test';
const OUTBOX_TTL = NOW_EPOCH + 30 * 86_400;

beforeEach(() => {
  ddb.reset();
});

/** The inputs of every call of one command, in order. */
const gets = () => ddb.commandCalls(GetCommand).map((call) => call.args[0].input);
const puts = () => ddb.commandCalls(PutCommand).map((call) => call.args[0].input);
const updates = () => ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input);
const transactions = () => ddb.commandCalls(TransactWriteCommand).map((call) => call.args[0].input);

function event(id: string, name: string, data: unknown): DomainEvent {
  return { tenant: TENANT, envelope: { id, event: name, timestamp: NOW_ISO, data } };
}

const outboxPut = (e: DomainEvent) => outboxItem(e, TABLE_NAME, OUTBOX_TTL);

it('builds the epoch constants from NOW', () => {
  expect(Math.floor(NOW.getTime() / 1000)).toBe(NOW_EPOCH);
});

describe('api key repository: revoke', () => {
  const pointer = {
    pk: 'SELLER#7',
    sk: 'APIKEY#key_01',
    entity: 'api-key-pointer',
    version: 1,
    id: 'key_01',
    sellerId: 7,
    hash: 'f00dcafe',
    environment: 'test',
    name: 'Backend ERP',
    keyPreview: 'sk_test_…a1b2',
    permissions: 'write',
    createdAt: '2026-01-02T03:04:05.000Z',
  };

  it('reads the pointer consistently, revokes key and pointer and frees the name and its place under the cap in one transaction, then reads when the key was last used', async () => {
    ddb.on(GetCommand).resolves({ Item: pointer });
    ddb.on(TransactWriteCommand).resolves({});

    const revoked = await createApiKeyRepository(table()).revoke(7, 'key_01', NOW);

    expect(gets()).toEqual([
      { TableName: TABLE_NAME, Key: { pk: 'SELLER#7', sk: 'APIKEY#key_01' }, ConsistentRead: true },
      { TableName: TABLE_NAME, Key: { pk: 'APIKEY#f00dcafe', sk: 'APIKEY' }, ConsistentRead: true },
    ]);
    expect(transactions()).toEqual([
      {
        TransactItems: [
          {
            Update: {
              TableName: TABLE_NAME,
              Key: { pk: 'APIKEY#f00dcafe', sk: 'APIKEY' },
              UpdateExpression: 'SET revokedAt = :at',
              ConditionExpression:
                'attribute_exists(pk) AND attribute_not_exists(revokedAt) AND sellerId = :seller',
              ExpressionAttributeValues: { ':at': NOW_ISO, ':seller': 7 },
            },
          },
          {
            Update: {
              TableName: TABLE_NAME,
              Key: { pk: 'SELLER#7', sk: 'APIKEY#key_01' },
              UpdateExpression: 'SET revokedAt = :at',
              ExpressionAttributeValues: { ':at': NOW_ISO },
            },
          },
          // The name is kept lower case, so "Backend ERP" frees "backend erp".
          { Delete: { TableName: TABLE_NAME, Key: { pk: TENANT_PK, sk: 'APIKEYNAME#backend erp' } } },
          {
            Update: {
              TableName: TABLE_NAME,
              Key: { pk: TENANT_PK, sk: 'APIKEYSET' },
              UpdateExpression:
                'SET entity = :entity, version = :one, revision = if_not_exists(revision, :zero) + :one DELETE hashes :hash',
              ExpressionAttributeValues: {
                ':entity': 'api-key-set',
                ':one': 1,
                ':zero': 0,
                ':hash': new Set(['f00dcafe']),
              },
            },
          },
        ],
      },
    ]);
    expect(revoked).toMatchObject({ id: 'key_01', revokedAt: NOW_ISO });
  });

  it('sends no write for a key that is already revoked', async () => {
    ddb.on(GetCommand).resolves({ Item: { ...pointer, revokedAt: '2026-02-01T00:00:00.000Z' } });

    await createApiKeyRepository(table()).revoke(7, 'key_01', NOW);

    expect(transactions()).toEqual([]);
  });
});

describe('api key repository: create', () => {
  const record: ApiKeyRecord = {
    id: 'key_02',
    sellerId: 7,
    environment: 'test',
    name: 'Backend ERP',
    keyPreview: 'sk_test_…c3d4',
    permissions: 'write',
    createdAt: NOW_ISO,
    lastUsedAt: null,
    revokedAt: null,
    hash: 'beefbeef',
  };
  const setKey = { pk: TENANT_PK, sk: 'APIKEYSET' };

  it("reads the seller's key set, then writes the key with the set on its revision and marks the keys already there as sharing the seller's limit", async () => {
    ddb.on(GetCommand).resolves({ Item: { ...setKey, hashes: new Set(['f00dcafe']), revision: 3 } });
    ddb.on(TransactWriteCommand).resolves({});

    await createApiKeyRepository(table()).create(record, 50);

    expect(gets()).toEqual([{ TableName: TABLE_NAME, Key: setKey, ConsistentRead: true }]);
    const [{ TransactItems: items }] = transactions() as { TransactItems: Record<string, any>[] }[];
    expect(items).toHaveLength(5);
    expect(items[0].Put.Item).toMatchObject({ pk: 'APIKEY#beefbeef', sellerShared: true });
    expect(items[3]).toEqual({
      Update: {
        TableName: TABLE_NAME,
        Key: setKey,
        UpdateExpression: 'SET entity = :entity, version = :one, revision = :next ADD hashes :hash',
        ConditionExpression: 'revision = :revision',
        ExpressionAttributeValues: {
          ':entity': 'api-key-set',
          ':one': 1,
          ':next': 4,
          ':hash': new Set(['beefbeef']),
          ':revision': 3,
        },
      },
    });
    expect(items[4]).toEqual({
      Update: {
        TableName: TABLE_NAME,
        Key: { pk: 'APIKEY#f00dcafe', sk: 'APIKEY' },
        UpdateExpression: 'SET sellerShared = :shared',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':shared': true },
      },
    });
  });

  it("writes a seller's first key alone, on the condition that the set does not exist yet", async () => {
    ddb.on(GetCommand).resolves({});
    ddb.on(TransactWriteCommand).resolves({});

    await createApiKeyRepository(table()).create(record, 50);

    const [{ TransactItems: items }] = transactions() as { TransactItems: Record<string, any>[] }[];
    expect(items).toHaveLength(4);
    expect(items[0].Put.Item.sellerShared).toBeUndefined();
    expect(items[3].Update.ConditionExpression).toBe('attribute_not_exists(pk)');
  });

  it('writes nothing when the seller already holds the maximum of active keys', async () => {
    const hashes = new Set(Array.from({ length: 50 }, (_, i) => `h${i}`));
    ddb.on(GetCommand).resolves({ Item: { ...setKey, hashes, revision: 50 } });

    await expect(createApiKeyRepository(table()).create(record, 50)).rejects.toMatchObject({
      statusCode: 409,
      code: 'limit_reached',
    });
    expect(transactions()).toEqual([]);
  });
});

describe('product repository: update with optimistic lock', () => {
  const product: Product = {
    id: 42,
    uuid: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
    tenant: TENANT,
    name: 'Curso de Violão',
    image: 'https://cdn.example/violao.png',
    value: 5990,
    description: null,
    pix: true,
    creditCard: true,
    boleto: false,
    installments: 6,
    carne: { enabled: false, maxInstallments: 12, interestFactors: {} },
    isActive: true,
    createdAt: '2026-01-05T10:00:00.000Z',
    updatedAt: NOW_ISO,
    version: 5,
  };
  const productItem = (p: Product) => ({
    pk: TENANT_PK,
    sk: 'PRODUCT#000000000042',
    gsi1pk: 'PRODUCTUUID#aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
    gsi1sk: 'PRODUCT',
    gsi2pk: `${TENANT_PK}#PRODUCTS#${p.isActive ? 'active' : 'archived'}`,
    gsi2sk: '000000000042',
    entity: 'product',
    version: p.version,
    id: 42,
    uuid: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
    sellerId: 7,
    environment: 'test',
    name: 'Curso de Violão',
    // Lower case without accents: what the name search compares.
    nameSearch: 'curso de violao',
    image: 'https://cdn.example/violao.png',
    value: 5990,
    pix: true,
    creditCard: true,
    boleto: false,
    installments: 6,
    carne: { enabled: false, maxInstallments: 12, interestFactors: {} },
    isActive: p.isActive,
    createdAt: '2026-01-05T10:00:00.000Z',
    updatedAt: NOW_ISO,
  });

  /** The product's copy under its uuid (read by GetItem in a sale), put in the same transaction. */
  const copyPut = (p: Product) => {
    const { gsi1pk: _1, gsi1sk: _2, gsi2pk: _3, gsi2sk: _4, ...item } = productItem(p);
    return {
      Put: {
        TableName: TABLE_NAME,
        Item: {
          ...item,
          pk: 'PRODUCTUUID#aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
          sk: 'PRODUCT',
          entity: 'product-copy',
        },
      },
    };
  };

  it('puts the whole product only if the stored version is the one read, with its event', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    const updated = event('evt_p1', 'product.updated', { id: 42 });

    await createProductRepository(table()).save(product, 4, [updated]);

    const [input] = transactions();
    expect(input).toEqual({
      TransactItems: [
        {
          Put: {
            TableName: TABLE_NAME,
            Item: productItem(product),
            ConditionExpression: 'attribute_exists(pk) AND version = :v',
            ExpressionAttributeValues: { ':v': 4 },
          },
        },
        copyPut(product),
        outboxPut(updated),
      ],
    });
    // A null description is left out of the item, not stored as null.
    expect(input.TransactItems?.[0].Put?.Item).not.toHaveProperty('description', null);
  });

  it('moves the tab counters in the same transaction when the product is archived', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    const archived = { ...product, isActive: false, version: 6 };
    const deleted = event('evt_p2', 'product.deleted', { id: 42 });

    await createProductRepository(table()).save(archived, 5, [deleted], { active: -1, archived: 1 });

    const counter = (state: string, delta: number) => ({
      Update: {
        TableName: TABLE_NAME,
        Key: { pk: TENANT_PK, sk: `PRODUCT#~COUNT#${state}` },
        UpdateExpression: 'ADD #c :d SET entity = :e, #ver = :ver, #gpk = :gpk, #gsk = :gsk',
        ExpressionAttributeNames: { '#c': 'count', '#ver': 'version', '#gpk': 'gsi2pk', '#gsk': 'gsi2sk' },
        ExpressionAttributeValues: {
          ':d': delta,
          ':e': 'counter',
          ':ver': 1,
          ':gpk': `${TENANT_PK}#PRODUCTS#${state}`,
          ':gsk': '~COUNT',
        },
      },
    });
    expect(transactions()).toEqual([
      {
        TransactItems: [
          {
            Put: {
              TableName: TABLE_NAME,
              Item: productItem(archived),
              ConditionExpression: 'attribute_exists(pk) AND version = :v',
              ExpressionAttributeValues: { ':v': 5 },
            },
          },
          copyPut(archived),
          counter('active', -1),
          counter('archived', 1),
          outboxPut(deleted),
        ],
      },
    ]);
  });
});

describe('transaction repository: status transition', () => {
  const pix = { qrCode: '000201…6304ABCD', txid: 'txid1001', expiresAt: '2026-03-11T15:00:00.000Z' };
  const previous: Transaction = {
    id: 1001,
    uuid: '00000000-0000-4000-8000-000000000002',
    tenant: TENANT,
    provider: 'sandbox',
    gatewayPayId: 9_000_000_001,
    status: 'pendingPix',
    checkoutSessionId: null,
    clientReferenceId: null,
    affiliate: null,
    paymentMethod: 'pix',
    value: 4990,
    valueSeller: 4941,
    installments: 1,
    customer: {
      id: 501,
      uuid: '00000000-0000-4000-8000-000000000001',
      name: 'Maria Silva',
      email: 'maria@example.com',
      document: '52998224725',
      phone: '11987654321',
    },
    product: { id: 42, uuid: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee', name: 'Curso', value: 4990 },
    pix,
    boleto: null,
    card: null,
    failureCode: null,
    failureReason: null,
    refunds: [],
    refundedAmount: 0,
    paidAt: null,
    canceledAt: null,
    deadline: pix.expiresAt,
    metadata: { orderId: 'A-1' },
    createdAt: '2026-03-10T14:00:00.000Z',
    updatedAt: '2026-03-10T14:00:00.000Z',
    version: 1,
  };
  const next: Transaction = {
    ...previous,
    status: 'payedPix',
    paidAt: NOW_ISO,
    updatedAt: NOW_ISO,
    version: 2,
  };
  const paid = event('evt_t1', 'transaction.payment.succeeded', { id: 1001 });

  const statusCounter = (status: string, delta: number) => ({
    Update: {
      TableName: TABLE_NAME,
      Key: { pk: TENANT_PK, sk: `COUNT#TXN#STATUS#${status}` },
      UpdateExpression: 'ADD #c :d SET entity = :e, #ver = :ver, #ipk = :ipk, #isk = :isk',
      ExpressionAttributeNames: { '#c': 'count', '#ver': 'version', '#ipk': 'gsi2pk', '#isk': 'gsi2sk' },
      ExpressionAttributeValues: {
        ':d': delta,
        ':e': 'counter',
        ':ver': 1,
        ':ipk': `${TENANT_PK}#TXNSTATUS#${status}`,
        ':isk': '~COUNT',
      },
    },
  });

  const methodCounter = (status: string, delta: number) => ({
    Update: {
      TableName: TABLE_NAME,
      Key: { pk: TENANT_PK, sk: `COUNT#TXN#STATUSMETHOD#${status}#pix` },
      UpdateExpression: 'ADD #c :d SET entity = :e, #ver = :ver, #ipk = :ipk, #isk = :isk',
      ExpressionAttributeNames: { '#c': 'count', '#ver': 'version', '#ipk': 'gsi6pk', '#isk': 'gsi6sk' },
      ExpressionAttributeValues: {
        ':d': delta,
        ':e': 'counter',
        ':ver': 1,
        ':ipk': `${TENANT_PK}#TXNSTATUSMETHOD#${status}#pix`,
        ':isk': '~COUNT',
      },
    },
  });

  /** The search index entry under one token of the buyer (a name word, the e-mail, the document). */
  const searchEntry = (token: string) => ({
    Put: {
      TableName: TABLE_NAME,
      Item: {
        pk: `${TENANT_PK}#TXNSEARCH#${token[0]}`,
        sk: `${token}#000000001001`,
        entity: 'transaction-search',
        version: 1,
        id: 1001,
        status: 'payedPix',
        paymentMethod: 'pix',
        productId: 42,
        customerId: 501,
        createdAt: '2026-03-10T14:00:00.000Z',
        words: ' maria silva',
        email: 'maria@example.com',
        document: '52998224725',
      },
    },
  });

  const transactionItem = {
    pk: TENANT_PK,
    sk: 'TXN#000000001001',
    gsi1pk: 'TXNUUID#00000000-0000-4000-8000-000000000002',
    gsi1sk: 'TXN',
    gsi2pk: `${TENANT_PK}#TXNSTATUS#payedPix`,
    gsi2sk: '000000001001',
    gsi3pk: 'GATEWAYPAY#9000000001',
    gsi3sk: 'sandbox#7#test',
    gsi4pk: `${TENANT_PK}#TXNPRODUCT#42`,
    gsi4sk: '000000001001',
    gsi5pk: `${TENANT_PK}#TXNCUSTOMER#501`,
    gsi5sk: '000000001001',
    gsi6pk: `${TENANT_PK}#TXNSTATUSMETHOD#payedPix#pix`,
    gsi6sk: '000000001001',
    // A one-off sale stores no recurrence, no scheduled-charge cycle, no carnê installment, no
    // cleared amount and no chargeback (null, read back as absent).
    recurring: null,
    chargeback: null,
    scheduledCharge: null,
    installmentPlan: null,
    paidAmount: null,
    entity: 'transaction',
    sellerId: 7,
    environment: 'test',
    id: 1001,
    uuid: '00000000-0000-4000-8000-000000000002',
    provider: 'sandbox',
    gatewayPayId: 9_000_000_001,
    status: 'payedPix',
    paymentMethod: 'pix',
    value: 4990,
    valueSeller: 4941,
    installments: 1,
    customer: previous.customer,
    product: previous.product,
    pix,
    boleto: null,
    card: null,
    failureCode: null,
    failureReason: null,
    refunds: [],
    refundedAmount: 0,
    paidAt: NOW_ISO,
    canceledAt: null,
    deadline: pix.expiresAt,
    metadata: { orderId: 'A-1' },
    checkoutSessionId: null,
    clientReferenceId: null,
    affiliate: null,
    createdAt: '2026-03-10T14:00:00.000Z',
    updatedAt: NOW_ISO,
    version: 2,
    lateCharges: null,
    collected: null,
    paidWith: null,
    // The daily figures hold it (entities/transaction.ts, IN_DAILY_FIGURES).
    inDailyFigures: true,
  };

  it('writes the new state if the version is unchanged, moves the status counters, drops the pix expiry marker and adds the event, in one transaction', async () => {
    ddb.on(TransactWriteCommand).resolves({});

    await createTransactionRepository(table()).save(next, previous, [paid]);

    expect(transactions()).toEqual([
      {
        TransactItems: [
          {
            Put: {
              TableName: TABLE_NAME,
              Item: transactionItem,
              ConditionExpression: 'attribute_exists(pk) AND version = :v',
              ExpressionAttributeValues: { ':v': 1 },
            },
          },
          statusCounter('pendingPix', -1),
          statusCounter('payedPix', 1),
          methodCounter('pendingPix', -1),
          methodCounter('payedPix', 1),
          // The daily figures: the pending pix leaves its expiry day, the sale counts on its own day
          // (both in the block of 4 days from 2026-03-08; shard 1001 % 2).
          {
            Update: {
              TableName: TABLE_NAME,
              Key: { pk: `${TENANT_PK}#FIGURES#1`, sk: 'DAYS#2026-03-08' },
              UpdateExpression: 'ADD #a0 :a0, #a1 :a1, #a2 :a2, #a3 :a3 SET entity = :e, #ver = :ver',
              ExpressionAttributeNames: {
                '#ver': 'version',
                '#a0': '3rp',
                '#a1': '2xk',
                '#a2': '2xg',
                '#a3': '2xn',
              },
              ExpressionAttributeValues: {
                ':e': 'daily-figures',
                ':ver': 1,
                ':a0': -4941,
                ':a1': 1,
                ':a2': 4990,
                ':a3': 4941,
              },
            },
          },
          // The search entries carry the status: written again with the new one.
          ...['maria', 'silva', 'maria@example.com', '52998224725'].map(searchEntry),
          {
            Delete: {
              TableName: TABLE_NAME,
              Key: { pk: 'DUE#PIX#2026-03-11T15', sk: '2026-03-11T15:00:00.000Z#7#test#1001' },
            },
          },
          outboxPut(paid),
        ],
      },
    ]);
  });

  it('adds the provider notification marker last, written only if that notification is new', async () => {
    ddb.on(TransactWriteCommand).resolves({});

    await createTransactionRepository(table()).save(next, previous, [paid], {
      provider: 'sandbox',
      id: 'ntf_01',
    });

    const items = transactions()[0].TransactItems ?? [];
    expect(items).toHaveLength(13);
    expect(items[12]).toEqual({
      Put: {
        TableName: TABLE_NAME,
        Item: {
          pk: 'NOTIF#sandbox#ntf_01',
          sk: 'NOTIF',
          entity: 'notification',
          version: 1,
          transactionId: 1001,
          ttl: NOW_EPOCH + 30 * 86_400,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });
  });
});

describe('customer repository: create', () => {
  const global: GlobalCustomer = {
    id: 501,
    uuid: '00000000-0000-4000-8000-000000000001',
    environment: 'test',
    document: '52998224725',
    personType: 'fisica',
    name: 'Maria Silva',
    email: 'Maria@Example.com',
    phone: '11987654321',
    createdAt: NOW_ISO,
  };
  const profile: CustomerProfile = {
    tenant: TENANT,
    id: 501,
    uuid: global.uuid,
    document: global.document,
    personType: 'fisica',
    name: 'Maria Silva',
    email: 'Maria@Example.com',
    phone: '11987654321',
    globalEmail: 'Maria@Example.com',
    emailSource: 'seller',
    billingEmailOverride: null,
    overrideSetBy: null,
    zipCode: '01310100',
    street: null,
    number: null,
    complement: null,
    neighborhood: null,
    city: 'São Paulo',
    state: 'SP',
    overdueCount: 0,
    createdAt: NOW_ISO,
    updatedAt: NOW_ISO,
  };

  it('puts the global customer only if its document is new, with the profile, e-mail pointer and count', async () => {
    ddb.on(TransactWriteCommand).resolves({});

    await createCustomerRepository(table()).createGlobal(global, profile);

    expect(transactions()).toEqual([
      {
        TransactItems: [
          {
            Put: {
              TableName: TABLE_NAME,
              Item: {
                pk: 'CUSTOMER#test#52998224725',
                sk: 'GLOBAL',
                entity: 'customer',
                version: 1,
                environment: 'test',
                id: 501,
                uuid: global.uuid,
                document: '52998224725',
                personType: 'fisica',
                name: 'Maria Silva',
                email: 'Maria@Example.com',
                phone: '11987654321',
                // The sellers with a profile of this customer: a sale reads it with the product.
                sellerIds: new Set([7]),
                createdAt: NOW_ISO,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
              // A sale that assumed a new document learns the stored customer from the refusal.
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          },
          {
            Put: {
              TableName: TABLE_NAME,
              Item: {
                pk: TENANT_PK,
                sk: `CUSTOMER#${global.uuid}`,
                gsi1pk: `${TENANT_PK}#CUSTOMERS`,
                gsi1sk: `${NOW_ISO}#000000000501`,
                gsi2pk: `${TENANT_PK}#CUSTNAME`,
                gsi2sk: `maria silva#${global.uuid}`,
                entity: 'customer-profile',
                version: 1,
                sellerId: 7,
                environment: 'test',
                nameSearch: 'maria silva',
                // Null address fields and the null override are left out of the item.
                id: 501,
                uuid: global.uuid,
                document: '52998224725',
                personType: 'fisica',
                name: 'Maria Silva',
                email: 'Maria@Example.com',
                phone: '11987654321',
                globalEmail: 'Maria@Example.com',
                zipCode: '01310100',
                city: 'São Paulo',
                state: 'SP',
                emailSource: 'seller',
                overdueCount: 0,
                createdAt: NOW_ISO,
                updatedAt: NOW_ISO,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Put: {
              TableName: TABLE_NAME,
              Item: {
                pk: TENANT_PK,
                sk: `CUSTEMAIL#maria@example.com#${global.uuid}`,
                entity: 'customer-email',
                version: 1,
                uuid: global.uuid,
              },
            },
          },
          {
            Update: {
              TableName: TABLE_NAME,
              Key: { pk: TENANT_PK, sk: 'CUSTOMERCOUNT' },
              UpdateExpression: 'SET entity = :entity, #ver = :one, #gpk = :gpk, #gsk = :gsk ADD #v :one',
              ExpressionAttributeNames: {
                '#v': 'value',
                '#ver': 'version',
                '#gpk': 'gsi1pk',
                '#gsk': 'gsi1sk',
              },
              ExpressionAttributeValues: {
                ':one': 1,
                ':entity': 'customer-count',
                ':gpk': `${TENANT_PK}#CUSTOMERS`,
                ':gsk': '~COUNT',
              },
            },
          },
          {
            // The numeric id's pointer to the profile (findProfileById), written with it.
            Put: {
              TableName: TABLE_NAME,
              Item: {
                pk: TENANT_PK,
                sk: 'CUSTOMERID#000000000501',
                entity: 'customer-id',
                uuid: '00000000-0000-4000-8000-000000000001',
                version: 1,
                // A copy of the profile, read with a create's other items (issue 17): no overdue count.
                profile: {
                  sellerId: 7,
                  environment: 'test',
                  id: 501,
                  uuid: global.uuid,
                  document: '52998224725',
                  personType: 'fisica',
                  name: 'Maria Silva',
                  email: 'Maria@Example.com',
                  phone: '11987654321',
                  globalEmail: 'Maria@Example.com',
                  zipCode: '01310100',
                  city: 'São Paulo',
                  state: 'SP',
                  emailSource: 'seller',
                  createdAt: NOW_ISO,
                  updatedAt: NOW_ISO,
                },
              },
            },
          },
          {
            // The global customer's list of sellers (the customer area, issue 15).
            Put: {
              TableName: TABLE_NAME,
              Item: {
                pk: 'CUSTOMER#test#52998224725',
                sk: 'SELLER#000000000007',
                entity: 'customer-seller',
                version: 1,
                sellerId: 7,
                customerId: 501,
                uuid: global.uuid,
              },
            },
          },
          {
            // The customer area finds the global customer by its registration e-mail (issue 15).
            Put: {
              TableName: TABLE_NAME,
              Item: {
                pk: 'CUSTGLOBALEMAIL#test#maria@example.com',
                sk: 'DOC#52998224725',
                entity: 'customer-global-email',
                version: 1,
                document: '52998224725',
              },
            },
          },
        ],
      },
    ]);
  });
});

describe('webhook endpoint repository: create', () => {
  const endpoint: WebhookEndpoint = {
    id: 'we_Endpoint01',
    tenant: TENANT,
    url: 'https://hooks.example.com/payments',
    events: ['transaction.created', 'transaction.payment.succeeded'],
    description: null,
    status: 'enabled',
    secret: 'whsec_secret',
    previousSecret: null,
    createdAt: NOW_ISO,
    updatedAt: NOW_ISO,
  };

  it("puts the endpoint in the tenant partition only if its id is new, with the tenant's count under the cap", async () => {
    ddb.on(TransactWriteCommand).resolves({});

    await createWebhookEndpointRepository(table()).create(endpoint, 20);

    const [{ TransactItems: items }] = transactions() as { TransactItems: Record<string, any>[] }[];
    expect(items.map((i) => i.Put ?? i.Update)).toEqual([
      {
        TableName: TABLE_NAME,
        Item: {
          pk: TENANT_PK,
          sk: 'WEBHOOK#we_Endpoint01',
          entity: 'webhook-endpoint',
          version: 1,
          id: 'we_Endpoint01',
          sellerId: 7,
          environment: 'test',
          url: 'https://hooks.example.com/payments',
          events: ['transaction.created', 'transaction.payment.succeeded'],
          status: 'enabled',
          secret: 'whsec_secret',
          createdAt: NOW_ISO,
          updatedAt: NOW_ISO,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
      {
        TableName: TABLE_NAME,
        Key: { pk: TENANT_PK, sk: 'WEBHOOKCOUNT' },
        UpdateExpression: 'SET entity = :entity, version = :one ADD #n :one',
        ConditionExpression: 'attribute_not_exists(#n) OR #n < :max',
        ExpressionAttributeNames: { '#n': 'endpoints' },
        ExpressionAttributeValues: { ':entity': 'webhook-endpoint-count', ':one': 1, ':max': 20 },
      },
    ]);
  });

  it('deletes an endpoint only if it exists, and gives its place under the cap back in the same transaction', async () => {
    ddb.on(TransactWriteCommand).resolves({});

    await createWebhookEndpointRepository(table()).delete(TENANT, 'we_Endpoint01');

    expect(transactions()).toEqual([
      {
        TransactItems: [
          {
            Delete: {
              TableName: TABLE_NAME,
              Key: { pk: TENANT_PK, sk: 'WEBHOOK#we_Endpoint01' },
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          {
            Update: {
              TableName: TABLE_NAME,
              Key: { pk: TENANT_PK, sk: 'WEBHOOKCOUNT' },
              UpdateExpression: 'ADD #n :minus',
              ExpressionAttributeNames: { '#n': 'endpoints' },
              ExpressionAttributeValues: { ':minus': -1 },
            },
          },
        ],
      },
    ]);
  });
});

describe('test clock repository: create and delete', () => {
  const clock: TestClock = {
    tenant: TENANT,
    id: 'clock_4mQ1ZkTfV0sXb8RrN2cLw7Hd',
    name: null,
    frozenTime: NOW_ISO,
    status: 'ready',
    advancingTo: null,
    createdAt: NOW_ISO,
    updatedAt: NOW_ISO,
    deletesAfter: '2026-04-09T15:00:00.000Z',
    version: 1,
  };

  it("puts the clock with its deletion's hour bucket only if its id is new, with the tenant's count under the cap", async () => {
    ddb.on(TransactWriteCommand).resolves({});

    await createTestClockRepository(table()).create(clock, 100);

    const [{ TransactItems: items }] = transactions() as { TransactItems: Record<string, any>[] }[];
    expect(items.map((i) => i.Put ?? i.Update)).toEqual([
      {
        TableName: TABLE_NAME,
        Item: {
          pk: TENANT_PK,
          sk: `TESTCLOCK#${clock.id}`,
          gsi3pk: 'DUE#CLOCK#2026-04-09T15',
          gsi3sk: `2026-04-09T15:00:00.000Z#7:test:${clock.id}`,
          entity: 'test-clock',
          sellerId: 7,
          environment: 'test',
          id: clock.id,
          name: null,
          frozenTime: NOW_ISO,
          status: 'ready',
          advancingTo: null,
          createdAt: NOW_ISO,
          updatedAt: NOW_ISO,
          deletesAfter: '2026-04-09T15:00:00.000Z',
          version: 1,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
      {
        TableName: TABLE_NAME,
        Key: { pk: TENANT_PK, sk: 'TESTCLOCKCOUNT' },
        UpdateExpression: 'SET entity = :entity, version = :one ADD #n :one',
        ConditionExpression: 'attribute_not_exists(#n) OR #n < :max',
        ExpressionAttributeNames: { '#n': 'clocks' },
        ExpressionAttributeValues: { ':entity': 'test-clock-count', ':one': 1, ':max': 100 },
      },
    ]);
  });

  it('deletes a clock only if it exists, and gives its place under the cap back in the same transaction', async () => {
    ddb.on(TransactWriteCommand).resolves({});

    expect(await createTestClockRepository(table()).delete(TENANT, clock.id)).toBe(true);

    const [{ TransactItems: items }] = transactions() as { TransactItems: Record<string, any>[] }[];
    expect(items).toEqual([
      {
        Delete: {
          TableName: TABLE_NAME,
          Key: { pk: TENANT_PK, sk: `TESTCLOCK#${clock.id}` },
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      {
        Update: {
          TableName: TABLE_NAME,
          Key: { pk: TENANT_PK, sk: 'TESTCLOCKCOUNT' },
          UpdateExpression: 'ADD #n :minus',
          ExpressionAttributeNames: { '#n': 'clocks' },
          ExpressionAttributeValues: { ':minus': -1 },
        },
      },
    ]);
  });
});

describe('idempotency repository: claim', () => {
  const claim = {
    TableName: TABLE_NAME,
    Item: {
      pk: 'IDEMP#7:test:POST /api/v1/products#key-123',
      sk: 'IDEMP',
      entity: 'idempotency',
      version: 1,
      state: 'in_progress',
      fingerprint: 'sha256:abc',
      leaseUntil: NOW_EPOCH + 60,
      ttl: NOW_EPOCH + 86_400,
      createdAt: NOW_ISO,
    },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    ConditionExpression:
      'attribute_not_exists(pk) OR #ttl < :now OR (#state = :running AND leaseUntil < :now)',
    ExpressionAttributeNames: { '#ttl': 'ttl', '#state': 'state' },
    ExpressionAttributeValues: { ':now': NOW_EPOCH, ':running': 'in_progress' },
  };

  it('claims the key with a conditional put that takes over only expired records or abandoned leases', async () => {
    ddb.on(PutCommand).resolves({});

    const outcome = await createIdempotencyRepository(table()).begin(
      '7:test:POST /api/v1/products',
      'key-123',
      'sha256:abc',
      NOW,
    );

    expect(outcome).toEqual({ state: 'started' });
    expect(puts()).toEqual([claim]);
  });

  it('answers the stored response from the old item the failed claim returns, with no second read', async () => {
    const response = { statusCode: 201, body: '{"id":1}', headers: {} };
    ddb.on(PutCommand).rejects(
      new ConditionalCheckFailedException({
        message: 'The conditional request failed',
        $metadata: {},
        Item: marshall({ ...claim.Item, state: 'completed', response }) as never,
      }),
    );

    const outcome = await createIdempotencyRepository(table()).begin(
      '7:test:POST /api/v1/products',
      'key-123',
      'sha256:abc',
      NOW,
    );

    expect(outcome).toEqual({ state: 'completed', fingerprint: 'sha256:abc', response });
    expect(puts()).toEqual([claim]);
    expect(ddb.commandCalls(GetCommand)).toHaveLength(0);
  });
});

describe('rate limit repository: counter update', () => {
  // 15:00:30 is in window 29_552_580 (even), which started at 15:00:00.
  const at = new Date('2026-03-10T15:00:30.000Z');
  const window = rateWindow(at);
  const names = {
    '#cur': 'rl0',
    '#other': 'rl1',
    '#rlAt': 'rlAt',
    '#s0': 'entity',
    '#s1': 'version',
    '#ttl': 'ttl',
  };
  const values = {
    ':now': at.getTime(),
    ':start': NOW.getTime(),
    ':s0': 'rate',
    ':s1': 1,
    ':ttl': NOW_EPOCH + 30 + 3_600,
    ':one': 1,
  };

  it('counts in the window slot and clears the other slot in one update', async () => {
    expect(window).toMatchObject({ index: 29_552_580, startsAt: NOW });
    ddb.on(UpdateCommand).resolves({ Attributes: { rl0: 17 } });

    const count = await createRateLimitRepository(table()).hit('user-1', at, window);

    expect(count).toBe(17);
    expect(updates()).toEqual([
      {
        TableName: TABLE_NAME,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        Key: { pk: 'RATE#user-1', sk: 'RATE' },
        UpdateExpression: 'SET #rlAt = :now, #s0 = :s0, #s1 = :s1, #ttl = :ttl ADD #cur :one REMOVE #other',
        ConditionExpression: '(attribute_not_exists(#cur) OR #rlAt >= :start)',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_NEW',
      },
    ]);
  });

  it('restarts the slot at 1 with a second update when it is left over from an idle gap', async () => {
    ddb
      .on(UpdateCommand)
      .rejectsOnce(
        new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }),
      )
      .resolves({ Attributes: { rl0: 1 } });

    const count = await createRateLimitRepository(table()).hit('user-1', at, window);

    expect(count).toBe(1);
    const [, reset] = updates();
    expect(reset).toEqual({
      TableName: TABLE_NAME,
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      Key: { pk: 'RATE#user-1', sk: 'RATE' },
      UpdateExpression: 'SET #rlAt = :now, #s0 = :s0, #s1 = :s1, #ttl = :ttl, #cur = :one REMOVE #other',
      ConditionExpression: '#rlAt < :start',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
    });
  });
});

describe('rate limit repository: cool-downs and peeks', () => {
  const at = new Date('2026-03-10T15:00:30.000Z');

  it('keeps a day’s counter until its window ends, not an hour', async () => {
    ddb.on(UpdateCommand).resolves({ Attributes: { rl0: 1 } });
    const day = fixedWindow(at, 86_400);
    await createRateLimitRepository(table()).hit('decline:card:7:test:abc', at, day);
    expect(updates()[0].ExpressionAttributeValues?.[':ttl']).toBe(Math.floor(day.resetsAt.getTime() / 1000));
  });

  it('holds a principal with one conditional update beside its counter, never shortening a longer hold', async () => {
    const until = new Date('2026-03-10T16:00:30.000Z');
    ddb
      .on(UpdateCommand)
      .rejects(
        new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }),
      );
    await createRateLimitRepository(table()).hold('decline:ip:test:203.0.113.7', until);
    expect(updates()).toEqual([
      {
        TableName: TABLE_NAME,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        Key: { pk: 'RATE#decline:ip:test:203.0.113.7', sk: 'HOLD' },
        UpdateExpression: 'SET #entity = :entity, #version = :version, #until = :until, #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(#until) OR #until < :until',
        ExpressionAttributeNames: {
          '#entity': 'entity',
          '#version': 'version',
          '#until': 'heldUntil',
          '#ttl': 'ttl',
        },
        ExpressionAttributeValues: {
          ':entity': 'rate-hold',
          ':version': 1,
          ':until': until.getTime(),
          ':ttl': Math.floor(until.getTime() / 1000) + 3_600,
        },
      },
    ]);
  });

  it('peeks at counters and holds in one BatchGetItem', async () => {
    const minute = rateWindow(at);
    ddb.on(BatchGetCommand).resolves({
      Responses: {
        [TABLE_NAME]: [
          { pk: 'RATE#a', sk: 'RATE', rl0: 4, rlAt: at.getTime() - 1_000 },
          { pk: 'RATE#a', sk: 'HOLD', heldUntil: at.getTime() + 60_000 },
          { pk: 'RATE#b', sk: 'RATE', rl0: 9, rlAt: minute.startsAt.getTime() - 1 },
          { pk: 'RATE#b', sk: 'HOLD', heldUntil: at.getTime() },
        ],
      },
    });
    const states = await createRateLimitRepository(table()).peek(
      [
        { principal: 'a', window: minute },
        { principal: 'b', window: minute },
      ],
      at,
    );
    expect(states).toEqual([
      { count: 4, heldUntil: new Date(at.getTime() + 60_000) },
      { count: 0, heldUntil: null },
    ]);
    expect(ddb.commandCalls(BatchGetCommand).map((c) => c.args[0].input)).toEqual([
      {
        RequestItems: {
          [TABLE_NAME]: {
            Keys: [
              { pk: 'RATE#a', sk: 'RATE' },
              { pk: 'RATE#a', sk: 'HOLD' },
              { pk: 'RATE#b', sk: 'RATE' },
              { pk: 'RATE#b', sk: 'HOLD' },
            ],
            ConsistentRead: undefined,
          },
        },
      },
    ]);
  });
});
