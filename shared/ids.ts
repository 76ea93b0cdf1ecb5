/**
 * Pure id helpers the domain may import. The Ids port's CSPRNG implementation is an adapter
 * (shared/adapters/system/ids.ts); this module imports nothing from the domain, so no cycle.
 */
import { randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Unbiased base62 from a CSPRNG: bytes >= 248 are rejected so every symbol is equally likely. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248 && out.length < length) out += BASE62[byte % 62];
    }
  }
  return out;
}

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** The shape of a UUID in a path or body (any version, any case): cheap to check before a lookup. */
export const UUID_SHAPE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
export const looksLikeUuid = (value: unknown): value is string =>
  typeof value === 'string' && UUID_SHAPE.test(value);

/** A numeric id as a path gives it (the counters stay far below 15 digits). */
export const NUMERIC_ID = /^\d{1,15}$/;
export const looksLikeNumericId = (value: string): boolean => NUMERIC_ID.test(value);
