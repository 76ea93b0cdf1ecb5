import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { createAffiliationRepository } from '#shared/adapters/dynamodb/affiliation-repository';
import { Table } from '#shared/adapters/dynamodb/table';
import { type Affiliation, UnknownAffiliateError } from '#shared/domain/affiliates/affiliation';
import type { Tenant } from '#shared/domain/tenant';
import { isConflict } from '#shared/errors';
import { cancelled, caught } from '../support/transact-failures';

/** The exact commands the affiliation repository sends (inputs as built, before marshalling). */
const ddb = mockClient(DynamoDBDocumentClient);
const TABLE_NAME = 'payment-service-test';
const repo = () =>
  createAffiliationRepository(
    new Table({ tableName: TABLE_NAME, client: new DynamoDBClient({ region: 'sa-east-1' }) }),
  );

const NOW = '2026-03-10T15:00:00.000Z';
const LATER = '2026-03-11T15:00:00.000Z';
const TENANT: Tenant = { sellerId: 7, environment: 'test' };
const KEY = { pk: 'SELLER#7#test', sk: 'AFFIL#000000000042#000000000000031' };
const affiliation: Affiliation = {
  tenant: TENANT,
  productId: 42,
  affiliateId: 31,
  commissionBasisPoints: 1_250,
  status: 'active',
  createdAt: NOW,
  updatedAt: NOW,
  endedAt: null,
};
const item = {
  ...KEY,
  entity: 'affiliation',
  version: 1,
  sellerId: 7,
  environment: 'test',
  productId: 42,
  affiliateId: 31,
  commissionBasisPoints: 1_250,
  status: 'active',
  createdAt: NOW,
  updatedAt: NOW,
};

beforeEach(() => {
  ddb.reset();
});

describe('affiliation repository', () => {
  it('adds in one transaction: the affiliate seller must exist, the pair must be new or ended', async () => {
    ddb.on(TransactWriteCommand).resolves({});
    await repo().add(affiliation);
    const calls = ddb.commandCalls(TransactWriteCommand).map((c) => c.args[0].input);
    expect(calls).toEqual([
      {
        TransactItems: [
          {
            ConditionCheck: {
              TableName: TABLE_NAME,
              Key: { pk: 'SELLER#31', sk: 'PROFILE' },
              ConditionExpression: 'attribute_exists(pk)',
            },
          },
          {
            Put: {
              TableName: TABLE_NAME,
              Item: item,
              ConditionExpression: 'attribute_not_exists(pk) OR #s = :ended',
              ExpressionAttributeNames: { '#s': 'status' },
              ExpressionAttributeValues: { ':ended': 'ended' },
            },
          },
        ],
      },
    ]);
  });

  it.each([
    [['ConditionalCheckFailed', 'None'], 'unknown affiliate'],
    [['ConditionalCheckFailed', 'ConditionalCheckFailed'], 'unknown affiliate'],
    [['None', 'ConditionalCheckFailed'], 'already exists'],
  ])('maps the cancellation reasons %j to %s', async (codes, outcome) => {
    ddb.on(TransactWriteCommand).rejects(cancelled(codes));
    const error = await caught(repo().add(affiliation));
    if (outcome === 'unknown affiliate') expect(error).toBeInstanceOf(UnknownAffiliateError);
    else expect(isConflict(error, 'already_exists')).toBe(true);
  });

  it('reads one pair with a consistent GetItem', async () => {
    ddb.on(GetCommand).resolves({ Item: { ...item, status: 'ended', endedAt: LATER, updatedAt: LATER } });
    expect(await repo().get(TENANT, 42, 31)).toEqual({
      ...affiliation,
      status: 'ended',
      endedAt: LATER,
      updatedAt: LATER,
    });
    expect(ddb.commandCalls(GetCommand)[0].args[0].input).toEqual({
      TableName: TABLE_NAME,
      Key: KEY,
      ConsistentRead: true,
    });
  });

  it("lists a product's affiliations with one consistent Query on its prefix (as a key range), status as a filter", async () => {
    ddb.on(QueryCommand).resolves({ Items: [item] });
    expect(await repo().listByProduct(TENANT, 42, 'active')).toEqual([affiliation]);
    expect(ddb.commandCalls(QueryCommand).map((c) => c.args[0].input)).toEqual([
      {
        TableName: TABLE_NAME,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :prefix AND :prefixRangeEnd',
        FilterExpression: '#s = :s',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: {
          ':pk': 'SELLER#7#test',
          ':prefix': 'AFFIL#000000000042#',
          ':prefixRangeEnd': 'AFFIL#000000000042$',
          ':s': 'active',
        },
        ConsistentRead: true,
      },
    ]);
  });

  it('follows the Query pages to the end', async () => {
    const lastKey = { pk: 'SELLER#7#test', sk: KEY.sk };
    ddb
      .on(QueryCommand)
      .resolvesOnce({ Items: [item], LastEvaluatedKey: lastKey })
      .resolvesOnce({ Items: [{ ...item, affiliateId: 32, sk: 'AFFIL#000000000042#000000000000032' }] });
    const found = await repo().listByProduct(TENANT, 42);
    expect(found.map((a) => a.affiliateId)).toEqual([31, 32]);
    const inputs = ddb.commandCalls(QueryCommand).map((c) => c.args[0].input);
    expect(inputs).toHaveLength(2);
    expect(inputs[1].ExclusiveStartKey).toEqual(lastKey);
  });

  it('ends with one conditional UpdateItem returning the ended affiliation', async () => {
    ddb
      .on(UpdateCommand)
      .resolves({ Attributes: { ...item, status: 'ended', endedAt: LATER, updatedAt: LATER } });
    expect(await repo().end(TENANT, 42, 31, LATER)).toMatchObject({ status: 'ended', endedAt: LATER });
    expect(ddb.commandCalls(UpdateCommand)[0].args[0].input).toEqual({
      TableName: TABLE_NAME,
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      Key: KEY,
      UpdateExpression: 'SET #s = :ended, endedAt = :now, updatedAt = :now',
      ConditionExpression: 'attribute_exists(pk) AND #s = :active',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':ended': 'ended', ':active': 'active', ':now': LATER },
      ReturnValues: 'ALL_NEW',
    });
  });

  it('answers null for a missing pair and invalid_state (with the stored one) for an ended one', async () => {
    const failed = (old?: Record<string, unknown>) =>
      new ConditionalCheckFailedException({
        message: 'The conditional request failed',
        $metadata: {},
        ...(old ? { Item: marshall(old) as never } : {}),
      });
    ddb
      .on(UpdateCommand)
      .rejectsOnce(failed())
      .rejectsOnce(failed({ ...item, status: 'ended', endedAt: NOW }));
    expect(await repo().end(TENANT, 42, 31, LATER)).toBeNull();
    const error = await caught(repo().end(TENANT, 42, 31, LATER));
    expect(isConflict(error, 'invalid_state')).toBe(true);
    expect((error as { current: unknown }).current).toEqual({
      ...affiliation,
      status: 'ended',
      endedAt: NOW,
    });
  });
});
