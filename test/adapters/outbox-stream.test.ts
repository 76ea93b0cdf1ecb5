import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { outboxEventsOf, outboxPut } from '#shared/adapters/dynamodb/outbox';
import type { DomainEvent } from '#shared/domain/events/events';
import { publishOutbox } from '#shared/domain/events/publish';
import type { BusEvent } from '#shared/domain/ports';

const event: DomainEvent = {
  tenant: { sellerId: 7, environment: 'test' },
  envelope: {
    id: 'evt_000000000000000000000001',
    event: 'payment.paid',
    timestamp: '2026-03-01T12:00:00.000Z',
    data: { transactionId: 42 },
  },
};

/** A stream record as Lambda delivers it: the item as written by outboxPut, marshalled. */
const recordOf = (item: Record<string, unknown>, eventName: DynamoDBRecord['eventName'] = 'INSERT') =>
  ({
    eventID: `id-${eventName}`,
    eventName,
    dynamodb: { NewImage: marshall(item, { removeUndefinedValues: true }) as never },
  }) satisfies DynamoDBRecord;

const outboxItem = () => (outboxPut(event) as { Put: { Item: Record<string, unknown> } }).Put.Item;

describe('outboxEventsOf (the stream side of the outbox adapter)', () => {
  it('reads back the event of an inserted outbox item: its tenant and envelope, nothing else', () => {
    expect(outboxEventsOf([recordOf(outboxItem())])).toEqual([event]);
  });

  it('ignores records that insert nothing (modify, remove, no image)', () => {
    const noImage: DynamoDBRecord = { eventID: 'x', eventName: 'INSERT', dynamodb: {} };
    expect(
      outboxEventsOf([recordOf(outboxItem(), 'MODIFY'), recordOf(outboxItem(), 'REMOVE'), noImage]),
    ).toEqual([]);
  });

  it('throws on an inserted item that is not an outbox item, so Lambda retries the batch', () => {
    expect(() => outboxEventsOf([recordOf({ pk: 'SELLER#7', sk: 'PROFILE', entity: 'seller' })])).toThrow(
      /not an outbox item/,
    );
  });

  it('feeds publishOutbox typed events: one bus entry per event, named by the event', async () => {
    const put: BusEvent[][] = [];
    const result = await publishOutbox(
      { bus: { put: async (entries) => void put.push(entries) } },
      outboxEventsOf([recordOf(outboxItem())]),
    );
    expect(result).toEqual({ published: 1 });
    expect(put).toEqual([[{ source: 'payment-service', detailType: 'payment.paid', detail: event }]]);
  });
});
