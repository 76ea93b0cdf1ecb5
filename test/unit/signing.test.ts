import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeSignature,
  parseSignatureHeader,
  SignatureVerificationError,
  signatureHeader,
  verifySignature,
} from '#events/signing';

const body = JSON.stringify({
  id: 'evt_1',
  event: 'product.created',
  timestamp: '2026-11-21T12:00:00.000Z',
  data: { id: 1 },
});
const secret = 'whsec_test_secret';
const t = 1_795_300_000;
const now = new Date(t * 1000);

describe('webhook signatures', () => {
  it('signs HMAC-SHA256 of "<t>.<raw body>" in hex, as X-Signature t=…,v1=…', () => {
    const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
    expect(computeSignature(secret, t, body)).toBe(expected);
    expect(signatureHeader([secret], t, body)).toBe(`t=${t},v1=${expected}`);
  });

  it('verifies what it signs, for any body and secret (round trip)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), (raw, key) => {
        const header = signatureHeader([key], t, raw);
        expect(verifySignature({ header, rawBody: raw, secrets: key, now })).toBe(t);
      }),
    );
  });

  it.each([
    ['a missing header', undefined],
    ['an empty header', ''],
    ['no timestamp', `v1=${'a'.repeat(64)}`],
    ['no v1', `t=${t}`],
    ['a v1 that is not hex', `t=${t},v1=${'z'.repeat(64)}`],
  ])('rejects %s', (_name, header) => {
    expect(() => verifySignature({ header, rawBody: body, secrets: secret, now })).toThrow(
      SignatureVerificationError,
    );
  });

  it('rejects a wrong secret, a changed body and a changed timestamp', () => {
    const header = signatureHeader([secret], t, body);
    expect(() => verifySignature({ header, rawBody: body, secrets: 'other', now })).toThrow(
      /no signature matches/,
    );
    expect(() => verifySignature({ header, rawBody: `${body} `, secrets: secret, now })).toThrow(
      /no signature matches/,
    );
    const moved = header.replace(`t=${t}`, `t=${t + 1}`);
    expect(() => verifySignature({ header: moved, rawBody: body, secrets: secret, now })).toThrow(
      /no signature matches/,
    );
  });

  it('rejects a timestamp outside the 5-minute tolerance, either way, and accepts one at the edge', () => {
    const header = signatureHeader([secret], t, body);
    const at = (seconds: number) => new Date((t + seconds) * 1000);
    expect(verifySignature({ header, rawBody: body, secrets: secret, now: at(300) })).toBe(t);
    expect(verifySignature({ header, rawBody: body, secrets: secret, now: at(-300) })).toBe(t);
    expect(() => verifySignature({ header, rawBody: body, secrets: secret, now: at(301) })).toThrow(
      /tolerance/,
    );
    expect(() => verifySignature({ header, rawBody: body, secrets: secret, now: at(-301) })).toThrow(
      /tolerance/,
    );
    expect(
      verifySignature({ header, rawBody: body, secrets: secret, now: at(3_000), toleranceSeconds: 3_600 }),
    ).toBe(t);
  });

  it('accepts any of several v1 values during a rotation, and any of several secrets', () => {
    const header = signatureHeader(['new-secret', 'old-secret'], t, body);
    expect(parseSignatureHeader(header).signatures).toHaveLength(2);
    expect(verifySignature({ header, rawBody: body, secrets: 'old-secret', now })).toBe(t);
    expect(verifySignature({ header, rawBody: body, secrets: 'new-secret', now })).toBe(t);
    const single = signatureHeader(['old-secret'], t, body);
    expect(
      verifySignature({ header: single, rawBody: body, secrets: ['new-secret', 'old-secret'], now }),
    ).toBe(t);
  });

  it('refuses to sign without a secret', () => {
    expect(() => signatureHeader([], t, body)).toThrow();
  });
});
