import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { EventBridgeBus } from '#shared/adapters/eventbridge/event-bus';
import type { BusEvent } from '#shared/domain/ports';

const mock = mockClient(EventBridgeClient);
const BUS = 'payment-service-bus';
const bus = () => new EventBridgeBus(new EventBridgeClient({ region: 'sa-east-1' }), BUS);

const event = (i: number): BusEvent => ({
  source: 'payment-service',
  detailType: 'payment.paid',
  detail: { id: `pay_${i}`, amount: 4990 },
});

beforeEach(() => {
  mock.reset();
  mock.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [] });
});

describe('EventBridgeBus.put', () => {
  it('puts one entry per event on the named bus with the detail as JSON', async () => {
    await bus().put([event(1)]);
    const calls = mock.commandCalls(PutEventsCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0].args[0].input).toEqual({
      Entries: [
        {
          EventBusName: BUS,
          Source: 'payment-service',
          DetailType: 'payment.paid',
          Detail: '{"id":"pay_1","amount":4990}',
        },
      ],
    });
  });

  it('sends 25 events as batches of 10, 10 and 5, in order', async () => {
    const events = Array.from({ length: 25 }, (_, i) => event(i));
    await bus().put(events);
    const calls = mock.commandCalls(PutEventsCommand);
    expect(calls.map((c) => c.args[0].input.Entries?.length)).toEqual([10, 10, 5]);
    const ids = calls.flatMap((c) =>
      (c.args[0].input.Entries ?? []).map((e) => JSON.parse(e.Detail as string).id),
    );
    expect(ids).toEqual(events.map((e) => (e.detail as { id: string }).id));
  });

  it('sends exactly 10 events in one call', async () => {
    await bus().put(Array.from({ length: 10 }, (_, i) => event(i)));
    expect(mock.commandCalls(PutEventsCommand)).toHaveLength(1);
  });

  it('makes no call for no events', async () => {
    await bus().put([]);
    expect(mock.commandCalls(PutEventsCommand)).toHaveLength(0);
  });

  it('throws with the error codes when EventBridge answers 200 with failed entries', async () => {
    mock.on(PutEventsCommand).resolves({
      FailedEntryCount: 1,
      Entries: [{ EventId: 'e1' }, { ErrorCode: 'ThrottlingException', ErrorMessage: 'slow down' }],
    });
    await expect(bus().put([event(1), event(2)])).rejects.toThrow(
      'EventBridge rejected 1 of 2 events: ThrottlingException',
    );
  });

  it('stops at the first batch with failed entries', async () => {
    mock
      .on(PutEventsCommand)
      .resolvesOnce({ FailedEntryCount: 1, Entries: [{ ErrorCode: 'InternalFailure' }] })
      .resolves({ FailedEntryCount: 0, Entries: [] });
    await expect(bus().put(Array.from({ length: 25 }, (_, i) => event(i)))).rejects.toThrow(
      /InternalFailure/,
    );
    expect(mock.commandCalls(PutEventsCommand)).toHaveLength(1);
  });

  it('lets a failed call surface', async () => {
    mock.on(PutEventsCommand).rejects(new Error('network'));
    await expect(bus().put([event(1)])).rejects.toThrow('network');
  });
});
