import { type MessageTag, type SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import type { Mailer, MailMessage } from '#shared/domain/ports';

export interface SesMailerOptions {
  client: SESv2Client;
  /** The From address, on the stack's verified sender identity. */
  from: string;
  /** The stack's configuration set (sending metrics, suppression of bounces and complaints). */
  configurationSetName: string;
}

/** SES tag values allow letters, digits, `_ - . @` only. */
const tagValue = (value: string) => value.replace(/[^A-Za-z0-9_.@-]/g, '_').slice(0, 256);

/**
 * Live mail through Amazon SES v2 (SendEmail, simple content, UTF-8). Each message carries tags
 * (kind, seller, environment) so the configuration set's metrics can be told apart per kind and
 * per seller. Sandbox mail never reaches this adapter (shared/domain/mail/delivery.ts).
 */
export class SesMailer implements Mailer {
  constructor(private readonly options: SesMailerOptions) {}

  async send(message: MailMessage): Promise<void> {
    const tags: MessageTag[] = [];
    if (message.kind) tags.push({ Name: 'kind', Value: tagValue(message.kind) });
    if (message.tenant) {
      tags.push({ Name: 'seller', Value: String(message.tenant.sellerId) });
      tags.push({ Name: 'environment', Value: message.tenant.environment });
    }
    await this.options.client.send(
      new SendEmailCommand({
        FromEmailAddress: this.options.from,
        Destination: { ToAddresses: [message.to] },
        Content: {
          Simple: {
            Subject: { Data: message.subject, Charset: 'UTF-8' },
            Body: {
              Text: { Data: message.text, Charset: 'UTF-8' },
              ...(message.html ? { Html: { Data: message.html, Charset: 'UTF-8' } } : {}),
            },
          },
        },
        ...(this.options.configurationSetName
          ? { ConfigurationSetName: this.options.configurationSetName }
          : {}),
        ...(tags.length > 0 ? { EmailTags: tags } : {}),
      }),
    );
  }
}
