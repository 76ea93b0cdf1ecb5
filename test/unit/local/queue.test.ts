import type { SQSEvent } from 'aws-lambda';
import { describe, expect, it } from 'vitest';
import { LocalQueue, type QueueConsumer } from '#infra/local/queue';
import { ManualClock } from './fake-clock';

const T0 = Date.parse('2026-11-21T12:00:00.000Z');

function setup(
  options: {
    maxReceiveCount?: number;
    withDlq?: boolean;
    visibilityTimeoutSeconds?: number;
    batchSize?: number;
    maxConcurrency?: number;
  } = {},
) {
  const clock = new ManualClock(T0);
  const dlq = options.withDlq ? new LocalQueue({ name: 'jobs-dlq', clock, file: null }) : undefined;
  const queue = new LocalQueue({
    name: 'jobs',
    clock,
    file: null,
    maxReceiveCount: options.maxReceiveCount,
    visibilityTimeoutSeconds: options.visibilityTimeoutSeconds,
    deadLetterQueue: dlq,
    batchSize: options.batchSize,
    maxConcurrency: options.maxConcurrency,
  });
  const events: SQSEvent[] = [];
  const consume = (consumer: QueueConsumer = async () => undefined) =>
    queue.setConsumer(async (event) => {
      events.push(event);
      return consumer(event);
    });
  return { clock, queue, dlq, events, consume };
}

describe('LocalQueue.send', () => {
  it.each([0, 1, 900])('accepts a delay of %i seconds', async (delaySeconds) => {
    const { queue } = setup();
    await queue.send({ body: 'x', delaySeconds });
    expect(queue.messages).toHaveLength(1);
    expect(queue.messages[0].visibleAt).toBe(T0 + delaySeconds * 1000);
  });

  it.each([901, -1, 1.5, Number.NaN])(
    'refuses a delay of %s seconds and stores nothing',
    async (delaySeconds) => {
      const { queue } = setup();
      await expect(queue.send({ body: 'x', delaySeconds })).rejects.toBeInstanceOf(RangeError);
      expect(queue.messages).toEqual([]);
    },
  );

  it('delivers at once without a delay', async () => {
    const { queue, consume } = setup();
    consume();
    await queue.send({ body: 'x' });
    expect(queue.nextDueAt()).toBe(T0);
  });
});

describe('LocalQueue delivery', () => {
  it('has nothing due while no consumer is attached', async () => {
    const { queue } = setup();
    await queue.send({ body: 'x' });
    expect(queue.nextDueAt()).toBeUndefined();
    expect(await queue.runNext(new Date(T0))).toBe(false);
  });

  it('keeps a delayed message invisible until its delay has passed', async () => {
    const { queue, events, consume } = setup();
    consume();
    await queue.send({ body: 'later', delaySeconds: 900 });
    expect(queue.nextDueAt()).toBe(T0 + 900_000);
    expect(await queue.runNext(new Date(T0 + 899_999))).toBe(false);
    expect(events).toEqual([]);
    expect(await queue.runNext(new Date(T0 + 900_000))).toBe(true);
    expect(events.map((e) => e.Records[0].body)).toEqual(['later']);
    expect(queue.messages).toEqual([]);
  });

  it('delivers the visible messages as SQS records, oldest first, in one invocation', async () => {
    const { queue, events, consume } = setup();
    consume();
    await queue.send({ body: '{"job":"a"}' });
    await queue.send({ body: '{"job":"b"}' });
    await queue.send({ body: '{"job":"later"}', delaySeconds: 60 });
    expect(await queue.runNext(new Date(T0))).toBe(true);
    expect(events).toHaveLength(1);
    expect(events[0].Records.map((r) => r.body)).toEqual(['{"job":"a"}', '{"job":"b"}']);
    const [record] = events[0].Records;
    expect(record).toMatchObject({
      body: '{"job":"a"}',
      eventSource: 'aws:sqs',
      eventSourceARN: 'arn:aws:sqs:local:000000000000:jobs',
      attributes: { ApproximateReceiveCount: '1', SentTimestamp: String(T0) },
    });
    expect(record.messageId).toMatch(/^[0-9a-f-]{36}$/);
    expect(record.receiptHandle).toBe(record.messageId);
    expect(queue.messages.map((m) => m.body)).toEqual(['{"job":"later"}']);
  });

  it('hides a message for the visibility timeout after a failed receive, then redelivers it', async () => {
    const { queue, events, consume } = setup({ visibilityTimeoutSeconds: 30 });
    consume(async () => {
      throw new Error('consumer failed');
    });
    await queue.send({ body: 'x' });
    expect(await queue.runNext(new Date(T0 + 1_000))).toBe(true);
    expect(queue.messages).toHaveLength(1);
    expect(queue.messages[0]).toMatchObject({ receiveCount: 1, visibleAt: T0 + 31_000 });
    expect(await queue.runNext(new Date(T0 + 30_999))).toBe(false);
    expect(await queue.runNext(new Date(T0 + 31_000))).toBe(true);
    expect(events.map((e) => e.Records[0].attributes.ApproximateReceiveCount)).toEqual(['1', '2']);
    expect(events[0].Records[0].messageId).toBe(events[1].Records[0].messageId);
  });

  it('uses a 30 s visibility timeout by default', async () => {
    const { queue, consume } = setup();
    consume(async () => {
      throw new Error('x');
    });
    await queue.send({ body: 'x' });
    await queue.runNext(new Date(T0));
    expect(queue.messages[0].visibleAt).toBe(T0 + 30_000);
  });

  it('keeps a message the consumer reports in batchItemFailures', async () => {
    const { queue, consume } = setup();
    consume(async (event) => ({ batchItemFailures: [{ itemIdentifier: event.Records[0].messageId }] }));
    await queue.send({ body: 'x' });
    await queue.runNext(new Date(T0));
    expect(queue.messages).toHaveLength(1);
    expect(queue.messages[0].receiveCount).toBe(1);
  });

  it('keeps the whole batch when batchItemFailures names a message that is not in it, as Lambda does', async () => {
    const { queue, consume } = setup();
    consume(async () => ({ batchItemFailures: [{ itemIdentifier: 'another-message' }] }));
    await queue.send({ body: 'x' });
    await queue.send({ body: 'y' });
    await queue.runNext(new Date(T0));
    expect(queue.messages.map((m) => [m.body, m.receiveCount])).toEqual([
      ['x', 1],
      ['y', 1],
    ]);
  });

  it('deletes a message when the consumer returns an empty batchItemFailures', async () => {
    const { queue, consume } = setup();
    consume(async () => ({ batchItemFailures: [] }));
    await queue.send({ body: 'x' });
    await queue.runNext(new Date(T0));
    expect(queue.messages).toEqual([]);
  });
});

