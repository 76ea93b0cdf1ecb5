import type { ChannelMessage, Messenger } from '#shared/domain/ports';

export interface WhatsappCloudOptions {
  /** `fetch`, given so that tests can answer for Meta. */
  fetch: typeof fetch;
  /** The Graph API's base URL with its version. */
  baseUrl?: string;
  /** How long one call may take. */
  timeoutMs?: number;
}

export const GRAPH_BASE_URL = 'https://graph.facebook.com/v20.0';

/** A message WhatsApp refused: Meta's error code and message, never the token. */
export class WhatsappSendError extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {
    super(`WhatsApp refused the message (${status}): ${reason}`);
  }
}

/**
 * WhatsApp Business Cloud API: a template message (the only kind that may start a conversation
 * outside the 24-hour service window) from the seller's phone number id, with its access token as
 * a Bearer header (never in the URL), the step's values as the template's named body parameters.
 */
export class WhatsappCloudMessenger implements Messenger {
  constructor(private readonly options: WhatsappCloudOptions) {}

  async send(message: ChannelMessage): Promise<void> {
    if (message.channel !== 'whatsapp') throw new Error(`not a WhatsApp message: ${message.channel}`);
    const { phoneNumberId, accessToken } = message.credentials;
    const url = `${this.options.baseUrl ?? GRAPH_BASE_URL}/${encodeURIComponent(phoneNumberId)}/messages`;
    const body = {
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: message.to.replace(/^\+/, ''),
      type: 'template',
      template: {
        name: message.template.name,
        language: { code: message.template.language },
        components: [
          {
            type: 'body',
            parameters: message.template.parameters.map((p) => ({
              type: 'text',
              parameter_name: p.name,
              text: p.value,
            })),
          },
        ],
      },
    };
    const response = await this.options.fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
    });
    if (response.ok) return;
    const answer = (await response.json().catch(() => null)) as {
      error?: { code?: number; message?: string };
    } | null;
    const reason = answer?.error
      ? `${answer.error.code ?? 'error'}: ${String(answer.error.message ?? '').slice(0, 200)}`
      : `HTTP ${response.status}`;
    throw new WhatsappSendError(response.status, reason);
  }
}
