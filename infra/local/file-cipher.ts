import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SecretCipher } from '#shared/domain/ports/provider-connections';
import { PRIVATE_DIR_MODE } from './private-files';

/**
 * The local runtime's stand-in for KMS: AES-256-GCM under a key kept in the data folder
 * (`provider-secrets.key`, created 0600 on first use), or in memory when nothing is kept. The
 * context is the GCM additional data, so it binds the ciphertext like KMS's encryption context.
 */
export class FileCipher implements SecretCipher {
  private readonly key: Buffer;

  constructor(file: string | null) {
    if (file && existsSync(file)) this.key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    else {
      this.key = randomBytes(32);
      if (file) {
        mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
        writeFileSync(file, this.key.toString('base64'), { mode: 0o600 });
      }
    }
  }

  async encrypt(plaintext: string, context: Record<string, string>): Promise<string> {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(aad(context)));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
  }

  async decrypt(ciphertext: string, context: Record<string, string>): Promise<string> {
    const raw = Buffer.from(ciphertext, 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(aad(context)));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}

const aad = (context: Record<string, string>) =>
  JSON.stringify(
    Object.keys(context)
      .sort()
      .map((k) => [k, context[k]]),
  );
