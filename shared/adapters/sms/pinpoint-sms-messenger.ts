import { type PinpointSMSVoiceV2Client, SendTextMessageCommand } from '@aws-sdk/client-pinpoint-sms-voice-v2';
import type { ChannelMessage, Messenger } from '#shared/domain/ports';

export interface PinpointSmsOptions {
  client: PinpointSMSVoiceV2Client;
  /** The stack's configuration set (delivery events), when there is one. */
  configurationSetName?: string;
}

/** Context values allow letters, digits and `_ - .` only. */
const contextValue = (value: string) => value.replace(/[^A-Za-z0-9_.-]/g, '_').slice(0, 100);

/**
 * SMS through AWS End User Messaging SMS (Pinpoint SMS voice v2): a TRANSACTIONAL text from the
 * seller's origination identity, tagged with the kind and the seller in its context.
 */
export class PinpointSmsMessenger implements Messenger {
  constructor(private readonly options: PinpointSmsOptions) {}

  async send(message: ChannelMessage): Promise<void> {
    if (message.channel !== 'sms') throw new Error(`not an SMS: ${message.channel}`);
    await this.options.client.send(
      new SendTextMessageCommand({
        DestinationPhoneNumber: message.to,
        OriginationIdentity: message.credentials.originationIdentity,
        MessageBody: message.text,
        MessageType: 'TRANSACTIONAL',
        ...(this.options.configurationSetName
          ? { ConfigurationSetName: this.options.configurationSetName }
          : {}),
        Context: {
          kind: contextValue(message.kind),
          seller: String(message.tenant.sellerId),
          environment: message.tenant.environment,
        },
      }),
    );
  }
}
