import { createHash } from 'node:crypto';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { SecretsManagerKeyring } from '../../shared/adapters/secrets-manager/magic-link-keyring';

const sm = mockClient(SecretsManagerClient);
const ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:MagicLinkSecret-abc';

beforeEach(() => sm.reset());

describe('SecretsManagerKeyring', () => {
  it('reads the secret once and derives the 32-byte key from its string', async () => {
    sm.on(GetSecretValueCommand).resolves({ SecretString: 'segredo' });
    const keyring = new SecretsManagerKeyring(new SecretsManagerClient({}), ARN);
    const first = await keyring.key();
    const second = await keyring.key();
    expect(Buffer.from(first)).toEqual(createHash('sha256').update('segredo').digest());
    expect(second).toBe(first);
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    expect(sm.commandCalls(GetSecretValueCommand)[0].args[0].input).toEqual({ SecretId: ARN });
  });

  it('does not keep a failed read: the next call reads again', async () => {
    sm.on(GetSecretValueCommand).rejectsOnce(new Error('throttled')).resolves({ SecretString: 'x' });
    const keyring = new SecretsManagerKeyring(new SecretsManagerClient({}), ARN);
    await expect(keyring.key()).rejects.toThrow('throttled');
    expect((await keyring.key()).length).toBe(32);
    expect(sm.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('refuses a secret without a string value', async () => {
    sm.on(GetSecretValueCommand).resolves({});
    await expect(new SecretsManagerKeyring(new SecretsManagerClient({}), ARN).key()).rejects.toThrow(
      /no string/,
    );
  });
});
