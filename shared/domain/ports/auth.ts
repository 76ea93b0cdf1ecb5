import type { ApiKeyRecord, AuthenticatedKey } from '#shared/domain/auth/api-keys';
import type { RateWindow } from '#shared/domain/auth/rate-limit';
import type { Environment } from '#shared/domain/tenant';

export interface ApiKeyRepository {
  /**
   * Fails with DuplicateKeyNameError when an active key of that environment has the name, and with
   * ApiKeyLimitError when the seller already has `maxActive` active keys there.
   */
  create(record: ApiKeyRecord, maxActive?: number): Promise<void>;
  list(sellerId: number, environment?: Environment): Promise<ApiKeyRecord[]>;
  /** Returns the revoked record, or null when the seller has no such key (or it is already revoked). */
  revoke(sellerId: number, id: string, at: Date): Promise<ApiKeyRecord | null>;
  /** Looks the key up by hash and counts the request in one round trip; null for unknown or revoked keys. */
  authenticate(hash: string, at: Date, window: RateWindow): Promise<AuthenticatedKey | null>;
  /** Whether a key of that hash exists and was revoked (read after a refused authentication only). */
  isRevoked(hash: string): Promise<boolean>;
}

export interface RateLimitRepository {
  /** Counts one request of a principal (JWT subject, client IP) and returns the window's count. */
  hit(principal: string, at: Date, window: RateWindow): Promise<number>;
  /**
   * What is counted of each principal in its window, without counting, and the end of a hold put
   * on it (null when none or ended by `at`): one read for all of them.
   */
  peek(principals: readonly { principal: string; window: RateWindow }[], at: Date): Promise<RateState[]>;
  /** Holds a principal until `until` (a cool-down); a hold never shortens a longer one. */
  hold(principal: string, until: Date): Promise<void>;
}

export interface RateState {
  count: number;
  heldUntil: Date | null;
}

/**
 * Failed authentications per client address. The count is shared by every container; what a
 * container learned from its own counts answers without a round trip, so an address over the
 * limit costs no write at all in a container that has seen it there.
 */
export interface FailedAuthCounter {
  /** The client's failures in the window as far as this container knows (no round trip). */
  known(client: string, window: RateWindow): number;
  /** Counts one failure of the client and returns the window's count across containers. */
  count(client: string, at: Date, window: RateWindow): Promise<number>;
}

/** Sellers sign in through Cognito; this is the record behind the numeric id in their token. */
export interface SellerRepository {
  create(name: string, at: Date): Promise<number>;
  exists(sellerId: number): Promise<boolean>;
}
