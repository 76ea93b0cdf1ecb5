import type { AttemptResult, WebhookSender, WebhookTarget } from '#shared/domain/ports';

export interface SentRequest {
  url: string;
  /** The checked addresses the sender was told to connect to. */
  addresses: readonly string[];
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}

/** Answers each post with the next scripted result (the last one repeats); records every request. */
export class FakeWebhookSender implements WebhookSender {
  readonly requests: SentRequest[] = [];
  private script: AttemptResult[];
  constructor(...script: AttemptResult[]) {
    this.script =
      script.length > 0 ? script : [{ statusCode: 200, durationMs: 12, error: null, responseExcerpt: null }];
  }
  answer(...script: AttemptResult[]): void {
    this.script = script;
  }
  async post(
    { url, addresses }: WebhookTarget,
    body: string,
    headers: Record<string, string>,
    timeoutMs: number,
  ): Promise<AttemptResult> {
    this.requests.push({ url, addresses, body, headers, timeoutMs });
    const next = this.script.length > 1 ? this.script.shift() : this.script[0];
    if (!next) throw new Error('FakeWebhookSender has no scripted answer');
    return next;
  }
}
