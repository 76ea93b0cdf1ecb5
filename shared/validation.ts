import * as z from 'zod';

// Parsing needs no zod of its own (it calls the schema's safeParse): it lives apart so that the
// pipeline loads it without zod, which comes with a route's schemas on its first request.
export { describeIssue, parseInput } from '#shared/parse-input';

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

/**
 * What the API reference shows for a request field that its zod schema takes loosely because a use
 * case checks it itself: a sale's buyer is any object to the route, then checked as a customer with
 * the personType its document implies, so that every message names `customer.<field>`. The OpenAPI
 * generator converts the shown schema in the field's place; validation never reads it.
 */
const shownShapes = new WeakMap<z.ZodType, z.ZodType>();

export function documentedAs<S extends z.ZodType>(schema: S, shows: z.ZodType): S {
  shownShapes.set(schema, shows);
  return schema;
}

export const documentedShapeOf = (schema: z.ZodType): z.ZodType | undefined => shownShapes.get(schema);
