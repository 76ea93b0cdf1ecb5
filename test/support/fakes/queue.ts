import type { Queue, QueueMessage } from '#shared/domain/ports';

/** Keeps every message sent, in order. */
export class FakeQueue implements Queue {
  readonly sent: QueueMessage[] = [];
  async send(message: QueueMessage): Promise<void> {
    this.sent.push(message);
  }
  /** The bodies parsed back, with the delay each was sent with. */
  messages(): { body: unknown; delaySeconds: number | undefined }[] {
    return this.sent.map((m) => ({ body: JSON.parse(m.body), delaySeconds: m.delaySeconds }));
  }
}
