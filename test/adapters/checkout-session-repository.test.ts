import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createCheckoutSessionRepository } from '#shared/adapters/dynamodb/checkout-session-repository';
import { Table } from '#shared/adapters/dynamodb/table';
import type { CheckoutSession } from '#shared/domain/checkout/session';
import type { DomainEvent } from '#shared/domain/events/events';
import type { SessionQuery } from '#shared/domain/ports';
import type { Tenant } from '#shared/domain/tenant';
import { type ConflictError, isConflict } from '#shared/errors';
import { outboxPut as outboxItem } from '../support/outbox-put';
import { cancelled, caught } from '../support/transact-failures';

/** The exact commands the checkout session repository sends (inputs as built, before marshalling). */
const ddb = mockClient(DynamoDBDocumentClient);
const TABLE_NAME = 'payment-service-test';
const repo = () =>
  createCheckoutSessionRepository(
    new Table({ tableName: TABLE_NAME, client: new DynamoDBClient({ region: 'sa-east-1' }) }),
  );

const TENANT: Tenant = { sellerId: 7, environment: 'test' };
const ID = 'cs_test_a1B2c3D4e5F6g7H8i9J0k1L2';
const CREATED = '2026-03-10T15:00:00.000Z';
const EXPIRES = '2026-03-11T15:00:00.000Z';
/** EXPIRES in epoch seconds, plus the week the marker outlives its hour. */
const MARKER_TTL = 1_773_241_200 + 7 * 86_400;
const OUTBOX_TTL = Math.floor(Date.parse(CREATED) / 1000) + 30 * 86_400;
const SORT = `${CREATED}#${ID}`;
const KEY = { pk: `CHECKOUT#${ID}`, sk: 'SESSION' };

const session: CheckoutSession = {
  id: ID,
  tenant: TENANT,
  status: 'open',
  productId: 42,
  productUuid: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
  priceId: null,
  price: null,
  customer: {
    name: 'Maria Silva',
    email: 'Maria@Example.com',
    document: '52998224725',
    phone: null,
    zipCode: null,
    street: null,
    number: null,
    complement: null,
    neighborhood: null,
    city: null,
    state: null,
  },
  paymentMethods: ['pix', 'card'],
  metadata: { order: 'A-1' },
  successUrl: 'https://shop.example/ok?s={SESSION_ID}',
  cancelUrl: null,
  clientReferenceId: 'ref-1',
  affiliateId: null,
  transactionId: null,
  subscriptionId: null,
  payments: [],
  expiresAt: EXPIRES,
  completedAt: null,
  expiredAt: null,
  createdAt: CREATED,
  updatedAt: CREATED,
  version: 1,
};

/** The session item: its own key, the four list partitions sorted by `<createdAt>#<id>`, the data. */
const item = {
  ...KEY,
  entity: 'checkout-session',
  sellerId: 7,
  environment: 'test',
  gsi1pk: 'SELLER#7#test#SESSIONS',
  gsi1sk: SORT,
  gsi2pk: 'SELLER#7#test#SESSIONS#open',
  gsi2sk: SORT,
  gsi4pk: 'SELLER#7#test#SESSPRODUCT#42',
  gsi4sk: SORT,
  // The e-mail partition is lower case, so a list by e-mail ignores case.
  gsi5pk: 'SELLER#7#test#SESSEMAIL#maria@example.com',
  gsi5sk: SORT,
  id: ID,
  status: 'open',
  productId: 42,
  productUuid: 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee',
  priceId: null,
  price: null,
  customer: session.customer,
  paymentMethods: ['pix', 'card'],
  metadata: { order: 'A-1' },
  successUrl: 'https://shop.example/ok?s={SESSION_ID}',
  cancelUrl: null,
  clientReferenceId: 'ref-1',
  affiliateId: null,
  transactionId: null,
  subscriptionId: null,
  payments: [],
  expiresAt: EXPIRES,
  completedAt: null,
  expiredAt: null,
  createdAt: CREATED,
  updatedAt: CREATED,
  version: 1,
};

const event = (id: string, name: string): DomainEvent => ({
  tenant: TENANT,
  envelope: { id, event: name, timestamp: CREATED, data: { id: ID } },
});

const outboxPut = (e: DomainEvent) => outboxItem(e, TABLE_NAME, OUTBOX_TTL);

const conditionFailed = () =>
  new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });

const transactions = () => ddb.commandCalls(TransactWriteCommand).map((c) => c.args[0].input);
const queries = () => ddb.commandCalls(QueryCommand).map((c) => c.args[0].input);
const query = (q: Partial<SessionQuery> = {}): SessionQuery => ({ page: 1, limit: 20, ...q });

