import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-files';

/**
 * State of a local service kept in one JSON file (scheduled jobs, queued messages), so a restart
 * loses nothing, as the real services would not. `null` file: memory only.
 */
export class Persisted<T> {
  value: T;
  constructor(
    private readonly file: string | null,
    initial: T,
  ) {
    this.value = initial;
    if (!file) return;
    try {
      this.value = JSON.parse(readFileSync(file, 'utf8')) as T;
    } catch {
      this.value = initial;
    }
  }

  save(): void {
    if (!this.file) return;
    mkdirSync(dirname(this.file), { recursive: true, mode: PRIVATE_DIR_MODE });
    const tmp = `${this.file}.tmp`;
    // Queued messages and scheduled jobs carry events (buyers' data): owner-only.
    writeFileSync(tmp, JSON.stringify(this.value), { mode: PRIVATE_FILE_MODE });
    renameSync(tmp, this.file);
  }
}
