import type { ApiKeyRecord, AuthenticatedKey } from '#shared/domain/auth/api-keys';
import type { RateWindow } from '#shared/domain/auth/rate-limit';
import type { Environment } from '#shared/domain/tenant';

export interface ApiKeyRepository {
  /** Fails with DuplicateKeyNameError when an active key of that environment has the name. */
  create(record: ApiKeyRecord): Promise<void>;
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
}

/** Sellers sign in through Cognito; this is the record behind the numeric id in their token. */
export interface SellerRepository {
  create(name: string, at: Date): Promise<number>;
  exists(sellerId: number): Promise<boolean>;
}
