import type { Ids } from '#shared/domain/ports';

/**
 * Predictable ids: the n-th uuid is `00000000-0000-4000-8000-<n as 12 digits>`, the n-th prefixed
 * id is `<prefix>_<n left-padded with zeros to the asked length>`. One counter per kind.
 */
export class SequentialIds implements Ids {
  private uuids = 0;
  private prefixedCount = 0;
  uuid(): string {
    this.uuids++;
    return `00000000-0000-4000-8000-${String(this.uuids).padStart(12, '0')}`;
  }
  prefixed(prefix: string, length = 24): string {
    this.prefixedCount++;
    return `${prefix}_${String(this.prefixedCount).padStart(length, '0')}`;
  }
}

/** The uuid SequentialIds hands out n-th (1-based). */
export const nthUuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
