import { BadRequestError, ValidationError } from '#shared/errors';

/**
 * The one bound on every JSON body, checked before any other code sees the value. Depth: DynamoDB
 * stores at most 32 levels and our items wrap a body two or three levels down (an event's
 * envelope and data), and recursive code (canonical JSON, marshalling, zod) must never meet
 * thousands of levels. Size: a stored body must fit a 400 KB item, an SQS message and an
 * EventBridge entry; the largest legitimate body (50 metadata pairs and a 5,000-character
 * description) is well under 64 KiB. Keys: an empty key breaks DynamoDB maps, and control
 * characters or megabyte keys in a key are never data.
 */
export interface JsonBounds {
  maxBytes: number;
  maxDepth: number;
  maxKeyLength: number;
}

export const JSON_BOUNDS: Readonly<JsonBounds> = {
  maxBytes: 64 * 1024,
  maxDepth: 16,
  maxKeyLength: 128,
};

/** C0 and C1 controls and DEL (Unicode category Cc), or half of a surrogate pair. */
const UNSAFE_KEY = /\p{Cc}|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/u;

/** Where a node sits: its key and its parent's place, so no path is copied per node. */
interface Place {
  key: string | number;
  parent: Place | null;
  depth: number;
}

function fieldOf(place: Place | null): string {
  const path: (string | number)[] = [];
  for (let p = place; p; p = p.parent) path.push(p.key);
  return path.length === 0 ? 'body' : path.reverse().join('.');
}

/**
 * The first way `value` breaks the bounds, as a sentence naming where, or null. Iterative (an
 * explicit stack), so a value nested a million levels deep is measured without recursion.
 */
export function jsonBoundsViolation(
  value: unknown,
  bounds: Pick<JsonBounds, 'maxDepth' | 'maxKeyLength'> = JSON_BOUNDS,
): string | null {
  const stack: { value: unknown; place: Place | null }[] = [{ value, place: null }];
  while (stack.length > 0) {
    const { value: node, place } = stack.pop() as (typeof stack)[number];
    if (node === null || typeof node !== 'object') continue;
    // The root object is level 1: a container at level maxDepth + 1 is one too many.
    const depth = place?.depth ?? 0;
    if (depth >= bounds.maxDepth) {
      return `${fieldOf(place)} must not be nested more than ${bounds.maxDepth} levels deep`;
    }
    const child = (key: string | number): Place => ({ key, parent: place, depth: depth + 1 });
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push({ value: node[i], place: child(i) });
      continue;
    }
    const keys = Object.keys(node);
    for (const key of keys) {
      if (key === '') return `${fieldOf(place)} has an empty key`;
      if (key.length > bounds.maxKeyLength) {
        return `${fieldOf(place)} has a key longer than ${bounds.maxKeyLength} characters`;
      }
      if (UNSAFE_KEY.test(key)) {
        return `${fieldOf(place)} has a key with control characters: ${JSON.stringify(key.slice(0, 20))}`;
      }
    }
    for (let i = keys.length - 1; i >= 0; i--) {
      stack.push({ value: (node as Record<string, unknown>)[keys[i]], place: child(keys[i]) });
    }
  }
  return null;
}

/**
 * Parses a request body within the bounds: its size first (nothing parses a huge body), then
 * the JSON (V8's parser is iterative), then depth and keys. Malformed JSON is 400 `malformed_json`;
 * a body out of bounds is a 400 validation failure naming the field.
 */
export function parseBoundedJson(raw: string, bounds: JsonBounds = JSON_BOUNDS): unknown {
  if (Buffer.byteLength(raw, 'utf8') > bounds.maxBytes) {
    throw new ValidationError([`body must be at most ${bounds.maxBytes} bytes`]);
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (cause) {
    throw new BadRequestError('Request body is not valid JSON', 'malformed_json', { cause });
  }
  const violation = jsonBoundsViolation(value, bounds);
  if (violation) throw new ValidationError([violation]);
  return value;
}
