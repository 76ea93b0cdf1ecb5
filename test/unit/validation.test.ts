import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ValidationError } from '#shared/errors';
import { reaisField } from '#shared/money-field';
import { describeIssue, parseInput } from '#shared/validation';

/** The messages parseInput throws for `input`, or [] when it parses. */
function messagesOf(schema: z.ZodType, input: unknown): string[] {
  try {
    parseInput(schema, input);
    return [];
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).messages as string[];
  }
}

const product = z
  .object({
    name: z.string().min(3).max(10),
    value: z.number().min(5).max(1_000),
    price: z.number().gt(0).lt(100).optional(),
    email: z.email().optional(),
    site: z.url().optional(),
    ref: z.uuid().optional(),
    kind: z.enum(['physical', 'digital']).optional(),
    tags: z.array(z.string()).min(1).max(2).optional(),
    step: z.number().multipleOf(5).optional(),
    count: z.number().int().optional(),
    address: z.object({ zip: z.string().regex(/^\d{8}$/) }).optional(),
    amount: reaisField('amount').optional(),
  })
  .strict();

const valid = { name: 'Caneca', value: 10 };

describe('parseInput', () => {
  it('returns the parsed output when the input is valid', () => {
    expect(parseInput(product, { ...valid, amount: 49.9 })).toEqual({ ...valid, amount: 4990 });
  });

  it('throws a ValidationError with statusCode 400, code validation_failed and a messages array', () => {
    let thrown: unknown;
    try {
      parseInput(product, { ...valid, value: 3 });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    const error = thrown as ValidationError;
    expect(error.statusCode).toBe(400);
    expect(error.code).toBe('validation_failed');
    expect(error.messages).toEqual(['value must be at least 5']);
  });

  it('gives one message per invalid field, each naming its field', () => {
    expect(messagesOf(product, { value: 3, email: 'not-an-email' })).toEqual([
      'name is required',
      'value must be at least 5',
      'email must be a valid e-mail',
    ]);
  });

  it('does not repeat the same sentence twice', () => {
    const schema = z.object({
      a: z.string().min(2).regex(/x/, 'a must contain x').regex(/y/, 'a must contain x'),
    });
    expect(messagesOf(schema, { a: 'b' })).toEqual([
      'a must be at least 2 characters long',
      'a must contain x',
    ]);
  });
});

describe('describeIssue messages', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['a missing field', { name: undefined }, 'name is required'],
    ['a short string', { name: 'ab' }, 'name must be at least 3 characters long'],
    ['a long string', { name: 'abcdefghijk' }, 'name must be at most 10 characters long'],
    ['a number below an inclusive minimum', { value: 4 }, 'value must be at least 5'],
    ['a number above an inclusive maximum', { value: 1_001 }, 'value must be at most 1000'],
    ['a number at an exclusive minimum', { price: 0 }, 'price must be greater than 0'],
    ['a number at an exclusive maximum', { price: 100 }, 'price must be less than 100'],
    ['an invalid e-mail', { email: 'a@' }, 'email must be a valid e-mail'],
    ['an invalid URL', { site: 'not a url' }, 'site must be a valid URL'],
    ['an invalid UUID', { ref: '123' }, 'ref must be a valid UUID'],
    ['a value outside an enum', { kind: 'service' }, 'kind must be one of: physical, digital'],
    ['an empty array', { tags: [] }, 'tags must contain at least 1 items'],
    ['a long array', { tags: ['a', 'b', 'c'] }, 'tags must contain at most 2 items'],
    ['a number that is not a multiple', { step: 7 }, 'step must be a multiple of 5'],
    ['a regex mismatch on a nested field', { address: { zip: '123' } }, 'address.zip has an invalid format'],
    [
      'an amount with three decimal places (custom message starting with the field)',
      { amount: 1.234 },
      'amount must be a non-negative amount in Reais with at most 2 decimal places',
    ],
    ['an amount that is not a number (custom type message)', { amount: '1' }, 'amount must be a number'],
  ])('describes %s', (_, patch, message) => {
    expect(messagesOf(product, { ...valid, ...patch })).toEqual([message]);
  });

  it('names one unknown key at the root and several with "are"', () => {
    expect(messagesOf(product, { ...valid, extra: 1 })).toEqual(['extra is not allowed']);
    expect(messagesOf(product, { ...valid, a: 1, b: 2 })).toEqual(['a, b are not allowed']);
  });

  it('prefixes unknown keys of a nested object with its path', () => {
    const schema = z.object({ address: z.object({ zip: z.string() }).strict() });
    expect(messagesOf(schema, { address: { zip: '1', city: 'x' } })).toEqual(['address.city is not allowed']);
  });

  it('keeps a custom message that already starts with the field name', () => {
    const schema = z.object({ cpf: z.string().refine(() => false, { message: 'cpf is not a valid CPF' }) });
    expect(messagesOf(schema, { cpf: '1' })).toEqual(['cpf is not a valid CPF']);
  });

  it('prefixes a custom message that does not start with the field name', () => {
    const schema = z.object({ cpf: z.string().refine(() => false, { message: 'is not a valid CPF' }) });
    expect(messagesOf(schema, { cpf: '1' })).toEqual(['cpf is not a valid CPF']);
  });

  it('calls the root "body"', () => {
    expect(describeIssue({ code: 'custom', path: [], message: 'is empty', input: undefined } as never)).toBe(
      'body is empty',
    );
    expect(messagesOf(product, undefined)).toEqual(['body is required']);
  });

  it('joins array indexes into the field path', () => {
    const schema = z.object({ items: z.array(z.object({ qty: z.number().min(1) })) });
    expect(messagesOf(schema, { items: [{ qty: 1 }, { qty: 0 }] })).toEqual([
      'items.1.qty must be at least 1',
    ]);
  });

  // zod 4 strips `input` from the issues of a failed parse unless `reportInput` is set, so
  // describeIssue cannot tell "missing" from "wrong type" by looking at issue.input.
  it('says a present field of the wrong type must be of that type, not that it is required', () => {
    expect(messagesOf(product, { ...valid, value: 'ten' })).toEqual(['value must be a number']);
  });

  it('says a non-integer for an int field must be an integer', () => {
    expect(messagesOf(product, { ...valid, count: 1.5 })).toEqual(['count must be an integer']);
  });

  it('says a null body must be an object', () => {
    expect(messagesOf(product, null)).toEqual(['body must be an object']);
  });
});
