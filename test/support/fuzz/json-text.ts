/** JSON text placed verbatim inside a body: `-0`, `1e400`, 5,000 levels of nesting, broken syntax. */
export class RawJson {
  constructor(readonly text: string) {}
}

export const raw = (text: string) => new RawJson(text);

/**
 * JSON text of a value that may hold RawJson parts. Unlike JSON.stringify it keeps `-0`, keeps
 * `__proto__` as an ordinary key and writes a non-finite number as its name (which is not JSON).
 */
export function jsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  const entries = Object.getOwnPropertyNames(value).map(
    (k) => `${JSON.stringify(k)}:${jsonText((value as Record<string, unknown>)[k])}`,
  );
  return `{${entries.join(',')}}`;
}

/** `{"a":{"a":…1…}}` or `[[…1…]]`, `levels` containers deep, as text (never built as objects). */
export function nested(levels: number, shape: 'object' | 'array' | 'mixed'): RawJson {
  let open = '';
  let close = '';
  for (let i = 0; i < levels; i++) {
    const object = shape === 'object' || (shape === 'mixed' && i % 2 === 0);
    open += object ? '{"a":' : '[';
    close = (object ? '}' : ']') + close;
  }
  return raw(`${open}1${close}`);
}

/** A plain object whose own keys may include `__proto__` (an object literal would set the prototype). */
export function withKey(
  target: Record<string, unknown>,
  key: string,
  value: unknown,
): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const k of Object.getOwnPropertyNames(target)) Object.defineProperty(copy, k, descriptor(target[k]));
  Object.defineProperty(copy, key, descriptor(value));
  return copy;
}

const descriptor = (value: unknown): PropertyDescriptor => ({
  value,
  enumerable: true,
  writable: true,
  configurable: true,
});

/** UTF-8 bytes percent-encoded except RFC 3986 unreserved characters (a lone surrogate becomes U+FFFD). */
export function pct(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
