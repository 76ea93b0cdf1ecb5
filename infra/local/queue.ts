import { randomUUID } from 'node:crypto';
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { MAX_DELAY_SECONDS } from '#shared/adapters/sqs/sqs-queue';
import type { Clock, Queue, QueueMessage } from '#shared/domain/ports';
import { Persisted } from './persisted';
import type { TimedSource } from './timeline';

export interface LocalMessage {
  messageId: string;
  body: string;
  sentAt: number;
  visibleAt: number;
  receiveCount: number;
}

/** What Lambda would call: it may answer a partial batch response, or nothing. */
export type QueueConsumer = (event: SQSEvent) => Promise<unknown>;

export interface LocalQueueOptions {
  name: string;
  clock: Clock;
  file: string | null;
  visibilityTimeoutSeconds?: number;
  /** After this many receives a message moves to the dead-letter queue (SQS redrive policy). */
  maxReceiveCount?: number;
  deadLetterQueue?: LocalQueue;
  /** Records per invocation, the event source mapping's BatchSize (default 10, as SQS's). */
  batchSize?: number;
  /** Invocations in flight at once, the mapping's ScalingConfig.MaximumConcurrency (default 10). */
  maxConcurrency?: number;
}

/**
 * SQS behind a Lambda event source mapping, locally: DelaySeconds (0..900, as SQS enforces), a
 * visibility timeout during which a received message is hidden, redelivery when the consumer
 * fails, and redrive to a DLQ after maxReceiveCount receives. Up to `maxConcurrency` pollers each
 * receive a batch of up to `batchSize` visible messages and invoke the consumer with it; a
 * partial batch response (batchItemFailures) returns only the named messages to the queue.
 */
export class LocalQueue implements Queue, TimedSource {
  readonly name: string;
  private readonly state: Persisted<{ messages: LocalMessage[] }>;
  private consumer?: QueueConsumer;
  private readonly visibilityMs: number;
  private readonly maxReceiveCount: number;
  private readonly batchSize: number;
  private readonly maxConcurrency: number;

  constructor(private readonly options: LocalQueueOptions) {
    this.name = options.name;
    this.state = new Persisted(options.file, { messages: [] });
    this.visibilityMs = (options.visibilityTimeoutSeconds ?? 30) * 1000;
    this.maxReceiveCount = options.maxReceiveCount ?? 5;
    this.batchSize = options.batchSize ?? 10;
    this.maxConcurrency = options.maxConcurrency ?? 10;
  }

  setConsumer(consumer: QueueConsumer): void {
    this.consumer = consumer;
  }

  get messages(): readonly LocalMessage[] {
    return this.state.value.messages;
  }

  async send(message: QueueMessage): Promise<void> {
    const delay = message.delaySeconds ?? 0;
    if (!Number.isInteger(delay) || delay < 0 || delay > MAX_DELAY_SECONDS) {
      throw new RangeError(`delaySeconds must be an integer from 0 to ${MAX_DELAY_SECONDS}, got ${delay}`);
    }
    const now = this.options.clock.now().getTime();
    this.state.value.messages.push({
      messageId: randomUUID(),
      body: message.body,
      sentAt: now,
      visibleAt: now + delay * 1000,
      receiveCount: 0,
    });
    this.state.save();
  }

  nextDueAt(): number | undefined {
    if (!this.consumer) return undefined;
    let min: number | undefined;
    for (const m of this.state.value.messages) if (min === undefined || m.visibleAt < min) min = m.visibleAt;
    return min;
  }

  /**
   * Runs the pollers until no message is visible at `now`: each receives a batch, invokes the
   * consumer and deletes what succeeded, then receives again, so a slow batch holds back only its
   * own poller. Messages sent meanwhile and visible at `now` are received in the same run.
   */
  async runNext(now: Date): Promise<boolean> {
    const consumer = this.consumer;
    if (!consumer) return false;
    let ran = false;
    const poll = async () => {
      for (;;) {
        const { batch, redriven } = await this.receive(now);
        if (batch.length === 0 && redriven === 0) return;
        ran = true;
        if (batch.length > 0) await this.complete(batch, await this.invoke(consumer, batch));
      }
    };
    await Promise.all(Array.from({ length: this.maxConcurrency }, poll));
    return ran;
  }

  /**
   * ReceiveMessage: up to batchSize visible messages, oldest first, each hidden for the visibility
   * timeout. A message already received maxReceiveCount times is redriven to the DLQ instead.
   */
  private async receive(now: Date): Promise<{ batch: LocalMessage[]; redriven: number }> {
    const at = now.getTime();
    const messages = this.state.value.messages;
    const visible = messages.filter((m) => m.visibleAt <= at).sort((a, b) => a.visibleAt - b.visibleAt);
    const batch: LocalMessage[] = [];
    const redriven: LocalMessage[] = [];
    for (const message of visible) {
      if (batch.length >= this.batchSize) break;
      if (message.receiveCount >= this.maxReceiveCount && this.options.deadLetterQueue) {
        redriven.push(message);
        continue;
      }
      message.receiveCount += 1;
      message.visibleAt = at + this.visibilityMs;
      batch.push(message);
    }
    if (redriven.length > 0) this.state.value.messages = messages.filter((m) => !redriven.includes(m));
    if (batch.length > 0 || redriven.length > 0) this.state.save();
    for (const message of redriven) await this.options.deadLetterQueue?.accept(message);
    return { batch, redriven: redriven.length };
  }

  /** The ids to keep: every id when the invocation failed, else those its batch response names. */
  private async invoke(consumer: QueueConsumer, batch: LocalMessage[]): Promise<Set<string>> {
    const ids = new Set(batch.map((m) => m.messageId));
    try {
      const result = (await consumer(this.eventOf(batch))) as SQSBatchResponse | undefined;
      const named = (result?.batchItemFailures ?? []).map((f) => f.itemIdentifier);
      // Lambda treats a response naming an empty or unknown id as a failure of the whole batch.
      if (named.some((id) => !ids.has(id))) return ids;
      return new Set(named);
    } catch {
      return ids;
    }
  }

  /** DeleteMessageBatch for the records that succeeded; the rest reappear after the timeout. */
  private async complete(batch: LocalMessage[], failed: Set<string>): Promise<void> {
    const done = new Set(batch.filter((m) => !failed.has(m.messageId)));
    if (done.size === 0) return;
    this.state.value.messages = this.state.value.messages.filter((m) => !done.has(m));
    this.state.save();
  }

  /** Redrive target: keeps the message as it was (body, id, receive count). */
  async accept(message: LocalMessage): Promise<void> {
    this.state.value.messages.push({ ...message, visibleAt: this.options.clock.now().getTime() });
    this.state.save();
  }

  private eventOf(batch: LocalMessage[]): SQSEvent {
    return {
      Records: batch.map((message) => ({
        messageId: message.messageId,
        receiptHandle: message.messageId,
        body: message.body,
        attributes: {
          ApproximateReceiveCount: String(message.receiveCount),
          SentTimestamp: String(message.sentAt),
          SenderId: 'local',
          ApproximateFirstReceiveTimestamp: String(message.sentAt),
        },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: `arn:aws:sqs:local:000000000000:${this.name}`,
        awsRegion: 'local',
      })),
    };
  }
}
