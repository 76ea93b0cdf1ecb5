import { afterEach, describe, expect, it } from 'vitest';
import { configureLogs, createLogger, redact } from '#shared/logger';

const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c';

describe('redact', () => {
  it('replaces the authorization header whatever its case', () => {
    expect(
      redact({ headers: { Authorization: 'Bearer abc', authorization: 'x', 'content-type': 'json' } }),
    ).toEqual({
      headers: { Authorization: '[redacted]', authorization: '[redacted]', 'content-type': 'json' },
    });
  });

  it.each([
    'x-api-key',
    'apiKey',
    'api_key',
    'password',
    'clientSecret',
    'webhookSecret',
    'accessToken',
    'cardNumber',
    'number',
    'cvv',
    'key',
  ])('replaces the value under the key %s', (key) => {
    expect(redact({ [key]: 'value-that-must-not-leak' })).toEqual({ [key]: '[redacted]' });
  });

  it('replaces a whole card object under a card key', () => {
    expect(redact({ card: { number: '4111111111111111', holder: 'Fulano' } })).toEqual({
      card: '[redacted]',
    });
  });

  it('keeps harmless keys', () => {
    expect(redact({ id: 'pay_1', status: 'paid', amount: 4990, idempotencyKey: 'abc' })).toEqual({
      id: 'pay_1',
      status: 'paid',
      amount: 4990,
      idempotencyKey: 'abc',
    });
  });

  it.each([
    ['a test API key', 'key sk_test_4eC39HqLyjWDarjtT1zdp7dc was used', 'key [redacted] was used'],
    ['a live API key', 'Bearer sk_live_51H8aBcDeFgHiJkLmNoP', 'Bearer [redacted]'],
    ['a webhook secret', 'secret=whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'secret=[redacted]'],
    ['a JWT', `token ${JWT} expired`, 'token [redacted] expired'],
    [
      'a pay link’s secret, keeping the charge it names',
      `/cobranca/cob_42_sch_test_AbCdEfGhIjKlMnOpQrStUvWx_${'k'.repeat(32)}/card`,
      '/cobranca/cob_42_sch_test_AbCdEfGhIjKlMnOpQrStUvWx_[redacted]/card',
    ],
    [
      'a carnê booklet link’s secret, keeping the plan it names',
      `/carne/crn_7_live_6199371f-023a-4402-ad16-a95ed8476b03_${'Qm7TzVw2'.repeat(4)}`,
      '/carne/crn_7_live_6199371f-023a-4402-ad16-a95ed8476b03_[redacted]',
    ],
    ['an older pay link’s secret', `/cobranca/cob_${'k'.repeat(32)}`, '/cobranca/cob_[redacted]'],
    [
      'a checkout session id, keeping the product uuid it carries',
      `/api/public/checkout/cs_test_AbCdEfGhIjKlMnOpQrStUvWx${'0123456789abcdef'.repeat(2)}/pay`,
      `/api/public/checkout/cs_test_[redacted]${'0123456789abcdef'.repeat(2)}/pay`,
    ],
    [
      'a live checkout session id in a page path',
      `/checkout/cs_live_ZyXwVuTsRqPoNmLkJiHgFeDc${'f'.repeat(32)}`,
      `/checkout/cs_live_[redacted]${'f'.repeat(32)}`,
    ],
    [
      'an older checkout session id (no product uuid)',
      'session cs_test_AbCdEfGhIjKlMnOpQrStUvWx expired',
      'session cs_test_[redacted] expired',
    ],
    [
      'a checkout session id in a success URL',
      'https://shop.example.com/ok?session=cs_test_AbCdEfGhIjKlMnOpQrStUvWxyz12',
      'https://shop.example.com/ok?session=cs_test_[redacted]',
    ],
  ])('replaces %s inside a string', (_, input, output) => {
    expect(redact(input)).toBe(output);
    expect(redact({ message: input })).toEqual({ message: output });
  });

  it('replaces every secret in one string', () => {
    expect(redact('sk_test_aaaaaaaa and sk_live_bbbbbbbb')).toBe('[redacted] and [redacted]');
  });

  it('redacts nested objects and arrays', () => {
    const input = {
      request: {
        headers: { authorization: 'Bearer x' },
        body: { cardNumber: '4111111111111111', name: 'A' },
      },
      list: [{ password: 'p' }, 'sk_test_abcdefgh'],
    };
    expect(redact(input)).toEqual({
      request: { headers: { authorization: '[redacted]' }, body: { cardNumber: '[redacted]', name: 'A' } },
      list: [{ password: '[redacted]' }, '[redacted]'],
    });
  });

  it('stops at a depth limit instead of recursing forever', () => {
    const deep: Record<string, unknown> = {};
    let cursor = deep;
    for (let i = 0; i < 20; i++) {
      cursor.next = {};
      cursor = cursor.next as Record<string, unknown>;
    }
    expect(JSON.stringify(redact(deep))).toContain('[depth]');
  });

  it('keeps numbers, booleans, null and undefined', () => {
    expect(redact(42)).toBe(42);
    expect(redact(true)).toBe(true);
    expect(redact(null)).toBeNull();
    expect(redact(undefined)).toBeUndefined();
  });

  it('turns an Error into name, message, stack and cause with secrets in the message replaced', () => {
    const error = new Error('rejected sk_live_51H8aBcDeFgHiJkLmNoP', { cause: new Error(`bad ${JWT}`) });
    const out = redact(error) as Record<string, unknown>;
    expect(out.name).toBe('Error');
    expect(out.message).toBe('rejected [redacted]');
    expect(typeof out.stack).toBe('string');
    expect((out.cause as Record<string, unknown>).message).toBe('bad [redacted]');
  });

  // The stack's first line repeats the message, so an unredacted stack leaks what the message hid.
  it('does not leak a secret through the stack of an Error', () => {
    const error = new Error('rejected sk_live_51H8aBcDeFgHiJkLmNoP', { cause: new Error(`bad ${JWT}`) });
    const text = JSON.stringify(redact(error));
    expect(text).not.toContain('sk_live_51H8aBcDeFgHiJkLmNoP');
    expect(text).not.toContain(JWT);
  });
});

describe('createLogger', () => {
  const lines: string[] = [];
  afterEach(() => {
    lines.length = 0;
    configureLogs({ sink: (line) => process.stdout.write(`${line}\n`), level: 'info' });
  });

  it('writes one redacted JSON line with the base and call context', () => {
    configureLogs({ sink: (line) => lines.push(line), level: 'debug' });
    createLogger({ service: 'payment-service' })
      .child({ requestId: 'r1' })
      .info('authorized', {
        headers: { authorization: 'Bearer sk_test_abcdefgh' },
        note: 'sk_test_abcdefgh',
      });
    expect(lines).toHaveLength(1);
    const entry = JSON.parse(lines[0]);
    expect(entry).toMatchObject({
      level: 'info',
      message: 'authorized',
      service: 'payment-service',
      requestId: 'r1',
      headers: { authorization: '[redacted]' },
      note: '[redacted]',
    });
    expect(lines[0]).not.toContain('sk_test_abcdefgh');
  });

  it('drops entries below the configured level', () => {
    configureLogs({ sink: (line) => lines.push(line), level: 'warn' });
    const log = createLogger();
    log.debug('d');
    log.info('i');
    log.warn('w');
    log.error('e');
    expect(lines.map((l) => JSON.parse(l).level)).toEqual(['warn', 'error']);
  });
});
