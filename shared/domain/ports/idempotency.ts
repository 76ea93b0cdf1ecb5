import type { StoredResponse } from '#shared/domain/idempotency';

export type BeginOutcome =
  | { state: 'started' }
  | { state: 'completed'; fingerprint: string; response: StoredResponse }
  | { state: 'in_progress'; fingerprint: string };

export interface IdempotencyRepository {
  /** Claims the key (conditional write), or reports what is stored under it. */
  begin(scope: string, key: string, fingerprint: string, now: Date): Promise<BeginOutcome>;
  complete(scope: string, key: string, response: StoredResponse, now: Date): Promise<void>;
  release(scope: string, key: string): Promise<void>;
}
