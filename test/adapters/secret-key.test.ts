import { createHash } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { Table } from '#shared/adapters/dynamodb/table';
import { SecretsManagerKey } from '#shared/adapters/secrets-manager/secret-key';
import { ENV } from '#shared/config';
import { parseConfig } from '#shared/config-schema';
import { createAwsContainer } from '#shared/platform/container';
import { SECRETS } from '#shared/secrets';

const sm = mockClient(SecretsManagerClient);
const ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:MagicLinkSecret-abc';
const sha256 = (text: string) => createHash('sha256').update(text).digest();

beforeEach(() => sm.reset());

describe('SecretsManagerKey', () => {
  it('reads the secret once and derives the 32-byte key from its string', async () => {
    sm.on(GetSecretValueCommand).resolves({ SecretString: 'segredo' });
    const secret = new SecretsManagerKey(new SecretsManagerClient({}), ARN, 'magicLink');
    const first = await secret.key();
    const second = await secret.key();
    expect(Buffer.from(first)).toEqual(sha256('segredo'));
    expect(second).toBe(first);
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    expect(sm.commandCalls(GetSecretValueCommand)[0].args[0].input).toEqual({ SecretId: ARN });
  });

  it('does not keep a failed read: the next call reads again', async () => {
    sm.on(GetSecretValueCommand).rejectsOnce(new Error('throttled')).resolves({ SecretString: 'x' });
    const secret = new SecretsManagerKey(new SecretsManagerClient({}), ARN, 'magicLink');
    await expect(secret.key()).rejects.toThrow('throttled');
    expect((await secret.key()).length).toBe(32);
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('refuses a secret without a string value', async () => {
    sm.on(GetSecretValueCommand).resolves({});
    await expect(new SecretsManagerKey(new SecretsManagerClient({}), ARN, 'magicLink').key()).rejects.toThrow(
      /magicLink secret has no string/,
    );
  });

  it('refuses a secret the function has no ARN for, without calling Secrets Manager', async () => {
    await expect(new SecretsManagerKey(new SecretsManagerClient({}), '', 'boletoPdf').key()).rejects.toThrow(
      'this function is not granted the boletoPdf secret',
    );
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(0);
  });
});

describe('the AWS container', () => {
  const arnOf = (name: string) => `arn:aws:secretsmanager:sa-east-1:123456789012:secret:${name}-xyz`;
  const container = (granted: (keyof typeof SECRETS)[]) =>
    createAwsContainer(
      parseConfig({
        [ENV.tableName]: 'payment-service',
        [ENV.jwtIssuer]: 'https://issuer.example.com',
        [ENV.jwtClientId]: 'client',
        [ENV.jwksUrl]: 'https://issuer.example.com/.well-known/jwks.json',
        [ENV.publicBaseUrl]: 'https://api.example.com',
        ...Object.fromEntries(granted.map((name) => [SECRETS[name].arnVariable, arnOf(name)])),
      }),
      new Table({ tableName: 'payment-service' }),
    );

  it('reads each secret by the ARN in its own variable, once per container', async () => {
    sm.on(GetSecretValueCommand, { SecretId: arnOf('gatewayWebhook') })
      .resolves({ SecretString: 'notificacoes' })
      .on(GetSecretValueCommand, { SecretId: arnOf('boletoPdf') })
      .resolves({ SecretString: 'boletos' });
    const c = container(['gatewayWebhook', 'boletoPdf']);
    const [webhook, pdf] = await Promise.all([c.secrets.gatewayWebhook.key(), c.secrets.boletoPdf.key()]);
    await c.secrets.gatewayWebhook.key();
    await c.secrets.boletoPdf.key();
    expect(Buffer.from(webhook)).toEqual(sha256('notificacoes'));
    expect(Buffer.from(pdf)).toEqual(sha256('boletos'));
    expect(
      sm
        .commandCalls(GetSecretValueCommand)
        .map((call) => call.args[0].input.SecretId)
        .sort(),
    ).toEqual([arnOf('boletoPdf'), arnOf('gatewayWebhook')]);
    // A second container (a new Lambda container) reads again.
    await container(['gatewayWebhook']).secrets.gatewayWebhook.key();
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(3);
  });

  it('refuses the secrets a function was not given, without a call', async () => {
    const c = container(['magicLink']);
    await expect(c.secrets.gatewayWebhook.key()).rejects.toThrow('not granted the gatewayWebhook secret');
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(0);
  });
});
