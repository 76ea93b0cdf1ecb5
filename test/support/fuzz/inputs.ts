import fc from 'fast-check';
import * as z from 'zod';
import { jsonText, nested, pct, type RawJson, raw, withKey } from './json-text';

/** The parts of JSON Schema that z.toJSONSchema emits for our request schemas. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  not?: JsonSchema;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
}

/** A request schema as the client sees it (input side: defaults optional, before transforms). */
export const inputSchemaOf = (schema: z.ZodType): JsonSchema =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;

/** The variant of a nullable or union schema that is not null. */
function main(schema: JsonSchema): JsonSchema {
  const variants = schema.anyOf ?? schema.oneOf;
  if (!variants) return schema;
  return variants.find((v) => v.type !== 'null') ?? variants[0];
}

function typeOf(schema: JsonSchema): string | undefined {
  const m = main(schema);
  if (m.enum) return typeof m.enum[0];
  return Array.isArray(m.type) ? m.type.find((t) => t !== 'null') : m.type;
}

/** A value the schema accepts (refinements aside: those are what the routes' own bases cover). */
export function validValue(schema: JsonSchema): fc.Arbitrary<unknown> {
  const m = main(schema);
  if (m.enum) return fc.constantFrom(...m.enum);
  if (m.const !== undefined) return fc.constant(m.const);
  const low = m.minimum ?? (m.exclusiveMinimum !== undefined ? m.exclusiveMinimum + 1 : 0);
  const high = Math.min(m.maximum ?? low + 1000, low + 1000);
  switch (typeOf(m)) {
    case 'string':
      if (m.format === 'uri') return fc.constant('https://cdn.example.com/a.png');
      if (m.format === 'email') return fc.constant('ana@example.com');
      if (m.format === 'date-time')
        return fc
          .integer({ min: 1_577_836_800_000, max: 1_893_456_000_000 })
          .map((t) => new Date(t).toISOString());
      if (m.pattern) return fc.stringMatching(new RegExp(m.pattern));
      return fc.string({
        unit: 'grapheme-ascii',
        minLength: Math.max(1, m.minLength ?? 1),
        maxLength: Math.min(m.maxLength ?? 20, 20),
      });
    case 'integer':
      return fc.integer({ min: low, max: high });
    case 'number':
      return fc.integer({ min: Math.ceil(low * 100), max: Math.floor(high * 100) }).map((n) => n / 100);
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(validValue(m.items ?? {}), {
        minLength: m.minItems ?? 0,
        maxLength: Math.max(m.minItems ?? 0, 2),
      });
    case 'object':
      return validObject(m);
    default:
      return fc.constantFrom('x', 1, true);
  }
}

function validObject(schema: JsonSchema): fc.Arbitrary<unknown> {
  const props = Object.entries(schema.properties ?? {}).filter(([, s]) => !s.not);
  if (props.length === 0 && typeof schema.additionalProperties === 'object') {
    const keys = schema.propertyNames?.enum
      ? fc.constantFrom(...(schema.propertyNames.enum as string[]))
      : fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 8 });
    return fc.dictionary(keys, validValue(schema.additionalProperties), { maxKeys: 3 });
  }
  const required = new Set(schema.required ?? []);
  return fc.record(Object.fromEntries(props.map(([k, s]) => [k, validValue(s)])), {
    requiredKeys: props.map(([k]) => k).filter((k) => required.has(k)),
  });
}

