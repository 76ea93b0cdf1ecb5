import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createApiKeySchema } from '#shared/domain/auth/api-key-schema';
import {
  API_KEY_FORMAT,
  type ApiKeyRecord,
  createApiKey,
  DuplicateKeyNameError,
  hashKey,
  listApiKeys,
  previewOf,
  revokeApiKey,
  sameHash,
} from '#shared/domain/auth/api-keys';
import type { ApiKeyRepository, Clock, Ids } from '#shared/domain/ports';
import { NotFoundError } from '#shared/errors';

const NOW = new Date('2026-11-21T12:00:00.000Z');

class FakeApiKeys implements ApiKeyRepository {
  records: ApiKeyRecord[] = [];
  async create(record: ApiKeyRecord) {
    if (this.records.some((r) => r.sellerId === record.sellerId && r.name === record.name && !r.revokedAt))
      throw new DuplicateKeyNameError(record.name, record.environment);
    this.records.push(record);
  }
  async list(sellerId: number, environment?: 'test' | 'live') {
    return this.records.filter(
      (r) => r.sellerId === sellerId && (!environment || r.environment === environment),
    );
  }
  async revoke(sellerId: number, id: string, at: Date) {
    const r = this.records.find((x) => x.sellerId === sellerId && x.id === id && !x.revokedAt);
    if (!r) return null;
    r.revokedAt = at.toISOString();
    return r;
  }
  async authenticate() {
    return null;
  }
  async isRevoked() {
    return false;
  }
}

function deps() {
  const apiKeys = new FakeApiKeys();
  const clock: Clock = { now: () => NOW };
  let n = 0;
  const ids: Ids = {
    uuid: () => 'uuid',
    prefixed: (prefix, length = 24) => `${prefix}_${String(++n).padStart(length, '0')}`,
  };
  return { apiKeys, clock, ids };
}

