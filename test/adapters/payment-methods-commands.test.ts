import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
} from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createPaymentMethodRepository } from '#shared/adapters/dynamodb/payment-method-repository';
import { Table } from '#shared/adapters/dynamodb/table';
import type { DomainEvent } from '#shared/domain/events/events';
import type { PaymentMethod } from '#shared/domain/payment-methods/payment-method';
import { isConflict } from '#shared/errors';
import { cancelled, caught } from '../support/transact-failures';

/** The exact commands the payment method repository sends (inputs as built, before marshalling). */
const ddb = mockClient(DynamoDBDocumentClient);
const TABLE_NAME = 'payment-service-test';
const repo = () =>
  createPaymentMethodRepository(
    new Table({ tableName: TABLE_NAME, client: new DynamoDBClient({ region: 'sa-east-1' }) }),
  );

const NOW = '2026-01-10T15:00:00.000Z';
const CUSTOMER_UUID = 'c0000000-0000-4000-8000-000000000041';
const pm: PaymentMethod = {
  id: 5,
  uuid: 'a0000000-0000-4000-8000-000000000005',
  tenant: { sellerId: 7, environment: 'test' },
  customer: { id: 41, uuid: CUSTOMER_UUID },
  type: 'card',
  brand: 'visa',
  last4: '1111',
  expiryMonth: 3,
  expiryYear: 2026,
  status: 'active',
  provider: 'sandbox',
  token: 'tok_abc',
  expiryNotices: [],
  nextExpiryStepAt: '2026-03-02T03:00:00.000Z',
  expiredAt: null,
  createdAt: NOW,
  updatedAt: NOW,
  version: 1,
};
const KEY = { pk: 'SELLER#7#test', sk: 'PAYMETHOD#000000000005' };
const GUARD = { pk: 'SELLER#7#test', sk: `PAYMETHODCARD#${CUSTOMER_UUID}#sandbox#visa#1111#2026-03` };
const item = {
  ...KEY,
  gsi1pk: `SELLER#7#test#PAYMETHODS#${CUSTOMER_UUID}`,
  gsi1sk: '000000000005',
  gsi2pk: 'DUE#CARD#2026-03',
  gsi2sk: '2026-03-02T03:00:00.000Z#7:test:5',
  entity: 'payment-method',
  sellerId: 7,
  environment: 'test',
  id: 5,
  uuid: pm.uuid,
  customer: pm.customer,
  type: 'card',
  brand: 'visa',
  last4: '1111',
  expiryMonth: 3,
  expiryYear: 2026,
  status: 'active',
  provider: 'sandbox',
  token: 'tok_abc',
  expiryNotices: [],
  nextExpiryStepAt: '2026-03-02T03:00:00.000Z',
  expiredAt: null,
  createdAt: NOW,
  updatedAt: NOW,
  version: 1,
};

const transactions = () => ddb.commandCalls(TransactWriteCommand).map((c) => c.args[0].input);

beforeEach(() => {
  ddb.reset();
});