/** A place in a body that a mutation can change: a property of the body or of an object in it. */
export interface Field {
  path: string[];
  schema?: JsonSchema;
  required: boolean;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The body's properties two levels down, from the schema and from the route's valid base. */
export function fieldsOf(schema: JsonSchema | undefined, base: unknown, prefix: string[] = []): Field[] {
  const m = schema ? main(schema) : undefined;
  const props = m?.properties ?? {};
  const names = new Set([...Object.keys(props), ...(isPlainObject(base) ? Object.keys(base) : [])]);
  const out: Field[] = [];
  for (const name of names) {
    const sub = props[name];
    const path = [...prefix, name];
    out.push({ path, schema: sub, required: (m?.required ?? []).includes(name) });
    const value = isPlainObject(base) ? base[name] : undefined;
    const objectLike = (sub && typeOf(sub) === 'object') || isPlainObject(value);
    if (prefix.length === 0 && objectLike) out.push(...fieldsOf(sub, value, path));
  }
  return out;
}

function setAt(target: unknown, path: string[], value: unknown): unknown {
  const [head, ...rest] = path;
  const object = isPlainObject(target) ? target : {};
  return withKey(object, head, rest.length === 0 ? value : setAt(object[head], rest, value));
}

function deleteAt(target: unknown, path: string[]): unknown {
  if (!isPlainObject(target)) return target;
  const [head, ...rest] = path;
  const copy: Record<string, unknown> = {};
  for (const k of Object.getOwnPropertyNames(target)) {
    if (k === head && rest.length === 0) continue;
    Object.defineProperty(copy, k, {
      value: k === head ? deleteAt(target[k], rest) : target[k],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return copy;
}

// ---- value pools ---------------------------------------------------------------------------

const WRONG_TYPES: unknown[] = [
  null,
  true,
  false,
  0,
  1,
  -1,
  '',
  ' ',
  'x',
  '0',
  'true',
  'null',
  [],
  [1, 'a'],
  {},
  { a: 1 },
  [{}],
];

const ODD_NUMBERS: unknown[] = [
  raw('-0'),
  -0,
  raw('-0.0'),
  0,
  1e308,
  -1e308,
  raw('1e400'),
  raw('-1e400'),
  1.005,
  4.999,
  5.001,
  99.999,
  0.1,
  0.000001,
  -5,
  -0.01,
  2 ** 53,
  raw('9007199254740993'),
  raw('1E2'),
  raw('123456789012345678901234567890'),
  'NaN',
  'Infinity',
  '-Infinity',
  '-0',
  '1e308',
  '1.005',
  '12',
  ' 12 ',
  '0x10',
];

const ODD_CHARS = [
  '\u0000',
  '\u0001',
  '\u0007',
  '\b',
  '\t',
  '\n',
  '\r',
  '\u001b',
  '\u001f',
  '\u007f',
  '\u0085',
  '\u00a0',
  '\u200b',
  '\u2028',
  '\u202e',
  '\ufeff',
  '\ud800',
  '\udfff',
  '\uffff',
  'é',
  'ß',
  '😀',
  '𝕏',
  '中',
  '\\',
  '"',
  '/',
  '<',
  '%',
  '$',
  '{',
  'a',
  '1',
  ' ',
];

export const oddString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: fc.constantFrom(...ODD_CHARS), minLength: 1, maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    'null',
    'undefined',
    '__proto__',
    '<script>alert(1)</script>',
    "' OR '1'='1",
    '{{7*7}}',
    '../../etc/passwd',
    'https://169.254.169.254/latest',
    'http://localhost/x',
    'javascript:alert(1)',
    'data:text/html,x',
    'a@b',
    '@',
    'A'.repeat(201),
    '#zzz',
  ),
);

/** 10 KB – 1 MB of JSON text in one string (sized by the bytes each character takes in the body). */
const hugeString: fc.Arbitrary<string> = fc
  .record({
    bytes: fc.integer({ min: 10_000, max: 1_000_000 }),
    unit: fc.constantFrom<[string, number]>(
      ['x', 1],
      ['é', 2],
      ['\u0000', 6],
      ['😀', 4],
      ['\\', 2],
      ['"', 2],
    ),
  })
  .map(({ bytes, unit: [char, size] }) => char.repeat(Math.floor(bytes / size)));

const oddKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\u0007',
    '\u007f',
    '\ud800',
    '__proto__',
    'constructor',
    'prototype',
    'toString',
    '$where',
    'a.b',
    'pk',
    'sk',
    'id',
    'sellerId',
    'environment',
    'isActive',
    'status',
    'ção',
    '😀',
  ),
  fc.integer({ min: 129, max: 5_000 }).map((n) => 'k'.repeat(n)),
  fc.string({ unit: fc.constantFrom(...ODD_CHARS), maxLength: 10 }),
  fc.string({ maxLength: 20 }),
);

