import type * as z from 'zod';
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
