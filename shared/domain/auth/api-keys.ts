import { createHash, timingSafeEqual } from 'node:crypto';
import type { Deps } from '#shared/domain/deps';
import type { Environment } from '#shared/domain/tenant';
import { ConflictError, NotFoundError } from '#shared/errors';
import { randomBase62 } from '#shared/ids';

export const KEY_PREFIX: Record<Environment, string> = { test: 'sk_test_', live: 'sk_live_' };
/** 40 base62 characters: about 238 bits from a CSPRNG (the issue asks for at least 32). */
export const KEY_RANDOM_LENGTH = 40;
export const API_KEY_FORMAT = /^sk_(test|live)_[0-9A-Za-z]{32,128}$/;

export interface ApiKeyRecord {
  id: string;
  sellerId: number;
  environment: Environment;
  name: string;
  keyPreview: string;
  /** `read` keys may only read (GET); anything else answers 403 Insufficient permissions. */
  permissions: KeyPermissions;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  /** SHA-256 of the full key, hex. Never leaves the repository layer in a response. */
  hash: string;
}

export type KeyPermissions = 'write' | 'read';

export interface ApiKeyView {
  id: string;
  name: string;
  environment: Environment;
  keyPreview: string;
  permissions: KeyPermissions;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface AuthenticatedKey {
  record: ApiKeyRecord;
  /** Requests counted in the current rate window, this one included. */
  count: number;
  /**
   * Whether the key's seller has (or had, since the key was made) other active keys in its
   * environment: then the seller's own count decides the limit, so that keys do not add up.
   */
  sharesSellerLimit: boolean;
}

/** Active (not revoked) API keys a seller may hold in one environment. */
export const MAX_ACTIVE_API_KEYS = 50;

export class ApiKeyLimitError extends ConflictError {
  constructor(max: number, environment: Environment) {
    super(
      `A seller may have at most ${max} active API keys in the ${environment} environment; revoke one before creating another`,
      'limit_reached',
      { reason: 'invalid_state' },
    );
  }
}

export class DuplicateKeyNameError extends ConflictError {
  constructor(name: string, environment: Environment) {
    super(
      `An API key named "${name}" already exists in the ${environment} environment`,
      'duplicate_api_key_name',
      { reason: 'already_exists' },
    );
  }
}

export const hashKey = (key: string) => createHash('sha256').update(key).digest('hex');

const SHA256_HEX = /^[0-9a-f]{64}$/i;

/** Constant-time equality of two hex digests. */
export function sameHash(a: string, b: string): boolean {
  if (!SHA256_HEX.test(a) || !SHA256_HEX.test(b)) return false;
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

export const previewOf = (key: string, environment: Environment) =>
  `${KEY_PREFIX[environment]}…${key.slice(-4)}`;

export const toView = (r: ApiKeyRecord): ApiKeyView => ({
  id: r.id,
  name: r.name,
  environment: r.environment,
  keyPreview: r.keyPreview,
  permissions: r.permissions,
  createdAt: r.createdAt,
  lastUsedAt: r.lastUsedAt,
  revokedAt: r.revokedAt,
});

export type ApiKeyDeps = Pick<Deps, 'apiKeys' | 'clock' | 'ids'>;

export async function createApiKey(
  deps: ApiKeyDeps,
  sellerId: number,
  input: { name: string; environment: Environment; permissions?: KeyPermissions },
): Promise<ApiKeyView & { key: string }> {
  const key = `${KEY_PREFIX[input.environment]}${randomBase62(KEY_RANDOM_LENGTH)}`;
  const record: ApiKeyRecord = {
    id: deps.ids.prefixed('key', 20),
    sellerId,
    environment: input.environment,
    name: input.name,
    keyPreview: previewOf(key, input.environment),
    permissions: input.permissions ?? 'write',
    createdAt: deps.clock.now().toISOString(),
    lastUsedAt: null,
    revokedAt: null,
    hash: hashKey(key),
  };
  await deps.apiKeys.create(record, MAX_ACTIVE_API_KEYS);
  return { ...toView(record), key };
}

export async function listApiKeys(deps: ApiKeyDeps, sellerId: number, environment?: Environment) {
  return (await deps.apiKeys.list(sellerId, environment)).map(toView);
}

export async function revokeApiKey(deps: ApiKeyDeps, sellerId: number, id: string): Promise<ApiKeyView> {
  const revoked = await deps.apiKeys.revoke(sellerId, id, deps.clock.now());
  if (!revoked) throw new NotFoundError('API key not found');
  return toView(revoked);
}