const MALFORMED_JSON = [
  '{',
  '}',
  '{"a":',
  '{"a":1,}',
  '{,}',
  "{'a':1}",
  '{a:1}',
  '{"a":1}}',
  '{"a":1} x',
  '[1,2',
  'nul',
  'NaN',
  'Infinity',
  '-',
  '01',
  '1.',
  '.5',
  '+1',
  '0x10',
  '{"a":"\\x"}',
  '{"a":"\\u12"}',
  '{"a":"\u0000"}',
  '{"a":"line\nbreak"}',
  '{"a":1 /* c */}',
  '\ufeff{}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  ' ',
  '\n\t',
];

// ---- bodies ---------------------------------------------------------------------------------

export interface BodyCase {
  detail: string;
  /** What goes on the wire; the empty string means no body at all. */
  bytes: Buffer;
}

const text = (detail: string, body: string | RawJson): BodyCase => ({
  detail,
  bytes: Buffer.from(typeof body === 'string' ? body : body.text, 'utf8'),
});
const json = (detail: string, value: unknown): BodyCase => text(detail, jsonText(value));
const show = (v: unknown) => {
  const s = typeof v === 'string' ? JSON.stringify(v) : jsonText(v);
  return s.length > 60 ? `${s.slice(0, 60)}… (${s.length} chars)` : s;
};
const where = (f: Field) => f.path.join('.');

/**
 * Bad bodies around a valid `base`: one field of the wrong type, an odd number or string, a
 * missing required field, an unknown key, a huge string, deep nesting, an array for an object,
 * malformed JSON, a scalar, a duplicate key, bytes that are not UTF-8.
 */
