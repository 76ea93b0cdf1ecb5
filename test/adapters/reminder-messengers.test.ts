import {
  PinpointSMSVoiceV2Client,
  SendTextMessageCommand,
  ValidationException,
} from '@aws-sdk/client-pinpoint-sms-voice-v2';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { PinpointSmsMessenger } from '#shared/adapters/sms/pinpoint-sms-messenger';
import {
  WhatsappCloudMessenger,
  WhatsappSendError,
} from '#shared/adapters/whatsapp/whatsapp-cloud-messenger';
import type { ChannelMessage } from '#shared/domain/ports';

const tenant = { sellerId: 42, environment: 'live' } as const;
const sms: ChannelMessage = {
  channel: 'sms',
  to: '+5511987654321',
  text: 'Loja: sua cobrança de R$ 80,00 vence hoje.\nSair: https://pay.example/descadastro/optout_x',
  tenant,
  kind: 'scheduled_charge_reminder',
  credentials: { originationIdentity: '+5511900001111' },
};
const TOKEN = 'EAAGsecretsecretsecretsecret';
const whatsapp: ChannelMessage = {
  channel: 'whatsapp',
  to: '+5511987654321',
  text: 'Maria, sua cobrança vence hoje.',
  tenant,
  kind: 'scheduled_charge_reminder',
  template: {
    name: 'cobranca_vence_hoje',
    language: 'pt_BR',
    parameters: [
      { name: 'cliente', value: 'Maria' },
      { name: 'valor', value: 'R$ 80,00' },
    ],
  },
  credentials: { phoneNumberId: '109876543210', accessToken: TOKEN },
};

describe('PinpointSmsMessenger', () => {
  const mock = mockClient(PinpointSMSVoiceV2Client);
  beforeEach(() => {
    mock.reset();
    mock.on(SendTextMessageCommand).resolves({ MessageId: 'sms-1' });
  });

  it('sends one transactional SendTextMessage from the seller’s origination identity, tagged', async () => {
    await new PinpointSmsMessenger({ client: new PinpointSMSVoiceV2Client({ region: 'sa-east-1' }) }).send(
      sms,
    );
    const calls = mock.commandCalls(SendTextMessageCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0].args[0].input).toEqual({
      DestinationPhoneNumber: '+5511987654321',
      OriginationIdentity: '+5511900001111',
      MessageBody: sms.text,
      MessageType: 'TRANSACTIONAL',
      Context: { kind: 'scheduled_charge_reminder', seller: '42', environment: 'live' },
    });
  });

  it('lets the provider’s refusal through, for the timeline’s reason', async () => {
    mock.on(SendTextMessageCommand).rejects(
      new ValidationException({
        message: 'Destination is opted out',
        $metadata: {},
        Reason: 'OTHER',
      } as never),
    );
    await expect(
      new PinpointSmsMessenger({ client: new PinpointSMSVoiceV2Client({ region: 'sa-east-1' }) }).send(sms),
    ).rejects.toThrow('Destination is opted out');
  });
});

describe('WhatsappCloudMessenger', () => {
  const recorder = (status: number, answer: unknown) => {
    const calls: { url: string; init: RequestInit }[] = [];
    const fetch = (async (url: string, init: RequestInit) => {
      calls.push({ url, init });
      return new Response(JSON.stringify(answer), {
        status,
        headers: { 'content-type': 'application/json' },
      });
    }) as unknown as typeof globalThis.fetch;
    return { calls, fetch };
  };

  it('posts a template message with named body parameters, the token only in the Authorization header', async () => {
    const r = recorder(200, { messages: [{ id: 'wamid.1' }] });
    await new WhatsappCloudMessenger({ fetch: r.fetch }).send(whatsapp);
    expect(r.calls).toHaveLength(1);
    expect(r.calls[0].url).toBe('https://graph.facebook.com/v20.0/109876543210/messages');
    expect(r.calls[0].url).not.toContain(TOKEN);
    expect(r.calls[0].init.method).toBe('POST');
    expect((r.calls[0].init.headers as Record<string, string>).authorization).toBe(`Bearer ${TOKEN}`);
    expect(JSON.parse(String(r.calls[0].init.body))).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '5511987654321',
      type: 'template',
      template: {
        name: 'cobranca_vence_hoje',
        language: { code: 'pt_BR' },
        components: [
          {
            type: 'body',
            parameters: [
              { type: 'text', parameter_name: 'cliente', text: 'Maria' },
              { type: 'text', parameter_name: 'valor', text: 'R$ 80,00' },
            ],
          },
        ],
      },
    });
  });

  it('a refusal throws with Meta’s code and message, never the token', async () => {
    const r = recorder(400, {
      error: { code: 132001, message: 'Template name does not exist in the translation' },
    });
    const sent = new WhatsappCloudMessenger({ fetch: r.fetch }).send(whatsapp);
    await expect(sent).rejects.toBeInstanceOf(WhatsappSendError);
    await expect(sent).rejects.toThrow('132001: Template name does not exist in the translation');
    await sent.catch((error: Error) => expect(error.message).not.toContain(TOKEN));
  });
});
