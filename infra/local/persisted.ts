import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

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
    mkdirSync(dirname(this.file), { recursive: true });
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify(this.value));
    renameSync(tmp, this.file);
  }
}