export function badBody(schema: JsonSchema | undefined, base: fc.Arbitrary<unknown>): fc.Arbitrary<BodyCase> {
  return base.chain((b) => {
    const fields = fieldsOf(schema, b);
    const any =
      fields.length > 0 ? fc.constantFrom(...fields) : fc.constant<Field>({ path: ['x'], required: false });
    const pick = (wanted: (f: Field) => boolean) => {
      const some = fields.filter(wanted);
      return some.length > 0 ? fc.constantFrom(...some) : any;
    };
    const numbers = pick((f) => ['number', 'integer'].includes(String(f.schema && typeOf(f.schema))));
    const strings = pick((f) => f.schema !== undefined && typeOf(f.schema) === 'string');
    const objects = pick(
      (f) => (f.schema !== undefined && typeOf(f.schema) === 'object') || isPlainObject(getAt(b, f.path)),
    );
    const arrays = pick(
      (f) => (f.schema !== undefined && typeOf(f.schema) === 'array') || Array.isArray(getAt(b, f.path)),
    );
    const required = fields.filter((f) => f.required && getAt(b, f.path) !== undefined);
    const families: fc.Arbitrary<BodyCase>[] = [
      fc
        .tuple(any, fc.oneof(fc.constantFrom(...WRONG_TYPES), oddString))
        .map(([f, v]) => json(`wrong type: ${where(f)} = ${show(v)}`, setAt(b, f.path, v))),
      fc
        .tuple(numbers, fc.constantFrom(...ODD_NUMBERS))
        .map(([f, v]) => json(`odd number: ${where(f)} = ${show(v)}`, setAt(b, f.path, v))),
      fc
        .tuple(strings, oddString)
        .map(([f, v]) => json(`odd string: ${where(f)} = ${show(v)}`, setAt(b, f.path, v))),
      fc
        .tuple(fc.option(objects, { nil: undefined }), oddKey, fc.jsonValue({ maxDepth: 2 }))
        .map(([f, k, v]) => {
          const path = [...(f?.path ?? []), k];
          return json(`unknown key: ${show(path.join('.'))} = ${show(v)}`, setAt(b, path, v));
        }),
      fc
        .tuple(fc.oneof(strings, any), hugeString)
        .map(([f, v]) => json(`huge string: ${where(f)} = ${show(v)}`, setAt(b, f.path, v))),
      fc
        .tuple(
          fc.option(any, { nil: undefined }),
          fc.oneof(fc.constant(5_000), fc.integer({ min: 17, max: 5_000 })),
          fc.constantFrom<'object' | 'array' | 'mixed'>('object', 'array', 'mixed'),
        )
        .map(([f, levels, shape]) =>
          f
            ? json(
                `deep nesting: ${where(f)} = ${levels} levels of ${shape}`,
                setAt(b, f.path, nested(levels, shape)),
              )
            : text(`deep nesting: body = ${levels} levels of ${shape}`, nested(levels, shape)),
        ),
      fc
        .tuple(
          fc.option(objects, { nil: undefined }),
          fc.integer({ min: 51, max: 5_000 }),
          fc.constantFrom<unknown>('x', 1, null, ''),
        )
        .map(([f, n, v]) => {
          const wide = Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, v]));
          const value = f
            ? setAt(b, f.path, { ...(getAt(b, f.path) as object), ...wide })
            : { ...(b as object), ...wide };
          return json(`wide object: ${f ? where(f) : 'body'} with ${n} more keys of ${show(v)}`, value);
        }),
      fc.tuple(arrays, fc.integer({ min: 100, max: 20_000 })).map(([f, n]) => {
        const first = (getAt(b, f.path) as unknown[] | undefined)?.[0] ?? 'x';
        return json(
          `long array: ${where(f)} with ${n} items`,
          setAt(
            b,
            f.path,
            Array.from({ length: n }, () => first),
          ),
        );
      }),
      fc.oneof(
        fc.constant(json('array for object: body = [base]', [b])),
        fc.constant(json('array for object: body = []', [])),
        objects.map((f) =>
          json(`array for object: ${where(f)} = [value]`, setAt(b, f.path, [getAt(b, f.path)])),
        ),
      ),
      fc.oneof(
        fc.constantFrom(...MALFORMED_JSON).map((t) => text(`malformed JSON: ${show(t)}`, t)),
        fc.nat().map((n) => {
          const full = jsonText(b);
          const cut = full.slice(0, n % Math.max(1, full.length));
          return text(`malformed JSON: base cut to ${cut.length} chars`, cut);
        }),
        fc
          .string({ unit: 'binary', minLength: 1, maxLength: 60 })
          .map((t) => text(`malformed JSON: ${show(t)}`, t)),
      ),
      fc
        .constantFrom('null', 'true', '1', '-0', '"x"', '""', '[]', '0')
        .map((t) => text(`scalar body: ${t}`, t)),
      fc.tuple(any, fc.oneof(fc.constantFrom(...WRONG_TYPES), oddString)).map(([f, v]) => {
        const full = jsonText(b);
        const key = f.path[0];
        const dup = full.length > 2 ? `${full.slice(0, -1)},${JSON.stringify(key)}:${jsonText(v)}}` : full;
        return text(`duplicate key: ${key} again as ${show(v)}`, dup);
      }),
      fc.oneof(
        fc.constant<BodyCase>({ detail: 'bytes: UTF-16LE JSON', bytes: Buffer.from(jsonText(b), 'utf16le') }),
        fc.constant<BodyCase>({
          detail: 'bytes: invalid UTF-8 in a string',
          bytes: Buffer.concat([
            Buffer.from('{"name":"'),
            Buffer.from([0xff, 0xfe, 0xc0, 0xaf]),
            Buffer.from('"}'),
          ]),
        }),
        fc
          .uint8Array({ minLength: 1, maxLength: 64 })
          .map((bytes) => ({ detail: 'bytes: random', bytes: Buffer.from(bytes) })),
      ),
      fc.constant(text('no body', '')),
    ];
    if (required.length > 0)
      families.push(
        fc.constantFrom(...required).map((f) => json(`missing required: ${where(f)}`, deleteAt(b, f.path))),
      );
    return fc.oneof(...families);
  });
}

function getAt(target: unknown, path: string[]): unknown {
  let v = target;
  for (const k of path) v = isPlainObject(v) ? v[k] : undefined;
  return v;
}