describe('LocalQueue batches and pollers', () => {
  const sendMany = async (queue: LocalQueue, n: number) => {
    for (let i = 0; i < n; i++) await queue.send({ body: `m${i}` });
  };

  it('hands out at most batchSize records per invocation until nothing is visible', async () => {
    const { queue, events, consume } = setup({ batchSize: 10, maxConcurrency: 1 });
    consume();
    await sendMany(queue, 25);
    expect(await queue.runNext(new Date(T0))).toBe(true);
    expect(events.map((e) => e.Records.length)).toEqual([10, 10, 5]);
    expect(events.flatMap((e) => e.Records.map((r) => r.body))).toEqual(
      Array.from({ length: 25 }, (_, i) => `m${i}`),
    );
    expect(queue.messages).toEqual([]);
  });

  it('defaults to batches of 10 with 10 invocations in flight', async () => {
    const { queue, events, consume } = setup();
    let inFlight = 0;
    let most = 0;
    consume(async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      // Yield a few turns so that every poller that can start does so before this one finishes.
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      inFlight -= 1;
    });
    await sendMany(queue, 150);
    await queue.runNext(new Date(T0));
    expect(most).toBe(10);
    expect(events).toHaveLength(15);
    expect(events.every((e) => e.Records.length === 10)).toBe(true);
    expect(new Set(events.flatMap((e) => e.Records.map((r) => r.messageId))).size).toBe(150);
    expect(queue.messages).toEqual([]);
  });

  it('never runs more invocations at once than maxConcurrency', async () => {
    const { queue, events, consume } = setup({ batchSize: 3, maxConcurrency: 2 });
    let inFlight = 0;
    let most = 0;
    consume(async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      inFlight -= 1;
    });
    await sendMany(queue, 20);
    await queue.runNext(new Date(T0));
    expect(most).toBe(2);
    expect(events.map((e) => e.Records.length).sort()).toEqual([2, 3, 3, 3, 3, 3, 3]);
  });

  it('receives in the same run a message sent by the consumer, but not a delayed one', async () => {
    const { queue, events, consume } = setup();
    consume(async (event) => {
      if (event.Records[0].body === 'first') {
        await queue.send({ body: 'follow-up' });
        await queue.send({ body: 'retry', delaySeconds: 60 });
      }
    });
    await queue.send({ body: 'first' });
    await queue.runNext(new Date(T0));
    expect(events.map((e) => e.Records.map((r) => r.body))).toEqual([['first'], ['follow-up']]);
    expect(queue.messages.map((m) => m.body)).toEqual(['retry']);
  });

  it('returns only the records a partial batch response names; the others are deleted', async () => {
    const { queue, events, consume } = setup({ visibilityTimeoutSeconds: 30 });
    consume(async (event) => ({
      batchItemFailures: event.Records.filter((r) => r.body.endsWith('3') || r.body.endsWith('7')).map(
        (r) => ({ itemIdentifier: r.messageId }),
      ),
    }));
    await sendMany(queue, 10);
    await queue.runNext(new Date(T0));
    expect(events).toHaveLength(1);
    expect(queue.messages.map((m) => [m.body, m.receiveCount, m.visibleAt])).toEqual([
      ['m3', 1, T0 + 30_000],
      ['m7', 1, T0 + 30_000],
    ]);
    await queue.runNext(new Date(T0 + 30_000));
    expect(events[1].Records.map((r) => [r.body, r.attributes.ApproximateReceiveCount])).toEqual([
      ['m3', '2'],
      ['m7', '2'],
    ]);
  });

  it('keeps every record of a batch whose invocation throws, and not those of the other batches', async () => {
    const { queue, consume } = setup({ batchSize: 2, maxConcurrency: 3 });
    consume(async (event) => {
      if (event.Records.some((r) => r.body === 'm2')) throw new Error('batch failed');
    });
    await sendMany(queue, 6);
    await queue.runNext(new Date(T0));
    expect(queue.messages.map((m) => m.body)).toEqual(['m2', 'm3']);
  });

  it('redrives the poison record of a batch to the DLQ while its neighbours are delivered', async () => {
    const { clock, queue, dlq, events, consume } = setup({ maxReceiveCount: 2, withDlq: true });
    consume(async (event) => ({
      batchItemFailures: event.Records.filter((r) => r.body === 'poison').map((r) => ({
        itemIdentifier: r.messageId,
      })),
    }));
    await queue.send({ body: 'ok-1' });
    await queue.send({ body: 'poison' });
    await queue.send({ body: 'ok-2' });
    for (let i = 0; i < 10 && queue.nextDueAt() !== undefined; i++) {
      clock.set(queue.nextDueAt() as number);
      await queue.runNext(clock.now());
    }
    expect(events.map((e) => e.Records.map((r) => r.body))).toEqual([['ok-1', 'poison', 'ok-2'], ['poison']]);
    expect(queue.messages).toEqual([]);
    expect(dlq?.messages.map((m) => [m.body, m.receiveCount])).toEqual([['poison', 2]]);
  });
});