beforeEach(() => {
  ddb.reset();
});

it('builds the epoch constants from the instants', () => {
  expect(Math.floor(Date.parse(EXPIRES) / 1000) + 7 * 86_400).toBe(MARKER_TTL);
});

describe('checkout session repository: create', () => {
  it('puts the session only if its id is new, its expiry marker in the hour bucket and its events, in one transaction', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    const created = event('evt_1', 'checkout.session.expired');

    await repo().create(session, [created]);

    expect(transactions()).toEqual([
      {
        TransactItems: [
          { Put: { TableName: TABLE_NAME, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
          {
            Put: {
              TableName: TABLE_NAME,
              Item: {
                pk: 'DUE#CS#2026-03-11T15',
                sk: `${EXPIRES}#${ID}`,
                entity: 'session-expiry',
                version: 1,
                sessionId: ID,
                expiresAt: EXPIRES,
                ttl: MARKER_TTL,
              },
            },
          },
          outboxPut(created),
        ],
      },
    ]);
  });

  it('leaves a session without e-mail out of the e-mail partition', async () => {
    ddb.on(TransactWriteCommand).resolves({});

    await repo().create({ ...session, customer: { ...session.customer, email: null } }, []);

    const [put] = transactions()[0]?.TransactItems ?? [];
    expect(put?.Put?.Item).not.toHaveProperty('gsi5pk');
    expect(put?.Put?.Item).not.toHaveProperty('gsi5sk');
    expect(put?.Put?.Item).toMatchObject({ gsi1pk: item.gsi1pk, customer: { email: null } });
  });

  it('answers an id already taken with ConflictError already_exists', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled(['ConditionalCheckFailed', 'None']));

    const error = await caught(repo().create(session, []));

    expect(isConflict(error, 'already_exists')).toBe(true);
  });
});

describe('checkout session repository: get', () => {
  it('reads the session by id alone with a consistent GetItem, whatever its tenant', async () => {
    ddb.on(GetCommand).resolves({ Item: { ...item, sellerId: 9, environment: 'live' } });

    expect(await repo().get(ID)).toEqual({ ...session, tenant: { sellerId: 9, environment: 'live' } });
    expect(ddb.commandCalls(GetCommand).map((c) => c.args[0].input)).toEqual([
      { TableName: TABLE_NAME, Key: KEY, ConsistentRead: true },
    ]);
  });

  it('answers null for a missing session', async () => {
    ddb.on(GetCommand).resolves({});

    expect(await repo().get(ID)).toBeNull();
  });
});

describe('checkout session repository: addPayment', () => {
  const AT = '2026-03-10T16:00:00.000Z';
  const payment = {
    transactionId: 1001,
    transactionUuid: '00000000-0000-4000-8000-000000000001',
    method: 'pix' as const,
    createdAt: AT,
  };

  it('appends with one UpdateItem that requires the session open and not past its expiry', async () => {
    ddb.on(UpdateCommand).resolves({});

    await repo().addPayment(ID, payment, AT);

    expect(ddb.commandCalls(UpdateCommand).map((c) => c.args[0].input)).toEqual([
      {
        TableName: TABLE_NAME,
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        Key: KEY,
        UpdateExpression:
          'SET payments = list_append(if_not_exists(payments, :empty), :p), updatedAt = :now, version = version + :one',
        ConditionExpression: '#status = :open AND expiresAt > :now',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':p': [payment], ':empty': [], ':now': AT, ':open': 'open', ':one': 1 },
      },
    ]);
  });

  it('turns the failed condition into ConflictError invalid_state (session_not_open)', async () => {
    ddb.on(UpdateCommand).rejects(conditionFailed());

    const error = await caught(repo().addPayment(ID, payment, AT));

    expect(isConflict(error, 'invalid_state')).toBe(true);
    expect((error as ConflictError).code).toBe('session_not_open');
  });

  it('lets any other failure through unchanged', async () => {
    const outage = new Error('socket hang up');
    ddb.on(UpdateCommand).rejects(outage);

    expect(await caught(repo().addPayment(ID, payment, AT))).toBe(outage);
  });
});

