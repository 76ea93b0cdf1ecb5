import { MessageRejected, SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { SesMailer } from '#shared/adapters/ses/ses-mailer';

const mock = mockClient(SESv2Client);

const mailer = (configurationSetName = 'payment-service-mail') =>
  new SesMailer({
    client: new SESv2Client({ region: 'sa-east-1' }),
    from: 'nao-responda@pagamentos.example.com',
    configurationSetName,
  });

beforeEach(() => {
  mock.reset();
  mock.on(SendEmailCommand).resolves({ MessageId: 'ses-1' });
});

describe('SesMailer.send', () => {
  it('sends one SendEmail with both parts in UTF-8, the configuration set and the tags', async () => {
    await mailer().send({
      to: 'maria@example.com',
      subject: 'Recibo do seu pagamento: Curso de Programação',
      text: 'Valor: R$ 49,90',
      html: '<p>Valor: R$ 49,90</p>',
      tenant: { sellerId: 42, environment: 'live' },
      kind: 'receipt',
    });
    const calls = mock.commandCalls(SendEmailCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0].args[0].input).toEqual({
      FromEmailAddress: 'nao-responda@pagamentos.example.com',
      Destination: { ToAddresses: ['maria@example.com'] },
      Content: {
        Simple: {
          Subject: { Data: 'Recibo do seu pagamento: Curso de Programação', Charset: 'UTF-8' },
          Body: {
            Text: { Data: 'Valor: R$ 49,90', Charset: 'UTF-8' },
            Html: { Data: '<p>Valor: R$ 49,90</p>', Charset: 'UTF-8' },
          },
        },
      },
      ConfigurationSetName: 'payment-service-mail',
      EmailTags: [
        { Name: 'kind', Value: 'receipt' },
        { Name: 'seller', Value: '42' },
        { Name: 'environment', Value: 'live' },
      ],
    });
  });

  it('sends a text-only message of no tenant without an Html part or tags', async () => {
    await mailer('').send({ to: 'ana@example.com', subject: 'Olá', text: 'Texto' });
    expect(mock.commandCalls(SendEmailCommand)[0].args[0].input).toEqual({
      FromEmailAddress: 'nao-responda@pagamentos.example.com',
      Destination: { ToAddresses: ['ana@example.com'] },
      Content: {
        Simple: {
          Subject: { Data: 'Olá', Charset: 'UTF-8' },
          Body: { Text: { Data: 'Texto', Charset: 'UTF-8' } },
        },
      },
    });
  });

  it('replaces characters SES refuses in a tag value', async () => {
    await mailer().send({ to: 'a@example.com', subject: 's', text: 't', kind: 'magic link/ç' });
    expect(mock.commandCalls(SendEmailCommand)[0].args[0].input.EmailTags).toEqual([
      { Name: 'kind', Value: 'magic_link__' },
    ]);
  });

  it('lets a rejection surface to the caller (the event is retried)', async () => {
    mock
      .on(SendEmailCommand)
      .rejects(new MessageRejected({ message: 'Email address is not verified.', $metadata: {} }));
    await expect(mailer().send({ to: 'a@example.com', subject: 's', text: 't' })).rejects.toBeInstanceOf(
      MessageRejected,
    );
  });
});
