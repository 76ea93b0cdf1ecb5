import type { AuthenticatedKey } from '#shared/domain/auth/api-keys';
import { ApiKeyLimitError, type ApiKeyRecord, DuplicateKeyNameError } from '#shared/domain/auth/api-keys';
import type { RateWindow } from '#shared/domain/auth/rate-limit';
import type { ApiKeyRepository } from '#shared/domain/ports';
import type { Environment } from '#shared/domain/tenant';
import { ConflictError } from '#shared/errors';

interface StoredKey {
  record: ApiKeyRecord;
  /** The rate window last counted in, and its count (the DynamoDB item's two parity slots). */
  window: number | null;
  count: number;
}

/** Names are unique per seller and environment, ignoring case, among keys not revoked. */
const nameKey = (sellerId: number, environment: Environment, name: string) =>
  `${sellerId}#${environment}#${name.toLowerCase()}`;

/**
 * API keys by hash, with the DynamoDB repository's outcomes: create throws DuplicateKeyNameError
 * when an active key of the seller's environment has the name (any case), ConflictError (reason
 * `already_exists`) when the hash or id is taken, ApiKeyLimitError past `maxActive` active keys of
 * the seller's environment; revoking frees the name; authenticate counts the request in a fixed
 * window of its own per key, stamps lastUsedAt and says whether the seller has other active keys.
 */
export class FakeApiKeyRepository implements ApiKeyRepository {
  readonly keys = new Map<string, StoredKey>();
  private readonly names = new Map<string, string>();

  async create(record: ApiKeyRecord, maxActive?: number): Promise<void> {
    if (maxActive !== undefined && this.activeOf(record).length >= maxActive)
      throw new ApiKeyLimitError(maxActive, record.environment);
    const name = nameKey(record.sellerId, record.environment, record.name);
    if (this.names.has(name)) throw new DuplicateKeyNameError(record.name, record.environment);
    const taken = [...this.keys.values()].some(
      (k) =>
        k.record.hash === record.hash || (k.record.sellerId === record.sellerId && k.record.id === record.id),
    );
    if (taken)
      throw new ConflictError('The API key already exists', 'already_exists', { reason: 'already_exists' });
    // What was never written cannot have been used or revoked yet.
    const stored = { ...structuredClone(record), lastUsedAt: null, revokedAt: null };
    this.keys.set(record.hash, { record: stored, window: null, count: 0 });
    this.names.set(name, record.id);
  }

  async list(sellerId: number, environment?: Environment): Promise<ApiKeyRecord[]> {
    return [...this.keys.values()]
      .map((k) => k.record)
      .filter((r) => r.sellerId === sellerId && (!environment || r.environment === environment))
      .sort((a, b) => `${b.createdAt}#${b.id}`.localeCompare(`${a.createdAt}#${a.id}`))
      .map((r) => structuredClone(r));
  }

  async revoke(sellerId: number, id: string, at: Date): Promise<ApiKeyRecord | null> {
    const found = [...this.keys.values()].find((k) => k.record.sellerId === sellerId && k.record.id === id);
    if (!found || found.record.revokedAt) return null;
    found.record.revokedAt = at.toISOString();
    this.names.delete(nameKey(sellerId, found.record.environment, found.record.name));
    return structuredClone(found.record);
  }

  async authenticate(hash: string, at: Date, window: RateWindow): Promise<AuthenticatedKey | null> {
    const found = this.keys.get(hash);
    if (!found || found.record.revokedAt) return null;
    found.count = found.window === window.index ? found.count + 1 : 1;
    found.window = window.index;
    found.record.lastUsedAt = at.toISOString();
    const sharesSellerLimit = this.activeOf(found.record).some((k) => k.hash !== hash);
    return { record: structuredClone(found.record), count: found.count, sharesSellerLimit };
  }

  /** The active keys of a key's seller and environment. */
  private activeOf(of: Pick<ApiKeyRecord, 'sellerId' | 'environment'>): ApiKeyRecord[] {
    return [...this.keys.values()]
      .map((k) => k.record)
      .filter((r) => r.sellerId === of.sellerId && r.environment === of.environment && !r.revokedAt);
  }

  async isRevoked(hash: string): Promise<boolean> {
    return Boolean(this.keys.get(hash)?.record.revokedAt);
  }
}
