import { createHash } from 'node:crypto';
import type { BeginOutcome } from '#shared/domain/ports';
import { ConflictError, UnprocessableError, ValidationError } from '#shared/errors';

/** Keys are kept 24 hours (spec Limits). */
export const IDEMPOTENCY_TTL_SECONDS = 86_400;
/** An in-progress record older than this belongs to a request that died (Lambda timeout is 30 s). */
export const IN_PROGRESS_LEASE_SECONDS = 60;
export const MAX_KEY_LENGTH = 255;

export interface StoredResponse {
  statusCode: number;
  body: string;
  headers: Record<string, string>;
}

/**
 * Canonical JSON (sorted keys) so that the same body with other whitespace or key order matches.
 * Iterative (an explicit stack of text and values to write): bodies are bounded before they get
 * here, but a fingerprint must never be where a deep value overflows the stack.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  const work: ({ text: string } | { value: unknown })[] = [{ value }];
  while (work.length > 0) {
    const next = work.pop() as (typeof work)[number];
    if ('text' in next) {
      out.push(next.text);
      continue;
    }
    const v = next.value;
    const parts: (typeof work)[number][] = [];
    if (Array.isArray(v)) {
      parts.push({ text: '[' });
      for (let i = 0; i < v.length; i++) {
        if (i > 0) parts.push({ text: ',' });
        parts.push({ value: v[i] });
      }
      parts.push({ text: ']' });
    } else if (v && typeof v === 'object') {
      const entries = Object.entries(v as Record<string, unknown>)
        .filter(([, item]) => item !== undefined)
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
      parts.push({ text: '{' });
      entries.forEach(([k, item], i) => {
        parts.push({ text: `${i > 0 ? ',' : ''}${JSON.stringify(k)}:` }, { value: item });
      });
      parts.push({ text: '}' });
    } else {
      out.push(JSON.stringify(v) ?? 'null');
      continue;
    }
    for (let i = parts.length - 1; i >= 0; i--) work.push(parts[i]);
  }
  return out.join('');
}

export function fingerprintOf(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method} ${path}\n${canonicalJson(body ?? null)}`)
    .digest('hex');
}

export function validateKey(key: string): void {
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !/^[\x21-\x7e]+$/.test(key)) {
    throw new ValidationError([`X-Idempotency-Key must be 1 to ${MAX_KEY_LENGTH} visible ASCII characters`]);
  }
}

/** The statuses of the IETF Idempotency-Key draft: 422 for another payload, 409 while the first runs. */
export function resolveExisting(outcome: BeginOutcome, fingerprint: string): StoredResponse | null {
  if (outcome.state === 'started') return null;
  if (outcome.fingerprint !== fingerprint) {
    throw new UnprocessableError(
      'X-Idempotency-Key was already used with other parameters; use a new key for a different request',
      'idempotency_key_reused',
    );
  }
  if (outcome.state === 'in_progress') {
    throw new ConflictError(
      'A request with this X-Idempotency-Key is still being processed; retry later',
      'idempotency_in_progress',
    );
  }
  return outcome.response;
}

/**
 * Which outcomes pin the key. 5xx never does (the client must be able to retry); neither does a
 * validation failure, which happens before the operation runs (as Stripe does). Other answers,
 * successes and business refusals alike, are replayed.
 */
export function pinsKey(statusCode: number, code?: string): boolean {
  return statusCode < 500 && code !== 'validation_failed' && code !== 'malformed_json';
}