describe('checkout session repository: close', () => {
  const AT = '2026-03-10T16:00:00.000Z';
  const next: CheckoutSession = {
    ...session,
    status: 'complete',
    transactionId: 1001,
    completedAt: AT,
    updatedAt: AT,
    version: 2,
  };

  it('puts the next state only if the stored one is open at the version read, with its events, in one transaction', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    const done = event('evt_2', 'checkout.session.completed');

    await repo().close(next, session, [done]);

    expect(transactions()).toEqual([
      {
        TransactItems: [
          {
            Put: {
              TableName: TABLE_NAME,
              Item: {
                ...item,
                // The status partition moves with the status.
                gsi2pk: 'SELLER#7#test#SESSIONS#complete',
                status: 'complete',
                transactionId: 1001,
                completedAt: AT,
                updatedAt: AT,
                version: 2,
              },
              ConditionExpression: '#status = :open AND version = :v',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':open': 'open', ':v': 1 },
            },
          },
          outboxPut(done),
        ],
      },
    ]);
  });

  it('turns the failed condition into ConflictError changed', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled(['ConditionalCheckFailed', 'None']));

    const error = await caught(repo().close(next, session, []));

    expect(isConflict(error, 'changed')).toBe(true);
    expect((error as ConflictError).code).toBe('concurrent_update');
  });
});

describe('checkout session repository: list', () => {
  /** The query every list sends on `index` with its partition value, the range open at both ends. */
  const on = (index: string, pk: string, sk: string, value: string) => ({
    TableName: TABLE_NAME,
    IndexName: index,
    KeyConditionExpression: '#pk = :pk AND #sk BETWEEN :from AND :to',
    ExpressionAttributeNames: { '#pk': pk, '#sk': sk },
    ExpressionAttributeValues: { ':pk': value, ':from': '0', ':to': '9999~' },
    ScanIndexForward: false,
    Limit: 40,
  });

  it("reads the tenant's partition on checkout-session.byTenant (gsi1), newest first, with no filter", async () => {
    ddb.on(QueryCommand).resolves({ Items: [item], Count: 1, ScannedCount: 1 });

    const page = await repo().list(TENANT, query());

    expect(queries()).toEqual([on('gsi1', 'gsi1pk', 'gsi1sk', 'SELLER#7#test#SESSIONS')]);
    expect(page).toEqual({ items: [session], totalCount: 1, itemsRead: 1 });
  });

  it('picks checkout-session.byStatus (gsi2) for status alone, with no filter expression', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });

    await repo().list(TENANT, query({ status: 'expired' }));

    expect(queries()).toEqual([on('gsi2', 'gsi2pk', 'gsi2sk', 'SELLER#7#test#SESSIONS#expired')]);
  });

  it('picks checkout-session.byProduct (gsi4) for a product, the status and the e-mail as filters on it', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });

    await repo().list(TENANT, query({ productId: 42, status: 'open', customerEmail: 'maria@example.com' }));

    const base = on('gsi4', 'gsi4pk', 'gsi4sk', 'SELLER#7#test#SESSPRODUCT#42');
    expect(queries()).toEqual([
      {
        ...base,
        ExpressionAttributeNames: {
          ...base.ExpressionAttributeNames,
          '#status': 'status',
          '#email': 'gsi5pk',
        },
        ExpressionAttributeValues: {
          ...base.ExpressionAttributeValues,
          ':status': 'open',
          ':email': 'SELLER#7#test#SESSEMAIL#maria@example.com',
        },
        FilterExpression: '#status = :status AND #email = :email',
      },
    ]);
  });

  it('picks checkout-session.byEmail (gsi5) for an e-mail (lower case), the status as a filter on it', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });

    await repo().list(TENANT, query({ customerEmail: 'Maria@Example.com', status: 'complete' }));

    const base = on('gsi5', 'gsi5pk', 'gsi5sk', 'SELLER#7#test#SESSEMAIL#maria@example.com');
    expect(queries()).toEqual([
      {
        ...base,
        ExpressionAttributeNames: { ...base.ExpressionAttributeNames, '#status': 'status' },
        ExpressionAttributeValues: { ...base.ExpressionAttributeValues, ':status': 'complete' },
        FilterExpression: '#status = :status',
      },
    ]);
  });

  it('bounds the sort key by the created range, the upper bound taking every id of its instant', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });

    await repo().list(
      TENANT,
      query({ createdFrom: '2026-03-01T00:00:00.000Z', createdTo: '2026-03-10T15:00:00.000Z' }),
    );

    expect(queries()[0]?.ExpressionAttributeValues).toEqual({
      ':pk': 'SELLER#7#test#SESSIONS',
      ':from': '2026-03-01T00:00:00.000Z',
      ':to': '2026-03-10T15:00:00.000Z~',
    });
  });

  it('reads on from where a filtered page stopped short, asking for twice what is still missing', async () => {
    const lastKey = { pk: KEY.pk, sk: KEY.sk, gsi4pk: item.gsi4pk, gsi4sk: SORT };
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [item], LastEvaluatedKey: lastKey, ScannedCount: 40 })
      .resolvesOnce({ Items: [item, item], ScannedCount: 7 });

    const page = await repo().list(TENANT, query({ limit: 3, status: 'open', productId: 42 }));

    const inputs = queries();
    expect(inputs.map((q) => [q.Limit, q.ExclusiveStartKey])).toEqual([
      [6, undefined],
      [4, lastKey],
    ]);
    expect(inputs[1]?.IndexName).toBe('gsi4');
    expect(page.items).toHaveLength(3);
    expect([page.totalCount, page.itemsRead]).toEqual([3, 47]);
  });

  it('counts a later page with Select COUNT queries over the same key condition and filters, to the end', async () => {
    const lastKey = { pk: KEY.pk, sk: KEY.sk, gsi2pk: item.gsi2pk, gsi2sk: SORT };
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [item, item, item, item], ScannedCount: 4 })
      .resolvesOnce({ Count: 120, LastEvaluatedKey: lastKey })
      .resolvesOnce({ Count: 3 });

    const page = await repo().list(TENANT, query({ page: 2, limit: 2, status: 'open' }));

    const [read, ...counts] = queries();
    const base = on('gsi2', 'gsi2pk', 'gsi2sk', 'SELLER#7#test#SESSIONS#open');
    expect(read).toEqual({ ...base, Limit: 8 });
    const { Limit: _limit, ...unlimited } = base;
    expect(counts).toEqual([
      { ...unlimited, Select: 'COUNT' },
      { ...unlimited, Select: 'COUNT', ExclusiveStartKey: lastKey },
    ]);
    expect(page.items).toHaveLength(2);
    expect(page.totalCount).toBe(123);
  });

  it('takes page 1 of a list that ended as its own total, with no count query', async () => {
    ddb.on(QueryCommand).resolves({ Items: [item, item], ScannedCount: 2 });

    const page = await repo().list(TENANT, query({ limit: 5 }));

    expect(queries()).toHaveLength(1);
    expect(page.totalCount).toBe(2);
  });

  it('counts page 1 too when the list goes on past it', async () => {
    const lastKey = { pk: KEY.pk, sk: KEY.sk, gsi1pk: item.gsi1pk, gsi1sk: SORT };
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [item, item], LastEvaluatedKey: lastKey })
      .resolvesOnce({ Count: 9 });

    const page = await repo().list(TENANT, query({ limit: 2 }));

    expect(queries().map((q) => q.Select)).toEqual([undefined, 'COUNT']);
    expect(page.totalCount).toBe(9);
  });
});