export const CONTENT_TYPES: (string | null)[] = [
  null,
  'text/plain',
  'text/plain; charset=utf-8',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/x-www-form-urlencoded',
  'application/merge-patch+json',
  'multipart/form-data; boundary=x',
  'application/xml',
  '*/*',
  '',
  'application/json, text/plain',
];

// ---- paths and queries ---------------------------------------------------------------------

/** Path parameter values that name nothing: too long, malformed escapes, unicode, numbers out of shape. */
export function badParam(real: string[]): fc.Arbitrary<{ detail: string; value: string }> {
  const constants = [
    'x'.repeat(2048),
    '9'.repeat(2048),
    '%ZZ',
    '%',
    '%2',
    '%E0%A4%A',
    '%C0%AF',
    '%00',
    '%0A',
    '%2F',
    '%2e%2e',
    '..',
    '.',
    '-1',
    '-0',
    '0',
    '00',
    '1e308',
    '1.5',
    '1.005',
    '9'.repeat(16),
    '9'.repeat(15),
    'NaN',
    'Infinity',
    'null',
    'undefined',
    '%20',
    '+',
    '%F0%9F%98%80',
    '0x1F',
    '1%2C2',
    '%25',
    '%2525',
  ];
  const fromReal = real.length
    ? fc
        .constantFrom(...real)
        .chain((r) =>
          fc.constantFrom(
            `${pct(r)}%00`,
            `${pct(r)}%20`,
            `%20${pct(r)}`,
            pct(r.toUpperCase()),
            `${pct(r)}0`,
            `${pct(r)}%ZZ`,
            `0${pct(r)}`,
            `${pct(r)}.json`,
            pct(`${r}\u202e`),
          ),
        )
    : fc.constant('%ZZ');
  return fc
    .oneof(
      fc.constantFrom(...constants),
      fromReal,
      oddString.filter((s) => s.length > 0).map(pct),
      fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 80 }).map(pct),
    )
    .map((value) => ({ detail: `path value ${show(value)}`, value }));
}

const BAD_QUERY_VALUES = [
  '',
  'abc',
  '-1',
  '-0',
  '0',
  '1.005',
  '1e308',
  '1e400',
  'NaN',
  'Infinity',
  '9'.repeat(30),
  'true',
  'null',
  '[]',
  '{}',
  '%ZZ',
  '%',
  '%00',
  '%E2%80%AE',
  '+',
  '%201',
  '0x10',
  '1%2C2',
];

