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
}

/**
 * SQS, locally: DelaySeconds (0..900, as SQS enforces), a visibility timeout during which a
 * received message is hidden, redelivery when the consumer fails, and redrive to a DLQ after
 * maxReceiveCount receives. One message per invocation, as a batch size of 1 would deliver.
 */
export class LocalQueue implements Queue, TimedSource {
  readonly name: string;
  private readonly state: Persisted<{ messages: LocalMessage[] }>;
  private consumer?: QueueConsumer;
  private readonly visibilityMs: number;
  private readonly maxReceiveCount: number;

  constructor(private readonly options: LocalQueueOptions) {
    this.name = options.name;
    this.state = new Persisted(options.file, { messages: [] });
    this.visibilityMs = (options.visibilityTimeoutSeconds ?? 30) * 1000;
    this.maxReceiveCount = options.maxReceiveCount ?? 5;
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

  async runNext(now: Date): Promise<boolean> {
    if (!this.consumer) return false;
    const messages = this.state.value.messages;
    const message = [...messages].sort((a, b) => a.visibleAt - b.visibleAt)[0];
    if (!message || message.visibleAt > now.getTime()) return false;
    if (message.receiveCount >= this.maxReceiveCount && this.options.deadLetterQueue) {
      messages.splice(messages.indexOf(message), 1);
      this.state.save();
      await this.options.deadLetterQueue.accept(message);
      return true;
    }
    message.receiveCount += 1;
    message.visibleAt = now.getTime() + this.visibilityMs;
    this.state.save();
    let failed = false;
    try {
      const result = (await this.consumer(this.eventOf(message))) as SQSBatchResponse | undefined;
      failed = (result?.batchItemFailures ?? []).some((f) => f.itemIdentifier === message.messageId);
    } catch {
      failed = true;
    }
    if (!failed) {
      const index = messages.indexOf(message);
      if (index >= 0) messages.splice(index, 1);
      this.state.save();
    }
    return true;
  }

  /** Redrive target: keeps the message as it was (body, id, receive count). */
  async accept(message: LocalMessage): Promise<void> {
    this.state.value.messages.push({ ...message, visibleAt: this.options.clock.now().getTime() });
    this.state.save();
  }

  private eventOf(message: LocalMessage): SQSEvent {
    return {
      Records: [
        {
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
        },
      ],
    };
  }
}