describe('hashKey', () => {
  it('is the SHA-256 hex of the key', () => {
    expect(hashKey('sk_test_abc')).toBe(createHash('sha256').update('sk_test_abc').digest('hex'));
    expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('sameHash', () => {
  const a = hashKey('sk_test_one');
  const b = hashKey('sk_test_two');

  it('is true for equal digests', () => {
    expect(sameHash(a, a)).toBe(true);
    expect(sameHash(a, a.toUpperCase())).toBe(true);
  });

  it('is false for digests that differ in one character', () => {
    const flipped = `${a.slice(0, -1)}${a.endsWith('0') ? '1' : '0'}`;
    expect(sameHash(a, flipped)).toBe(false);
    expect(sameHash(a, b)).toBe(false);
  });

  it('is false, without throwing, for digests of different lengths', () => {
    expect(sameHash(a, a.slice(0, 62))).toBe(false);
    expect(sameHash(a, '')).toBe(false);
  });
});

describe('previewOf', () => {
  it('shows the environment prefix, an ellipsis and the last four characters', () => {
    expect(previewOf('sk_test_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXa1b2', 'test')).toBe('sk_test_…a1b2');
    expect(previewOf('sk_live_YYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYYzz99', 'live')).toBe('sk_live_…zz99');
  });
});

describe('API_KEY_FORMAT', () => {
  it.each([`sk_test_${'a'.repeat(40)}`, `sk_live_${'Z9'.repeat(16)}`, `sk_test_${'x'.repeat(128)}`])(
    'accepts %s',
    (key) => {
      expect(API_KEY_FORMAT.test(key)).toBe(true);
    },
  );

  it.each([
    ['a key with 31 random characters', `sk_test_${'a'.repeat(31)}`],
    ['a key with 129 random characters', `sk_test_${'a'.repeat(129)}`],
    ['another environment', `sk_prod_${'a'.repeat(40)}`],
    ['a publishable key', `pk_test_${'a'.repeat(40)}`],
    ['a key with a dash', `sk_test_${'a'.repeat(39)}-`],
    ['a key with trailing whitespace', `sk_test_${'a'.repeat(40)} `],
    ['an uppercase prefix', `SK_TEST_${'a'.repeat(40)}`],
    ['a bearer string', `Bearer sk_test_${'a'.repeat(40)}`],
  ])('rejects %s', (_, key) => {
    expect(API_KEY_FORMAT.test(key)).toBe(false);
  });
});

describe('createApiKey', () => {
  it('returns the key once, with its prefix and 40 base62 characters', async () => {
    const d = deps();
    const created = await createApiKey(d, 7, { name: 'CI', environment: 'test' });
    expect(created.key).toMatch(/^sk_test_[0-9A-Za-z]{40}$/);
    expect(API_KEY_FORMAT.test(created.key)).toBe(true);
    expect(created).toEqual({
      id: 'key_00000000000000000001',
      name: 'CI',
      environment: 'test',
      keyPreview: `sk_test_…${created.key.slice(-4)}`,
      permissions: 'write',
      createdAt: '2026-11-21T12:00:00.000Z',
      lastUsedAt: null,
      revokedAt: null,
      key: created.key,
    });
    expect(created).not.toHaveProperty('hash');
  });

  it('uses the live prefix for a live key', async () => {
    const created = await createApiKey(deps(), 7, { name: 'Prod', environment: 'live' });
    expect(created.key).toMatch(/^sk_live_[0-9A-Za-z]{40}$/);
    expect(created.keyPreview).toMatch(/^sk_live_…[0-9A-Za-z]{4}$/);
  });

  it('stores only the hash of the key, never the key itself', async () => {
    const d = deps();
    const created = await createApiKey(d, 7, { name: 'CI', environment: 'test' });
    expect(d.apiKeys.records).toHaveLength(1);
    const stored = d.apiKeys.records[0];
    expect(stored.hash).toBe(hashKey(created.key));
    expect(stored.sellerId).toBe(7);
    expect(JSON.stringify(stored)).not.toContain(created.key);
  });

  it('creates a different key every time', async () => {
    const d = deps();
    const one = await createApiKey(d, 7, { name: 'a', environment: 'test' });
    const two = await createApiKey(d, 7, { name: 'b', environment: 'test' });
    expect(one.key).not.toBe(two.key);
  });

  it('lets the repository refuse a duplicate name with 409 duplicate_api_key_name', async () => {
    const d = deps();
    await createApiKey(d, 7, { name: 'CI', environment: 'test' });
    await expect(createApiKey(d, 7, { name: 'CI', environment: 'test' })).rejects.toMatchObject({
      statusCode: 409,
      code: 'duplicate_api_key_name',
      message: 'An API key named "CI" already exists in the test environment',
    });
  });
});

describe('listApiKeys and revokeApiKey', () => {
  it('lists views without hashes', async () => {
    const d = deps();
    await createApiKey(d, 7, { name: 'a', environment: 'test' });
    await createApiKey(d, 7, { name: 'b', environment: 'live' });
    const all = await listApiKeys(d, 7);
    expect(all.map((k) => k.name)).toEqual(['a', 'b']);
    for (const view of all) expect(view).not.toHaveProperty('hash');
    expect((await listApiKeys(d, 7, 'live')).map((k) => k.name)).toEqual(['b']);
  });

  it('revokes with the clock time and answers 404 for an unknown key', async () => {
    const d = deps();
    const created = await createApiKey(d, 7, { name: 'a', environment: 'test' });
    const revoked = await revokeApiKey(d, 7, created.id);
    expect(revoked.revokedAt).toBe('2026-11-21T12:00:00.000Z');
    expect(revoked).not.toHaveProperty('hash');
    await expect(revokeApiKey(d, 7, created.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(revokeApiKey(d, 8, 'key_x')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('createApiKeySchema', () => {
  it('trims the name, accepts test or live, and makes keys full-access unless asked read-only', () => {
    expect(createApiKeySchema.parse({ name: '  CI  ', environment: 'live' })).toEqual({
      name: 'CI',
      environment: 'live',
      permissions: 'write',
    });
    expect(
      createApiKeySchema.parse({ name: 'r', environment: 'test', permissions: 'read' }).permissions,
    ).toBe('read');
    expect(
      createApiKeySchema.safeParse({ name: 'r', environment: 'test', permissions: 'admin' }).success,
    ).toBe(false);
  });

  it.each([
    [{ name: '', environment: 'test' }],
    [{ name: '   ', environment: 'test' }],
    [{ name: 'x'.repeat(101), environment: 'test' }],
    [{ name: 'CI', environment: 'prod' }],
    [{ name: 'CI', environment: 'test', extra: true }],
    [{ environment: 'test' }],
  ])('rejects %j', (input) => {
    expect(createApiKeySchema.safeParse(input).success).toBe(false);
  });
});