describe('checkout session repository: dueExpiries', () => {
  it('queries each hour bucket from hoursBack to now on the table, oldest first, never a Scan', async () => {
    ddb.on(QueryCommand).resolves({ Items: [] });

    await repo().dueExpiries(new Date('2026-03-11T10:30:00.000Z'), 2);

    expect(queries()).toEqual(
      ['2026-03-11T08', '2026-03-11T09', '2026-03-11T10'].map((hour) => ({
        TableName: TABLE_NAME,
        KeyConditionExpression: 'pk = :pk AND sk <= :now',
        ExpressionAttributeValues: { ':pk': `DUE#CS#${hour}`, ':now': '2026-03-11T10:30:00.000Z~' },
      })),
    );
  });

  it('answers the session ids of the markers due by now, following the pages of a bucket', async () => {
    const marker = (id: string, expiresAt: string) => ({
      pk: `DUE#CS#${expiresAt.slice(0, 13)}`,
      sk: `${expiresAt}#${id}`,
      sessionId: id,
      expiresAt,
    });
    const first = marker('cs_test_1', '2026-03-11T10:05:00.000Z');
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [first], LastEvaluatedKey: { pk: first.pk, sk: first.sk } })
      .resolvesOnce({ Items: [marker('cs_test_2', '2026-03-11T10:30:00.000Z')] });

    const due = await repo().dueExpiries(new Date('2026-03-11T10:30:00.000Z'), 0);

    expect(due).toEqual(['cs_test_1', 'cs_test_2']);
    expect(queries().map((q) => q.ExclusiveStartKey)).toEqual([undefined, { pk: first.pk, sk: first.sk }]);
  });

  it('keeps the bucket query honest: a marker after now is not answered even if the store returns it', async () => {
    ddb.on(QueryCommand).resolves({
      Items: [
        { sessionId: 'cs_test_late', expiresAt: '2026-03-11T10:30:00.001Z' },
        { sessionId: 'cs_test_due', expiresAt: '2026-03-11T10:29:59.999Z' },
      ],
    });

    expect(await repo().dueExpiries(new Date('2026-03-11T10:30:00.000Z'), 0)).toEqual(['cs_test_due']);
  });
});
