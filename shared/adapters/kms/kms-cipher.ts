import { DecryptCommand, EncryptCommand, type KMSClient } from '@aws-sdk/client-kms';
import type { SecretCipher } from '#shared/domain/ports/provider-connections';

/**
 * Sellers' provider keys encrypted with the stack's KMS key. The encryption context (seller,
 * provider) is bound to the ciphertext: a copied ciphertext does not decrypt for another seller,
 * and CloudTrail shows whose key each Decrypt opened.
 */
export class KmsCipher implements SecretCipher {
  constructor(
    private readonly client: KMSClient,
    private readonly keyId: string,
  ) {}

  async encrypt(plaintext: string, context: Record<string, string>): Promise<string> {
    const out = await this.client.send(
      new EncryptCommand({
        KeyId: this.keyId,
        Plaintext: new TextEncoder().encode(plaintext),
        EncryptionContext: context,
      }),
    );
    if (!out.CiphertextBlob) throw new Error('KMS answered no ciphertext');
    return Buffer.from(out.CiphertextBlob).toString('base64');
  }

  async decrypt(ciphertext: string, context: Record<string, string>): Promise<string> {
    const out = await this.client.send(
      new DecryptCommand({
        KeyId: this.keyId,
        CiphertextBlob: Buffer.from(ciphertext, 'base64'),
        EncryptionContext: context,
      }),
    );
    if (!out.Plaintext) throw new Error('KMS answered no plaintext');
    return new TextDecoder().decode(out.Plaintext);
  }
}
