import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_DELAY_SECONDS, SqsQueue } from '#shared/adapters/sqs/sqs-queue';

const mock = mockClient(SQSClient);
const QUEUE_URL = 'https://sqs.sa-east-1.amazonaws.com/123456789012/payment-jobs';
const queue = () => new SqsQueue(new SQSClient({ region: 'sa-east-1' }), QUEUE_URL);

beforeEach(() => {
  mock.reset();
  mock.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
});

describe('SqsQueue.send', () => {
  it('sends the body with the given DelaySeconds', async () => {
    await queue().send({ body: '{"job":"retry-webhook","id":"evt_1"}', delaySeconds: 900 });
    const calls = mock.commandCalls(SendMessageCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0].args[0].input).toEqual({
      QueueUrl: QUEUE_URL,
      MessageBody: '{"job":"retry-webhook","id":"evt_1"}',
      DelaySeconds: 900,
    });
  });

  it('sends DelaySeconds 0 when no delay is given', async () => {
    await queue().send({ body: 'x' });
    expect(mock.commandCalls(SendMessageCommand)[0].args[0].input).toEqual({
      QueueUrl: QUEUE_URL,
      MessageBody: 'x',
      DelaySeconds: 0,
    });
  });

  // The adapter never clamps: 900 s (the SQS maximum) goes through as is, 901 s is refused, so a
  // caller that forgot to hop learns it instead of having its wait shortened silently.
  it('sends the SQS maximum of 900 s as is and refuses 901 s instead of clamping it to 900', async () => {
    expect(MAX_DELAY_SECONDS).toBe(900);
    await queue().send({ body: 'max', delaySeconds: 900 });
    await expect(queue().send({ body: 'over', delaySeconds: 901 })).rejects.toThrow(RangeError);

    expect(mock.commandCalls(SendMessageCommand).map((c) => c.args[0].input)).toEqual([
      { QueueUrl: QUEUE_URL, MessageBody: 'max', DelaySeconds: 900 },
    ]);
  });

  it.each([901, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 3_600])(
    'refuses a delay of %s seconds before any call to SQS',
    async (delaySeconds) => {
      await expect(queue().send({ body: 'x', delaySeconds })).rejects.toThrow(
        /delaySeconds must be an integer from 0 to 900/,
      );
      expect(mock.commandCalls(SendMessageCommand)).toHaveLength(0);
    },
  );

  it('lets an SQS failure surface', async () => {
    mock.on(SendMessageCommand).rejects(new Error('throttled'));
    await expect(queue().send({ body: 'x' })).rejects.toThrow('throttled');
  });
});
