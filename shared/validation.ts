import * as z from 'zod';
import { ValidationError } from '#shared/errors';

type Issue = z.core.$ZodIssue;

function fieldName(path: PropertyKey[]): string {
  return path.length === 0 ? 'body' : path.map(String).join('.');
}

/** One readable sentence per zod issue, starting with the field it is about. */
export function describeIssue(issue: Issue): string {
  const field = fieldName(issue.path);
  // A schema that wrote its own sentence (starting with the field) keeps it; a nested schema's
  // sentence names only its own key ("phone must…" inside customer), so it gets the full path.
  if (issue.message.startsWith(`${field} `)) return issue.message;
  const key = issue.path.length > 1 ? String(issue.path[issue.path.length - 1]) : undefined;
  if (key && issue.message.startsWith(`${key} `)) return `${field}${issue.message.slice(key.length)}`;
  switch (issue.code) {
    case 'invalid_type':
      if ((issue as { input?: unknown }).input === undefined) return `${field} is required`;
      return `${field} must be ${article(issue.expected)}`;
    case 'too_small': {
      const min = String(issue.minimum);
      if (issue.origin === 'string') return `${field} must be at least ${min} characters long`;
      if (issue.origin === 'array') return `${field} must contain at least ${min} items`;
      return `${field} must be ${issue.inclusive === false ? 'greater than' : 'at least'} ${min}`;
    }
    case 'too_big': {
      const max = String(issue.maximum);
      if (issue.origin === 'string') return `${field} must be at most ${max} characters long`;
      if (issue.origin === 'array') return `${field} must contain at most ${max} items`;
      return `${field} must be ${issue.inclusive === false ? 'less than' : 'at most'} ${max}`;
    }
    case 'invalid_format':
      if (issue.format === 'email') return `${field} must be a valid e-mail`;
      if (issue.format === 'url') return `${field} must be a valid URL`;
      if (issue.format === 'uuid') return `${field} must be a valid UUID`;
      return `${field} has an invalid format`;
    case 'invalid_value':
      return `${field} must be one of: ${issue.values.map(String).join(', ')}`;
    case 'unrecognized_keys':
      return `${issue.keys.map((k) => (field === 'body' ? k : `${field}.${k}`)).join(', ')} ${issue.keys.length > 1 ? 'are' : 'is'} not allowed`;
    case 'not_multiple_of':
      return `${field} must be a multiple of ${String(issue.divisor)}`;
    default:
      return issue.message.startsWith(field) ? issue.message : `${field} ${issue.message}`.trim();
  }
}

function article(expected: string): string {
  if (expected === 'int') return 'an integer';
  if (expected === 'object' || expected === 'array') return `an ${expected}`;
  return `a ${expected}`;
}

/** Parses with a use case's schema; failure is a 400 with one message per invalid field. */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  // reportInput keeps the rejected value on each issue, which tells 'missing' from 'wrong type'.
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const messages = [...new Set(result.error.issues.map(describeIssue))];
  throw new ValidationError(messages);
}

/** C0 and C1 control characters and DEL (Unicode Cc), NUL included. */
const CONTROL = /\p{Cc}/u;
/** The same, but tab, line feed and carriage return are text in a multi-line field. */
const CONTROL_EXCEPT_LINE_BREAKS = /(?![\t\n\r])\p{Cc}/u;

/**
 * The one schema of free text that people type (names, addresses, descriptions): a string of at
 * most `max` characters without NUL or other control characters, which no name contains and which
 * break logs, PDFs, e-mails and the systems we hand the text to. `multiline` keeps line breaks and
 * tabs (descriptions); `trim` trims first and refuses what is left empty.
 */
export function textField(field: string, options: { max: number; trim?: boolean; multiline?: boolean }) {
  const base = options.trim
    ? z
        .string()
        .trim()
        .min(1, `${field} must not be empty`)
        .max(options.max, `${field} must be at most ${options.max} characters long`)
    : z.string().max(options.max, `${field} must be at most ${options.max} characters long`);
  const control = options.multiline ? CONTROL_EXCEPT_LINE_BREAKS : CONTROL;
  // No field in this sentence: describeIssue prefixes the issue's whole path (customer.name).
  return base.refine((v) => !control.test(v), 'must not contain control characters');
}

/** Stripe's limits (docs.stripe.com/metadata): 50 pairs, keys up to 40 and values up to 500 characters. */
export const METADATA_LIMITS = { keys: 50, keyLength: 40, valueLength: 500 } as const;

/**
 * The one schema of every `metadata` map: string keys and values within METADATA_LIMITS, keys
 * without control characters, values as free multi-line text. Checked with the rest of a request,
 * before anything is written.
 */
export const metadataSchema = z
  .record(
    z.string(),
    z
      .string({ error: 'must be a string' })
      .max(METADATA_LIMITS.valueLength, `must be at most ${METADATA_LIMITS.valueLength} characters long`)
      .refine((v) => !CONTROL_EXCEPT_LINE_BREAKS.test(v), 'must not contain control characters'),
  )
  .superRefine(
    (value, ctx) => {
      const keys = Object.keys(value);
      const issue = (message: string) => ctx.addIssue({ code: 'custom', message, input: value });
      if (keys.length > METADATA_LIMITS.keys) issue(`must have at most ${METADATA_LIMITS.keys} keys`);
      for (const key of keys) {
        const shown = JSON.stringify(key.length > 20 ? `${key.slice(0, 20)}…` : key);
        if (key.length === 0) issue('has an empty key');
        else if (key.length > METADATA_LIMITS.keyLength) {
          issue(`key ${shown} must be at most ${METADATA_LIMITS.keyLength} characters long`);
        } else if (CONTROL.test(key)) issue(`key ${shown} must not contain control characters`);
      }
    },
    // Said together with the values' own issues, whenever the map is an object at all.
    { when: (payload) => typeof payload.value === 'object' && payload.value !== null },
  );
