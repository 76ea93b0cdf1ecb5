import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, fingerprintOf } from '#shared/domain/idempotency';
import { BadRequestError, ValidationError } from '#shared/errors';
import { JSON_BOUNDS, jsonBoundsViolation, parseBoundedJson } from '#shared/json-bounds';

/** `{"a":{"a":…1…}}`, `levels` objects deep. */
const nested = (levels: number, key = 'a') => `${`{"${key}":`.repeat(levels)}1${'}'.repeat(levels)}`;

function messagesOf(raw: string): string[] {
  try {
    parseBoundedJson(raw);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).messages as string[];
  }
}

describe('parseBoundedJson', () => {
  it('parses a body within the bounds', () => {
    expect(parseBoundedJson('{"name":"Ana","tags":[1,{"x":null}]}')).toEqual({
      name: 'Ana',
      tags: [1, { x: null }],
    });
  });

  it('accepts exactly 16 levels and refuses 17, naming the path of the 17th', () => {
    expect(messagesOf(nested(16))).toEqual([]);
    expect(messagesOf(nested(17))).toEqual([
      'a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a must not be nested more than 16 levels deep',
    ]);
    expect(messagesOf(`${'['.repeat(17)}${']'.repeat(17)}`)).toEqual([
      '0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0 must not be nested more than 16 levels deep',
    ]);
  });

  it('measures a million levels without overflowing the stack', () => {
    const deep = JSON.parse(`${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`);
    expect(jsonBoundsViolation(deep)).toMatch(/nested more than 16/);
    expect(jsonBoundsViolation(deep, { maxDepth: 2_000_000, maxKeyLength: 128 })).toBeNull();
  });

  it('refuses 5,000 levels (the probe) by depth before anything else', () => {
    expect(messagesOf(nested(5_000))).toEqual([
      'a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a must not be nested more than 16 levels deep',
    ]);
  });

  it('refuses an empty key, a key with a control character and an overlong key, naming the object', () => {
    expect(messagesOf('{"":1}')).toEqual(['body has an empty key']);
    expect(messagesOf('{"metadata":{"":"x"}}')).toEqual(['metadata has an empty key']);
    expect(messagesOf('{"a":[{"b\\u0000":1}]}')).toEqual([
      'a.0 has a key with control characters: "b\\u0000"',
    ]);
    expect(messagesOf('{"a\\u0085":1}')[0]).toMatch(/^body has a key with control characters/);
    expect(messagesOf('{"\\ud800":1}')[0]).toMatch(/^body has a key with control characters/);
    expect(messagesOf(`{"${'k'.repeat(128)}":1}`)).toEqual([]);
    expect(messagesOf(`{"${'k'.repeat(129)}":1}`)).toEqual(['body has a key longer than 128 characters']);
  });

  it('accepts keys with accents, emoji and spaces', () => {
    expect(messagesOf('{"São Paulo 🇧🇷":1,"customer.name":"x"}')).toEqual([]);
  });

  it('refuses a body over 64 KiB counted in UTF-8 bytes, before parsing it', () => {
    const justFits = `"${'x'.repeat(JSON_BOUNDS.maxBytes - 2)}"`;
    expect(messagesOf(justFits)).toEqual([]);
    expect(messagesOf(`"${'x'.repeat(JSON_BOUNDS.maxBytes - 1)}"`)).toEqual([
      'body must be at most 65536 bytes',
    ]);
    // 2 bytes per "é": half as many characters already overflow.
    expect(messagesOf(`"${'é'.repeat(JSON_BOUNDS.maxBytes / 2)}"`)).toEqual([
      'body must be at most 65536 bytes',
    ]);
    // Not even malformed JSON is parsed once it is too large.
    expect(messagesOf(`{${' '.repeat(JSON_BOUNDS.maxBytes)}`)).toEqual(['body must be at most 65536 bytes']);
  });

  it('answers malformed JSON with the malformed_json 400', () => {
    for (const raw of ['{', '{"a":}', 'nope', '']) {
      const error = (() => {
        try {
          parseBoundedJson(raw);
        } catch (e) {
          return e;
        }
      })();
      expect(error, raw).toBeInstanceOf(BadRequestError);
      expect((error as BadRequestError).code).toBe('malformed_json');
    }
  });

  it('finds no violation in any JSON within the depth and key bounds (property)', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 6 }).filter((v) => !JSON.stringify(v).includes('"":')),
        (value) => {
          // Keys made of printable characters only, as fast-check's default strings are.
          const keys = JSON.stringify(value).match(/"((?:[^"\\]|\\.)*)":/g) ?? [];
          fc.pre(keys.every((k) => !/\\u00[0189][0-9a-f]|\\u007f|\\[bfnrt]/i.test(k)));
          expect(jsonBoundsViolation(value)).toBeNull();
        },
      ),
    );
  });
});

describe('canonicalJson stays safe and unchanged', () => {
  /** The recursive version it replaced: fingerprints stored before the change must still match. */
  function recursive(value: unknown): string {
    if (Array.isArray(value)) return `[${value.map(recursive).join(',')}]`;
    if (value && typeof value === 'object') {
      const entries = Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${recursive(v)}`).join(',')}}`;
    }
    return JSON.stringify(value) ?? 'null';
  }

  it('writes exactly what the recursive version wrote (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(value)).toBe(recursive(value));
      }),
    );
    const odd = { b: [undefined, 1, { d: undefined, c: 'x' }], a: null, e: {} };
    expect(canonicalJson(odd)).toBe(recursive(odd));
  });

  it('fingerprints 100,000 levels of nesting without overflowing the stack', () => {
    const deep = JSON.parse(nested(100_000));
    expect(() => recursive(deep)).toThrow(RangeError);
    expect(canonicalJson(deep)).toBe(nested(100_000));
    expect(fingerprintOf('POST', '/api/v1/customers', deep)).toMatch(/^[0-9a-f]{64}$/);
  });
});
