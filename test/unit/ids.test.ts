import { describe, expect, it } from 'vitest';
import { cryptoIds } from '#shared/adapters/system/ids';
import { randomBase62, UUID_V4 } from '#shared/ids';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

describe('randomBase62', () => {
  it.each([0, 1, 20, 40, 200])('returns exactly %i characters', (length) => {
    expect(randomBase62(length)).toHaveLength(length);
  });

  it('uses only the 62 alphanumeric characters', () => {
    expect(randomBase62(5_000)).toMatch(/^[0-9A-Za-z]+$/);
  });

  it('does not repeat itself', () => {
    const seen = new Set(Array.from({ length: 1_000 }, () => randomBase62(20)));
    expect(seen.size).toBe(1_000);
  });

  it('uses every symbol about equally often (loose chi-square check)', () => {
    const n = 62 * 2_000;
    const counts = new Map<string, number>();
    for (const ch of randomBase62(n)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const expected = n / 62;
    let chi2 = 0;
    for (const symbol of BASE62) chi2 += ((counts.get(symbol) ?? 0) - expected) ** 2 / expected;
    // 61 degrees of freedom: the mean is 61 and p(chi2 > 130) is below 1e-6. A modulo bias
    // without rejection (256 % 62 = 8 symbols more likely by 1/4) gives chi2 near 1,000 here.
    expect(chi2).toBeLessThan(130);
    // The first 8 symbols are the ones a naive `byte % 62` would favour.
    const favoured = [...BASE62.slice(0, 8)].reduce((sum, s) => sum + (counts.get(s) ?? 0), 0);
    expect(favoured / (8 * expected)).toBeLessThan(1.08);
  });
});

describe('cryptoIds', () => {
  it('prefixes an id with `prefix_` and 24 base62 characters by default', () => {
    expect(cryptoIds.prefixed('pay')).toMatch(/^pay_[0-9A-Za-z]{24}$/);
  });

  it('honours a given length', () => {
    expect(cryptoIds.prefixed('key', 20)).toMatch(/^key_[0-9A-Za-z]{20}$/);
  });

  it('gives a UUID v4', () => {
    const id = cryptoIds.uuid();
    expect(id).toMatch(UUID_V4);
    expect(cryptoIds.uuid()).not.toBe(id);
  });

  it('UUID_V4 rejects other versions and variants', () => {
    expect(UUID_V4.test('123e4567-e12b-12d1-a456-426655440000')).toBe(false);
    expect(UUID_V4.test('123e4567-e12b-42d1-c456-426655440000')).toBe(false);
    expect(UUID_V4.test('123e4567-e12b-42d1-a456-426655440000')).toBe(true);
  });
});