/** Cursors that no page handed out: `e30` (`{}`), other JSON, real cursors with a field changed. */
export function forgedCursor(real: string[], foreignSellerId: number): fc.Arbitrary<string> {
  const b64 = (v: unknown) => Buffer.from(typeof v === 'string' ? v : jsonText(v)).toString('base64url');
  const attributes = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk', 'gsi3pk', 'gsi3sk', 'gsi5pk', 'x'];
  const families: fc.Arbitrary<string>[] = [
    fc.constantFrom(
      'e30',
      'e30=',
      'e30==',
      'W10',
      'bnVsbA',
      'MQ',
      'InN0ciI',
      '!!!',
      '====',
      'a'.repeat(2049),
      'x',
    ),
    fc.jsonValue({ maxDepth: 3 }).map(b64),
    fc
      .dictionary(
        fc.constantFrom(...attributes),
        fc.oneof(
          fc.string({ maxLength: 30 }),
          fc.integer(),
          fc.constant(null),
          fc.constant({ S: 'x' }),
          oddString,
        ),
        { minKeys: 1, maxKeys: 5 },
      )
      .map(b64),
    fc.base64String({ minLength: 4, maxLength: 200 }),
  ];
  if (real.length > 0) {
    families.push(
      fc
        .tuple(
          fc.constantFrom(...real),
          fc.constantFrom(...attributes),
          fc.oneof(
            fc.constantFrom<unknown>(
              '',
              'x'.repeat(2000),
              5,
              null,
              '\u0000',
              '~',
              'PRODUCT#',
              'TXN#~COUNT',
              '\uffff',
            ),
            oddString,
          ),
        )
        .map(([cursor, attribute, value]) => {
          const key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Record<
            string,
            unknown
          >;
          return b64(withKey(key, attribute, value));
        }),
      fc.constantFrom(...real).map((c) =>
        b64(
          Buffer.from(c, 'base64url')
            .toString('utf8')
            .replace(/SELLER#\d+/g, `SELLER#${foreignSellerId}`),
        ),
      ),
      fc.constantFrom(...real).map((c) => `${c}A`),
      fc.constantFrom(...real).map((c) => c.slice(0, Math.floor(c.length / 2))),
    );
  }
  return fc.oneof(...families);
}

export interface QueryCase {
  detail: string;
  /** `?…` as sent, or ''. */
  query: string;
}

/** Bad query strings for a query schema (or for a route without one: unknown and malformed keys). */
export function badQuery(
  schema: JsonSchema | undefined,
  valid: Record<string, string>,
  cursors: fc.Arbitrary<string> | undefined,
): fc.Arbitrary<QueryCase> {
  const props = schema?.properties ?? {};
  const names = Object.keys(props);
  const validPairs = Object.entries(valid).map(([k, v]) => `${pct(k)}=${pct(v)}`);
  const withValid = (pairs: string[]) =>
    `?${[...validPairs.filter((p) => !pairs.some((q) => q.split('=')[0] === p.split('=')[0])), ...pairs].join('&')}`;
  const name = names.length > 0 ? fc.constantFrom(...names) : fc.constantFrom('limit', 'page', 'cursor');
  const badValue = fc.oneof(
    fc.constantFrom(...BAD_QUERY_VALUES),
    oddString.map(pct),
    fc.integer({ min: 2_000, max: 12_000 }).map((n) => 'x'.repeat(n)),
  );
  const families: fc.Arbitrary<QueryCase>[] = [
    fc
      .tuple(name, badValue)
      .map(([k, v]) => ({ detail: `query ${k}=${show(v)}`, query: withValid([`${k}=${v}`]) })),
    fc.tuple(oddKey, oddString).map(([k, v]) => ({
      detail: `unknown query key ${show(k)}`,
      query: withValid([`${pct(k)}=${pct(v)}`]),
    })),
    fc.tuple(name, badValue).map(([k, v]) => ({
      detail: `repeated query key ${k} (then ${show(v)})`,
      query: withValid([`${k}=1`, `${k}=${v}`]),
    })),
    name.map((k) => ({
      detail: `bracket query key ${k}[]`,
      query: withValid([`${k}%5B%5D=1`, `${k}[a]=2`]),
    })),
    fc
      .constantFrom(
        '?%ZZ',
        '?a=%',
        '?%=%',
        '?&&&',
        '?=',
        '?==',
        '?a=%E0%A4%A',
        '?%00=1',
        '?a=1&&b',
        '?a=%C0%AF',
        '?#',
        '??',
      )
      .map((q) => ({ detail: `raw query ${q}`, query: q })),
    fc
      .constantFrom(14_000, 20_000)
      .map((n) => ({ detail: `${n}-character query`, query: `?q=${'x'.repeat(n)}` })),
    fc.integer({ min: 100, max: 1_500 }).map((n) => ({
      detail: `${n} query keys`,
      query: withValid(Array.from({ length: n }, (_, i) => `k${i}=1`)),
    })),
  ];
  if (names.length > 0)
    families.push(
      validObject({ ...schema, required: [] })
        .map((v) => v as Record<string, unknown>)
        .chain((values) =>
          fc.tuple(fc.constantFrom(...names), badValue).map(([k, v]) => {
            const pairs = Object.entries(values)
              .filter(([n]) => n !== k)
              .map(([n, x]) => `${n}=${pct(String(x))}`);
            return { detail: `valid query but ${k}=${show(v)}`, query: withValid([...pairs, `${k}=${v}`]) };
          }),
        ),
    );
  if (cursors && names.includes('cursor'))
    families.push(
      cursors.map((c) => ({ detail: `forged cursor ${show(c)}`, query: withValid([`cursor=${pct(c)}`]) })),
      cursors.map((c) => ({ detail: `forged cursor, raw ${show(c)}`, query: withValid([`cursor=${c}`]) })),
    );
  return fc.oneof(...families);
}
