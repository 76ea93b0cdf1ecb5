import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { SecretKey } from '#shared/domain/ports';
import type { SecretKeys } from '#shared/platform/container';
import { SECRET_NAMES, SECRETS, type SecretName } from '#shared/secrets';
import { PRIVATE_DIR_MODE } from './private-files';

/**
 * A secret of the local runtime: 32 random bytes in the data folder (its `localFile`, created 0600 on
 * first use), so links and tokens survive a restart; in memory when nothing is kept (tests).
 */
export class FileSecretKey implements SecretKey {
  private readonly bytes: Uint8Array;

  constructor(file: string | null) {
    if (file && existsSync(file)) this.bytes = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
    else {
      this.bytes = randomBytes(32);
      if (file) {
        mkdirSync(dirname(file), { recursive: true, mode: PRIVATE_DIR_MODE });
        writeFileSync(file, Buffer.from(this.bytes).toString('base64'), { mode: 0o600 });
      }
    }
  }

  async key(): Promise<Uint8Array> {
    return this.bytes;
  }
}

/**
 * Every secret as a key file. As on AWS, where only the functions granted a secret can read it, a
 * function asks only for the secrets its FUNCTION_NEEDS declares: `granted` says whether the
 * function running now (undefined outside any function: set-up, tests) holds the secret, so a
 * missing grant fails here, in the tests, before it fails on AWS.
 */
export function localSecretKeys(
  file: (name: string) => string | null,
  granted: (secret: SecretName) => { fn: string; allowed: boolean } | undefined,
): SecretKeys {
  const entries = SECRET_NAMES.map((name) => {
    const stored = new FileSecretKey(file(SECRETS[name].localFile));
    const guarded: SecretKey = {
      key: async () => {
        const running = granted(name);
        if (running && !running.allowed)
          throw new Error(
            `the ${running.fn} function is not granted the ${name} secret (infra/constructs/permissions.ts)`,
          );
        return stored.key();
      },
    };
    return [name, guarded];
  });
  return Object.fromEntries(entries) as SecretKeys;
}
