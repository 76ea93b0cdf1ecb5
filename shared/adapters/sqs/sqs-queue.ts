import { SendMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { Queue, QueueMessage } from '#shared/domain/ports';

/** SQS caps DelaySeconds at 900; longer waits are the caller's hops, never a silent clamp. */
export const MAX_DELAY_SECONDS = 900;

export class SqsQueue implements Queue {
  constructor(
    private readonly client: SQSClient,
    private readonly queueUrl: string,
  ) {}

  async send(message: QueueMessage): Promise<void> {
    const delay = message.delaySeconds ?? 0;
    if (!Number.isInteger(delay) || delay < 0 || delay > MAX_DELAY_SECONDS) {
      throw new RangeError(`delaySeconds must be an integer from 0 to ${MAX_DELAY_SECONDS}, got ${delay}`);
    }
    await this.client.send(
      new SendMessageCommand({ QueueUrl: this.queueUrl, MessageBody: message.body, DelaySeconds: delay }),
    );
  }
}
