import { describe, expect, it } from 'vitest';
import {
  issueMagicLink,
  MAGIC_LINK_TTL_SECONDS,
  openMagicLink,
} from '#shared/domain/customer-area/magic-link';

const keyring = (byte: number) => ({ key: async () => new Uint8Array(32).fill(byte) });
const subject = { environment: 'live' as const, document: '52998224725', email: 'maria@example.com' };
const t0 = new Date('2026-03-01T12:00:00Z');
const later = (seconds: number) => new Date(t0.getTime() + seconds * 1000);

describe('magic links', () => {
  it('opens a link it issued, within its lifetime, as the same customer and environment', async () => {
    const token = await issueMagicLink({ magicLinks: keyring(1) }, subject, t0);
    expect(await openMagicLink({ magicLinks: keyring(1) }, token, later(MAGIC_LINK_TTL_SECONDS - 1))).toEqual(
      subject,
    );
  });

  it('refuses an expired link (token_expired), another key, a tampered or a malformed token (token_invalid) with 401', async () => {
    const token = await issueMagicLink({ magicLinks: keyring(1) }, subject, t0);
    const tampered = `${token.slice(0, -3)}${token.endsWith('AAA') ? 'BBB' : 'AAA'}`;
    const cases: [string | undefined, number, Uint8Array | number, string][] = [
      [token, MAGIC_LINK_TTL_SECONDS + 1, 1, 'token_expired'],
      [token, 0, 2, 'token_invalid'],
      [tampered, 0, 1, 'token_invalid'],
      ['not-a-jwt', 0, 1, 'token_invalid'],
      [undefined, 0, 1, 'token_invalid'],
    ];
    for (const [value, seconds, byte, code] of cases) {
      await expect(
        openMagicLink({ magicLinks: keyring(Number(byte)) }, value, later(seconds)),
      ).rejects.toMatchObject({ statusCode: 401, code });
    }
  });
});
