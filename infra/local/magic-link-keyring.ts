import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { MagicLinkKeyring } from '#shared/domain/ports/customer-area';
import { PRIVATE_DIR_MODE } from './private-files';

/**
 * The local runtime's magic-link key: 32 random bytes in the data folder (`magic-link.key`,
 * created 0600 on first use), so links survive a restart; in memory when nothing is kept (tests).
 */
export class FileKeyring implements MagicLinkKeyring {
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
