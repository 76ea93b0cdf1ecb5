import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { MagicLinkKeyring } from '#shared/domain/ports/customer-area';

/**
 * A 32-byte key from Secrets Manager, read once per container: the magic links' and the
 * card-testing guard's, each from its own secret. The secret's string is the
 * stack's generated random text; its SHA-256 is the 32-byte A256GCM key, so any length of secret
 * gives a key of the right size.
 */
export class SecretsManagerKeyring implements MagicLinkKeyring {
  private cached: Promise<Uint8Array> | undefined;

  constructor(
    private readonly client: Pick<SecretsManagerClient, 'send'>,
    private readonly secretId: string,
  ) {}

  key(): Promise<Uint8Array> {
    this.cached ??= this.load().catch((error) => {
      // A failed read is not cached: the next request tries again.
      this.cached = undefined;
      throw error;
    });
    return this.cached;
  }

  private async load(): Promise<Uint8Array> {
    const out = await this.client.send(new GetSecretValueCommand({ SecretId: this.secretId }));
    if (!out.SecretString) throw new Error(`the secret ${this.secretId} has no string value`);
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(out.SecretString));
    return new Uint8Array(digest);
  }
}
