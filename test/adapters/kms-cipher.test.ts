import { DecryptCommand, EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { FileCipher } from '#infra/local/file-cipher';
import { KmsCipher } from '#shared/adapters/kms/kms-cipher';

const kms = mockClient(KMSClient);
const KEY = 'arn:aws:kms:sa-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab';
const context = { sellerId: '7', provider: 'asaas' };

beforeEach(() => kms.reset());

describe('KmsCipher', () => {
  it('encrypts with the key and the encryption context, and answers base64', async () => {
    kms.on(EncryptCommand).resolves({ CiphertextBlob: new Uint8Array([1, 2, 3]) });
    const cipher = new KmsCipher(new KMSClient({ region: 'sa-east-1' }), KEY);
    expect(await cipher.encrypt('$aact_secret', context)).toBe('AQID');
    const input = kms.commandCalls(EncryptCommand)[0].args[0].input;
    expect(input.KeyId).toBe(KEY);
    expect(input.EncryptionContext).toEqual(context);
    expect(new TextDecoder().decode(input.Plaintext)).toBe('$aact_secret');
  });

  it('decrypts with the same context', async () => {
    kms.on(DecryptCommand).resolves({ Plaintext: new TextEncoder().encode('$aact_secret') });
    const cipher = new KmsCipher(new KMSClient({ region: 'sa-east-1' }), KEY);
    expect(await cipher.decrypt('AQID', context)).toBe('$aact_secret');
    const input = kms.commandCalls(DecryptCommand)[0].args[0].input;
    expect(input).toMatchObject({ KeyId: KEY, EncryptionContext: context });
    expect([...(input.CiphertextBlob ?? [])]).toEqual([1, 2, 3]);
  });
});

describe('FileCipher (the local runtime)', () => {
  it('round-trips, never shows the plaintext, and refuses another context', async () => {
    const cipher = new FileCipher(null);
    const sealed = await cipher.encrypt('$aact_secret', context);
    expect(sealed).not.toContain('aact');
    expect(await cipher.decrypt(sealed, context)).toBe('$aact_secret');
    await expect(cipher.decrypt(sealed, { ...context, sellerId: '8' })).rejects.toThrow();
  });
});
