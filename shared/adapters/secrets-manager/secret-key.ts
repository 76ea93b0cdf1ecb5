import { GetSecretValueCommand, type SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { SecretKey } from '#shared/domain/ports';

/**
 * One secret from Secrets Manager, read once per container. The secret's string is the stack's
 * generated random text; its SHA-256 is the 32-byte key, so any length of secret gives a key of
 * the right size. A function the stack did not grant the secret has no ARN for it: asking for
 * the key is then an error, and no call is made.
 */
export class SecretsManagerKey implements SecretKey {
  private cached: Promise<Uint8Array> | undefined;

  constructor(
    private readonly client: Pick<SecretsManagerClient, 'send'>,
    private readonly secretId: string,
    private readonly name: string,
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
    if (!this.secretId) throw new Error(`this function is not granted the ${this.name} secret`);
    const out = await this.client.send(new GetSecretValueCommand({ SecretId: this.secretId }));
    if (!out.SecretString) throw new Error(`the ${this.name} secret has no string value`);
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(out.SecretString));
    return new Uint8Array(digest);
  }
}
