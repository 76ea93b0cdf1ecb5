import {
  IDEMPOTENCY_TTL_SECONDS,
  IN_PROGRESS_LEASE_SECONDS,
  type StoredResponse,
} from '#shared/domain/idempotency';
import type { BeginOutcome, IdempotencyRepository } from '#shared/domain/ports';
import { ConflictError } from '#shared/errors';

interface Claim {
  state: 'in_progress' | 'completed';
  fingerprint: string | undefined;
  response?: StoredResponse;
  /** Epoch seconds, as the table stores them. */
  leaseUntil?: number;
  expiresAt?: number;
}

const epoch = (d: Date) => Math.floor(d.getTime() / 1000);
const keyOf = (scope: string, key: string) => `${scope}\u0000${key}`;

/**
 * Idempotency claims in a map, with the DynamoDB repository's outcomes: a claim is taken when the
 * key is free, its 24 h expired (strictly past) or its in-progress lease of 60 s ran out (strictly
 * past); otherwise begin reports what is stored. complete keeps the claim's expiry; release
 * deletes an in-progress claim only, else throws ConflictError (reason `changed`).
 */
export class FakeIdempotencyRepository implements IdempotencyRepository {
  readonly claims = new Map<string, Claim>();

  async begin(scope: string, key: string, fingerprint: string, now: Date): Promise<BeginOutcome> {
    const id = keyOf(scope, key);
    const stored = this.claims.get(id);
    const at = epoch(now);
    const free =
      !stored ||
      (stored.expiresAt !== undefined && stored.expiresAt < at) ||
      (stored.state === 'in_progress' && stored.leaseUntil !== undefined && stored.leaseUntil < at);
    if (free) {
      this.claims.set(id, {
        state: 'in_progress',
        fingerprint,
        leaseUntil: at + IN_PROGRESS_LEASE_SECONDS,
        expiresAt: at + IDEMPOTENCY_TTL_SECONDS,
      });
      return { state: 'started' };
    }
    if (stored.state === 'completed') {
      return {
        state: 'completed',
        fingerprint: String(stored.fingerprint),
        response: structuredClone(stored.response as StoredResponse),
      };
    }
    return { state: 'in_progress', fingerprint: String(stored.fingerprint) };
  }

  async complete(scope: string, key: string, response: StoredResponse, _now: Date): Promise<void> {
    // An unconditional update, as the table's: it also writes where no claim is (with no expiry).
    const id = keyOf(scope, key);
    const stored = this.claims.get(id);
    this.claims.set(id, {
      ...(stored ?? { fingerprint: undefined }),
      state: 'completed',
      response: structuredClone(response),
    });
  }

  async release(scope: string, key: string): Promise<void> {
    const id = keyOf(scope, key);
    if (this.claims.get(id)?.state !== 'in_progress') {
      throw new ConflictError('The idempotency key is no longer in progress', 'idempotency_not_in_progress', {
        reason: 'changed',
      });
    }
    this.claims.delete(id);
  }
}