describe('LocalQueue redrive', () => {
  it('moves a message to the DLQ after maxReceiveCount failed receives, keeping id, body and count', async () => {
    const { clock, queue, dlq, events, consume } = setup({ maxReceiveCount: 3, withDlq: true });
    consume(async () => {
      throw new Error('poison');
    });
    await queue.send({ body: 'poison' });
    const id = queue.messages[0].messageId;
    for (let i = 0; i < 10 && queue.nextDueAt() !== undefined; i++) {
      clock.set(queue.nextDueAt() as number);
      await queue.runNext(clock.now());
    }
    expect(events).toHaveLength(3);
    expect(queue.messages).toEqual([]);
    expect(dlq?.messages).toHaveLength(1);
    expect(dlq?.messages[0]).toMatchObject({ messageId: id, body: 'poison', receiveCount: 3 });
    expect(dlq?.messages[0].visibleAt).toBe(clock.now().getTime());
  });

  it('uses a maxReceiveCount of 5 by default', async () => {
    const { clock, queue, dlq, events, consume } = setup({ withDlq: true });
    consume(async () => {
      throw new Error('poison');
    });
    await queue.send({ body: 'poison' });
    for (let i = 0; i < 20 && queue.nextDueAt() !== undefined; i++) {
      clock.set(queue.nextDueAt() as number);
      await queue.runNext(clock.now());
    }
    expect(events).toHaveLength(5);
    expect(dlq?.messages).toHaveLength(1);
  });

  it('keeps redelivering without a DLQ', async () => {
    const { clock, queue, events, consume } = setup({ maxReceiveCount: 2 });
    consume(async () => {
      throw new Error('poison');
    });
    await queue.send({ body: 'poison' });
    for (let i = 0; i < 6; i++) {
      clock.set(queue.nextDueAt() as number);
      await queue.runNext(clock.now());
    }
    expect(events).toHaveLength(6);
    expect(queue.messages).toHaveLength(1);
  });

  it('does not redrive a message that succeeds on its last allowed receive', async () => {
    let failures = 2;
    const { clock, queue, dlq, events, consume } = setup({ maxReceiveCount: 3, withDlq: true });
    consume(async () => {
      if (failures-- > 0) throw new Error('flaky');
    });
    await queue.send({ body: 'x' });
    for (let i = 0; i < 10 && queue.nextDueAt() !== undefined; i++) {
      clock.set(queue.nextDueAt() as number);
      await queue.runNext(clock.now());
    }
    expect(events).toHaveLength(3);
    expect(queue.messages).toEqual([]);
    expect(dlq?.messages).toEqual([]);
  });
});
