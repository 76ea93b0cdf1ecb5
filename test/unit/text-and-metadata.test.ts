import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createCustomerSchema } from '#shared/domain/customers/schemas';
import { createProductSchema } from '#shared/domain/products/products';
import { ValidationError } from '#shared/errors';
import { METADATA_LIMITS, metadataSchema, parseInput, textField } from '#shared/validation';

function messagesOf(schema: z.ZodType, input: unknown): string[] {
  try {
    parseInput(schema, input);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).messages as string[];
  }
}

describe('textField', () => {
  const line = z.object({ name: textField('name', { max: 10, trim: true }) });
  const block = z.object({ note: textField('note', { max: 10, multiline: true }) });

  it.each([
    ['NUL', 'a\u0000b'],
    ['a bell', 'a\u0007b'],
    ['a line feed', 'a\nb'],
    ['a tab', 'a\tb'],
    ['DEL', 'a\u007fb'],
    ['a C1 control', 'a\u0085b'],
  ])('refuses %s in one-line text', (_, value) => {
    expect(messagesOf(line, { name: value })).toEqual(['name must not contain control characters']);
  });

  it('keeps line breaks and tabs in multi-line text, but not NUL', () => {
    expect(messagesOf(block, { note: 'a\r\nb\tc' })).toEqual([]);
    expect(messagesOf(block, { note: 'a\u0000' })).toEqual(['note must not contain control characters']);
  });

  it('trims, refuses what is left empty and bounds the length', () => {
    expect(parseInput(line, { name: '  Ana \n' })).toEqual({ name: 'Ana' });
    expect(messagesOf(line, { name: '   ' })).toEqual(['name must not be empty']);
    expect(messagesOf(line, { name: 'x'.repeat(11) })).toEqual(['name must be at most 10 characters long']);
    expect(messagesOf(line, {})).toEqual(['name is required']);
  });

  it('accepts accents, emoji and other scripts', () => {
    const wide = z.object({ name: textField('name', { max: 40, trim: true }) });
    expect(messagesOf(wide, { name: 'João Ção 🇧🇷 Δ 山田' })).toEqual([]);
  });

  it('names the whole path of a nested field', () => {
    const nested = z.object({ customer: z.object({ name: textField('name', { max: 10 }) }) });
    expect(messagesOf(nested, { customer: { name: 'a\u0000' } })).toEqual([
      'customer.name must not contain control characters',
    ]);
  });

  it('guards the domain schemas: customer names and addresses, product names and descriptions', () => {
    const customer = {
      name: 'Ana',
      email: 'ana@example.com',
      document: '52998224725',
      phone: '11987654321',
      personType: 'fisica',
    };
    expect(messagesOf(createCustomerSchema, { ...customer, complement: 'apto\u00001' })).toEqual([
      'complement must not contain control characters',
    ]);
    const product = { name: 'Curso', image: 'https://cdn.example.com/c.png', value: 10 };
    expect(messagesOf(createProductSchema, { ...product, name: 'C\u001bS' })).toEqual([
      'name must not contain control characters',
    ]);
    expect(messagesOf(createProductSchema, { ...product, description: 'a\nb' })).toEqual([]);
  });
});

describe('product value -0', () => {
  it('is refused as a negative amount, while 0 still means no price', () => {
    const product = { name: 'Curso', image: 'https://cdn.example.com/c.png' };
    expect(messagesOf(createProductSchema, { ...product, value: -0 })).toEqual([
      'value must be a non-negative amount with at most 2 decimal places',
    ]);
    expect(messagesOf(createProductSchema, { ...product, value: 0 })).toEqual([]);
  });
});

describe('metadataSchema (Stripe limits)', () => {
  const body = z.object({ metadata: metadataSchema.optional() });
  const pairs = (count: number) =>
    Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, 'v']));

  it('accepts 50 keys of 40 characters with 500-character values', () => {
    const metadata = Object.fromEntries(
      Array.from({ length: METADATA_LIMITS.keys }, (_, i) => [
        String(i).padStart(METADATA_LIMITS.keyLength, 'k'),
        'v'.repeat(METADATA_LIMITS.valueLength),
      ]),
    );
    expect(parseInput(body, { metadata })).toEqual({ metadata });
    expect(messagesOf(body, { metadata: { note: 'linha 1\nlinha 2' } })).toEqual([]);
  });

  it.each([
    ['51 keys', pairs(51), 'metadata must have at most 50 keys'],
    ['an empty key', { '': 'x' }, 'metadata has an empty key'],
    [
      'a 41-character key',
      { ['k'.repeat(41)]: 'v' },
      `metadata key "${'k'.repeat(20)}…" must be at most 40 characters long`,
    ],
    ['a key with NUL', { 'a\u0000': 'v' }, 'metadata key "a\\u0000" must not contain control characters'],
    ['a 501-character value', { note: 'v'.repeat(501) }, 'metadata.note must be at most 500 characters long'],
    ['a number', { n: 1 }, 'metadata.n must be a string'],
    ['an object', { n: { a: 'b' } }, 'metadata.n must be a string'],
    ['a NUL in a value', { n: 'a\u0000' }, 'metadata.n must not contain control characters'],
  ])('refuses %s', (_, metadata, message) => {
    expect(messagesOf(body, { metadata })).toContain(message);
  });

  it('reports the key count even when values are wrong too', () => {
    const metadata = { ...pairs(51), bad: 1 };
    expect(messagesOf(body, { metadata })).toEqual(
      expect.arrayContaining(['metadata must have at most 50 keys', 'metadata.bad must be a string']),
    );
  });
});
