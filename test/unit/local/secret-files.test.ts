import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSecretKey, localSecretKeys } from '#infra/local/secret-files';
import { SECRET_NAMES } from '#shared/secrets';

describe('local secrets', () => {
  it('keeps each secret in its own 0600 file of the data folder, read again after a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'secrets-'));
    const file = (name: string) => join(dir, name);
    const first = localSecretKeys(file, () => undefined);
    const keys = await Promise.all(SECRET_NAMES.map((name) => first[name].key()));
    expect(new Set(keys.map((k) => Buffer.from(k).toString('hex'))).size).toBe(SECRET_NAMES.length);
    expect(statSync(join(dir, 'boleto-pdf.key')).mode & 0o777).toBe(0o600);
    expect(Buffer.from(readFileSync(join(dir, 'gateway-webhook.key'), 'utf8'), 'base64')).toEqual(
      Buffer.from(keys[SECRET_NAMES.indexOf('gatewayWebhook')]),
    );
    const again = localSecretKeys(file, () => undefined);
    expect(await again.boletoPdf.key()).toEqual(keys[SECRET_NAMES.indexOf('boletoPdf')]);
  });

  it('refuses a secret to a function the stack does not grant it, as IAM would', async () => {
    const secrets = localSecretKeys(
      () => null,
      (secret) => ({ fn: 'pages', allowed: secret === 'magicLink' }),
    );
    await expect(secrets.magicLink.key()).resolves.toHaveLength(32);
    await expect(secrets.boletoPdf.key()).rejects.toThrow(
      'the pages function is not granted the boletoPdf secret',
    );
  });

  it('keeps nothing on disk without a data folder', async () => {
    expect((await new FileSecretKey(null).key()).length).toBe(32);
  });
});