describe('payment method repository', () => {
  it('creates the method and its card guard in one transaction, both new', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    await repo().create(pm);
    expect(transactions()).toEqual([
      {
        TransactItems: [
          { Put: { TableName: TABLE_NAME, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
          {
            Put: {
              TableName: TABLE_NAME,
              Item: { ...GUARD, entity: 'payment-method-card', version: 1, id: 5 },
              ConditionExpression: 'attribute_not_exists(pk)',
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          },
        ],
      },
    ]);
  });

  it('answers a known card with the method its guard names (one consistent GetItem)', async () => {
    ddb
      .on(TransactWriteCommand)
      .rejects(cancelled([{ Code: 'None' }, { Code: 'ConditionalCheckFailed', Item: { ...GUARD, id: 3 } }]));
    ddb.on(GetCommand).resolves({ Item: { ...item, id: 3, sk: 'PAYMETHOD#000000000003' } });
    const error = await caught(repo().create(pm));
    expect(isConflict(error, 'already_exists')).toBe(true);
    expect((error as { current: PaymentMethod }).current).toMatchObject({ id: 3, token: 'tok_abc' });
    expect(ddb.commandCalls(GetCommand).map((c) => c.args[0].input)).toEqual([
      {
        TableName: TABLE_NAME,
        Key: { pk: 'SELLER#7#test', sk: 'PAYMETHOD#000000000003' },
        ConsistentRead: true,
      },
    ]);
  });

  it('makes an id already taken an already_exists conflict without a current method', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled([{ Code: 'ConditionalCheckFailed' }, { Code: 'None' }]));
    const error = await caught(repo().create(pm));
    expect(isConflict(error, 'already_exists')).toBe(true);
    expect((error as { current?: unknown }).current).toBeUndefined();
  });

  it('saves on the version read with its outbox items, and leaves the sweep index once expired', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    const event: DomainEvent = {
      tenant: pm.tenant,
      envelope: { id: 'evt_1', event: 'payment_method.expired', timestamp: NOW, data: {} },
    };
    const next: PaymentMethod = {
      ...pm,
      status: 'expired',
      nextExpiryStepAt: null,
      expiredAt: NOW,
      version: 2,
    };
    await repo().save(next, pm, [event]);
    const [{ TransactItems }] = transactions() as { TransactItems: Record<string, any>[] }[];
    expect(TransactItems[0]).toEqual({
      Put: {
        TableName: TABLE_NAME,
        Item: (({ gsi2pk: _p, gsi2sk: _s, ...rest }) => rest)({
          ...item,
          status: 'expired',
          nextExpiryStepAt: null,
          expiredAt: NOW,
          version: 2,
        }),
        ConditionExpression: 'attribute_exists(pk) AND version = :v',
        ExpressionAttributeValues: { ':v': 1 },
      },
    });
    expect(TransactItems[1].Put.Item).toMatchObject({ pk: 'EVENT#evt_1', entity: 'outbox-event' });
  });

  it('turns a failed version check into a changed conflict', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled([{ Code: 'ConditionalCheckFailed' }]));
    expect(isConflict(await caught(repo().save({ ...pm, version: 2 }, pm, [])), 'changed')).toBe(true);
    expect(isConflict(await caught(repo().delete(pm)), 'changed')).toBe(true);
  });

  it('deletes the method on the version read together with its guard', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    await repo().delete(pm);
    expect(transactions()).toEqual([
      {
        TransactItems: [
          {
            Delete: {
              TableName: TABLE_NAME,
              Key: KEY,
              ConditionExpression: 'attribute_exists(pk) AND version = :v',
              ExpressionAttributeValues: { ':v': 1 },
            },
          },
          { Delete: { TableName: TABLE_NAME, Key: GUARD } },
        ],
      },
    ]);
  });

  it("lists a customer's methods with one Query on payment-method.byCustomer (gsi1), newest first", async () => {
    ddb.on(QueryCommand).resolves({ Items: [item] });
    expect(await repo().listByCustomer(pm.tenant, CUSTOMER_UUID)).toEqual([pm]);
    expect(ddb.commandCalls(QueryCommand).map((c) => c.args[0].input)).toEqual([
      {
        TableName: TABLE_NAME,
        IndexName: 'gsi1',
        KeyConditionExpression: '#pk = :pk',
        ExpressionAttributeNames: { '#pk': 'gsi1pk' },
        ExpressionAttributeValues: { ':pk': `SELLER#7#test#PAYMETHODS#${CUSTOMER_UUID}` },
        ScanIndexForward: false,
        Limit: 100,
      },
    ]);
  });

  it('sweeps each month bucket on payment-method.byExpiryMonth (gsi2) to its last page, oldest month first (never a Scan)', async () => {
    // The mock answers every bucket with one card whose step is due (the sweep also drops an item
    // whose step is after now, as a page may end past it).
    ddb.on(QueryCommand).resolves({ Items: [{ ...item, gsi2sk: '2026-01-02T03:00:00.000Z#7:test:5' }] });
    const due = await repo().dueExpirySteps(new Date('2026-01-15T12:00:00.000Z'), 2);
    expect(due).toEqual(['7:test:5', '7:test:5', '7:test:5']);
    expect(ddb.commandCalls(QueryCommand).map((c) => c.args[0].input.ExpressionAttributeValues)).toEqual([
      { ':pk': 'DUE#CARD#2025-11', ':now': '2026-01-15T12:00:00.000Z~' },
      { ':pk': 'DUE#CARD#2025-12', ':now': '2026-01-15T12:00:00.000Z~' },
      { ':pk': 'DUE#CARD#2026-01', ':now': '2026-01-15T12:00:00.000Z~' },
    ]);
    expect(ddb.commandCalls(QueryCommand)[0].args[0].input).toMatchObject({
      IndexName: 'gsi2',
      KeyConditionExpression: '#pk = :pk AND #sk <= :now',
      ExpressionAttributeNames: { '#pk': 'gsi2pk', '#sk': 'gsi2sk' },
    });
    // Every page of a month is read (no cap at the first 100 items).
    expect(ddb.commandCalls(QueryCommand)[0].args[0].input.Limit).toBeUndefined();
  });
});
