import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  fingerprintOf,
  MAX_KEY_LENGTH,
  pinsKey,
  resolveExisting,
  type StoredResponse,
  validateKey,
} from '#shared/domain/idempotency';
import type { BeginOutcome } from '#shared/domain/ports';
import { ConflictError, UnprocessableError, ValidationError } from '#shared/errors';

/** The same JSON value with the keys of every object in another order. */
function shuffleKeys(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v, i) => shuffleKeys(v, seed + i));
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v], i) => [k, shuffleKeys(v, seed + i)] as const);
    const rotated = entries.length ? (seed % entries.length) + 1 : 0;
    const reordered = [...entries.slice(rotated), ...entries.slice(0, rotated)].reverse();
    // fromEntries defines own properties, so a "__proto__" key stays a key.
    return Object.fromEntries(reordered);
  }
  return value;
}

describe('canonicalJson', () => {
  it('sorts keys at every level and drops undefined values', () => {
    expect(canonicalJson({ b: 1, a: { d: [2, { z: 1, y: 2 }], c: undefined } })).toBe(
      '{"a":{"d":[2,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('writes scalars and null as JSON does', () => {
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson('a"b')).toBe('"a\\"b"');
    expect(canonicalJson(49.9)).toBe('49.9');
    expect(canonicalJson([undefined])).toBe('[null]');
  });

  it('does not depend on key order (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), (value, seed) => {
        expect(canonicalJson(shuffleKeys(value, seed))).toBe(canonicalJson(value));
      }),
    );
  });

  it('is valid JSON that parses back to an equal value (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
});

describe('fingerprintOf', () => {
  const body = { amount: 4990, customer: { name: 'A', email: 'a@b.co' } };
  const base = fingerprintOf('POST', '/api/payments', body);

  it('is a SHA-256 hex digest', () => {
    expect(base).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is the same for the same body with other key order', () => {
    expect(
      fingerprintOf('POST', '/api/payments', { customer: { email: 'a@b.co', name: 'A' }, amount: 4990 }),
    ).toBe(base);
  });

  it('differs by method', () => {
    expect(fingerprintOf('PUT', '/api/payments', body)).not.toBe(base);
  });

  it('differs by path', () => {
    expect(fingerprintOf('POST', '/api/refunds', body)).not.toBe(base);
  });

  it('differs by body', () => {
    expect(fingerprintOf('POST', '/api/payments', { ...body, amount: 4991 })).not.toBe(base);
    expect(fingerprintOf('POST', '/api/payments', { ...body, amount: '4990' })).not.toBe(base);
  });

  it('treats a missing body as null', () => {
    expect(fingerprintOf('POST', '/x', undefined)).toBe(fingerprintOf('POST', '/x', null));
    expect(fingerprintOf('POST', '/x', undefined)).not.toBe(fingerprintOf('POST', '/x', {}));
  });
});

describe('validateKey', () => {
  it.each(['a', 'f47ac10b-58cc-4372-a567-0e02b2c3d479', '!~', 'x'.repeat(MAX_KEY_LENGTH)])(
    'accepts %s',
    (key) => {
      expect(() => validateKey(key)).not.toThrow();
    },
  );

  it.each([
    ['an empty key', ''],
    ['a key of 256 characters', 'x'.repeat(MAX_KEY_LENGTH + 1)],
    ['a key with a space', 'a b'],
    ['a key with a tab', 'a\tb'],
    ['a key with a non-ASCII character', 'chave-ç'],
    ['a key with a newline', 'a\n'],
  ])('rejects %s with a 400 naming the header', (_, key) => {
    let thrown: unknown;
    try {
      validateKey(key);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).statusCode).toBe(400);
    expect((thrown as ValidationError).messages).toEqual([
      'X-Idempotency-Key must be 1 to 255 visible ASCII characters',
    ]);
  });
});

describe('resolveExisting', () => {
  const response: StoredResponse = { statusCode: 201, body: '{"id":"pay_1"}', headers: { location: '/x' } };

  it('lets a newly claimed key run', () => {
    expect(resolveExisting({ state: 'started' }, 'f1')).toBeNull();
  });

  it('replays the stored response for the same fingerprint', () => {
    expect(resolveExisting({ state: 'completed', fingerprint: 'f1', response }, 'f1')).toBe(response);
  });

  it.each<BeginOutcome>([
    { state: 'completed', fingerprint: 'f1', response },
    { state: 'in_progress', fingerprint: 'f1' },
  ])('answers 422 idempotency_key_reused for another fingerprint (state $state)', (outcome) => {
    let thrown: unknown;
    try {
      resolveExisting(outcome, 'f2');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UnprocessableError);
    expect(thrown).toMatchObject({ statusCode: 422, code: 'idempotency_key_reused' });
  });

  it('answers 409 idempotency_in_progress while the first request runs', () => {
    let thrown: unknown;
    try {
      resolveExisting({ state: 'in_progress', fingerprint: 'f1' }, 'f1');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConflictError);
    expect(thrown).toMatchObject({ statusCode: 409, code: 'idempotency_in_progress' });
  });
});

describe('pinsKey', () => {
  it.each([
    [201, undefined, true],
    [200, undefined, true],
    [404, 'not_found', true],
    [409, 'conflict', true],
    [422, 'unprocessable', true],
    [400, 'bad_request', true],
    [400, 'validation_failed', false],
    [400, 'malformed_json', false],
    [500, 'internal_error', false],
    [502, undefined, false],
    [503, 'service_unavailable', false],
    [599, undefined, false],
    [499, undefined, true],
  ])('status %i with code %s pins the key: %s', (status, code, expected) => {
    expect(pinsKey(status, code)).toBe(expected);
  });

  it('never pins a 5xx whatever the code (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 500, max: 599 }),
        fc.option(fc.string(), { nil: undefined }),
        (s, code) => {
          expect(pinsKey(s, code)).toBe(false);
        },
      ),
    );
  });
});
