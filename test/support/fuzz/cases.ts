import fc from 'fast-check';
import { declaredRequest } from '#shared/http/responses';
import type { Route } from '#shared/http/types';
import {
  type BodyCase,
  badBody,
  badParam,
  badQuery,
  CONTENT_TYPES,
  forgedCursor,
  inputSchemaOf,
  type JsonSchema,
  oddString,
  validValue,
} from './inputs';
import { jsonText, pct } from './json-text';

/** Who a case calls as: the route's usual credential, the dashboard JWT, nobody, or a literal header. */
export type Credential = 'default' | 'jwt' | 'none' | { authorization: string };

/** One request of the fuzz test, before the credentials of the run are filled in. */
export interface FuzzCase {
  family: string;
  detail: string;
  /** Path parameters, percent-encoded (or deliberately malformed) as they go on the wire. */
  params: Record<string, string>;
  query: string;
  body?: { bytes: Buffer; contentType: string | null };
  headers: Record<string, string>;
  credential: Credential;
  /** Provider notifications only: how to sign the body (`valid`, `none`, `stale`, `wrong secret`). */
  signature?: 'valid' | 'none' | 'stale' | 'wrong secret' | 'garbage';
}

/** What the fuzz test knows about a route besides its row: real ids, a valid body, real cursors. */
export interface RouteFixture {
  /** Ids of the calling seller's own resources, per path parameter. */
  real: Record<string, string[]>;
  /** Ids of another seller's resources, per path parameter. */
  foreign: Record<string, string[]>;
  /** A body the route accepts (the mutations start from it); derived from the schema when absent. */
  body?: unknown;
  /** The body schema when the route validates its body itself (provider notifications). */
  bodySchema?: JsonSchema;
  /** Query values the route accepts (a boleto's token). */
  query?: Record<string, string>;
  cursors?: string[];
  foreignSellerId: number;
}

export const paramsOf = (route: Route) => [...route.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

const IDEMPOTENCY_KEYS = [
  'fz-1',
  'fz-2',
  'fz-3',
  '',
  ' ',
  'x'.repeat(256),
  'x'.repeat(4_000),
  'a\tb',
  'ção',
  '%00',
  '../../x',
  'IDEMP#x#y',
];
const ENVIRONMENTS = ['test', 'live', 'TEST', '', ' test', 'bogus', 'x'.repeat(1_000), 'test,live'];
const AUTHORIZATIONS = [
  'Bearer',
  'Bearer ',
  'bearer sk_test_x',
  'Basic dXNlcjpwYXNz',
  'Bearer sk_test_',
  `Bearer sk_test_${'A'.repeat(40)}`,
  `Bearer sk_live_${'A'.repeat(40)}`,
  'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.',
  `Bearer ${'x'.repeat(8_000)}`,
  'Bearer a.b.c',
];

/**
 * Bad requests for one route, each with one thing wrong where the rest is valid: a path id that
 * names nothing (or a real id of another seller), a bad query, a bad body on a real id, an odd
 * content type, an idempotency key, an X-Environment header, a broken credential.
 */
export function caseArbitrary(route: Route, fixture: RouteFixture): fc.Arbitrary<FuzzCase> {
  const params = paramsOf(route);
  const body = declaredRequest(route, 'body');
  const query = declaredRequest(route, 'query');
  const bodySchema = fixture.bodySchema ?? (body ? inputSchemaOf(body) : undefined);
  const querySchema = query ? inputSchemaOf(query) : undefined;
  const hasBody = bodySchema !== undefined || route.method !== 'GET';
  const base =
    fixture.body !== undefined
      ? fc.constant(fixture.body)
      : bodySchema
        ? validValue(bodySchema)
        : fc.constant({});

  const realParams = fc.record(
    Object.fromEntries(params.map((p) => [p, fc.constantFrom(...(fixture.real[p] ?? ['1'])).map(pct)])),
  ) as fc.Arbitrary<Record<string, string>>;
  const validQuery = fixture.query
    ? `?${Object.entries(fixture.query)
        .map(([k, v]) => `${k}=${pct(v)}`)
        .join('&')}`
    : '';
  const validBody = base.map((b) => ({ bytes: Buffer.from(jsonText(b)), contentType: 'application/json' }));
  const plain = (family: string) =>
    fc.record({ params: realParams, body: hasBody ? validBody : fc.constant(undefined) }).map(
      ({ params: p, body }): FuzzCase => ({
        family,
        detail: '',
        params: p,
        query: validQuery,
        body,
        headers: {},
        credential: 'default',
      }),
    );
  const signed = route.operationId === 'handleProviderNotification';
  const signature = fc.constantFrom<NonNullable<FuzzCase['signature']>>(
    'valid',
    'valid',
    'valid',
    'none',
    'stale',
    'wrong secret',
    'garbage',
  );

  const families: fc.WeightedArbitrary<FuzzCase>[] = [];
  const add = (weight: number, arbitrary: fc.Arbitrary<FuzzCase>) => families.push({ weight, arbitrary });

  if (params.length > 0) {
    const oneBad = fc
      .constantFrom(...params)
      .chain((p) => fc.tuple(fc.constant(p), badParam(fixture.real[p] ?? [])));
    add(
      4,
      fc.tuple(plain('path'), oneBad).map(([c, [p, bad]]) => ({
        ...c,
        detail: `${p}: ${bad.detail}`,
        params: { ...c.params, [p]: bad.value },
      })),
    );
    const foreign = params.filter((p) => (fixture.foreign[p] ?? []).length > 0);
    if (foreign.length > 0)
      add(
        1,
        fc
          .tuple(
            plain('foreign id'),
            fc
              .constantFrom(...foreign)
              .chain((p) => fc.tuple(fc.constant(p), fc.constantFrom(...fixture.foreign[p]))),
          )
          .map(([c, [p, id]]) => ({
            ...c,
            detail: `${p} of another seller: ${id}`,
            params: { ...c.params, [p]: pct(id) },
          })),
      );
  }

  if (route.method === 'GET' || querySchema) {
    const cursors = forgedCursor(fixture.cursors ?? [], fixture.foreignSellerId);
    add(
      querySchema ? 4 : 1,
      fc
        .tuple(plain('query'), badQuery(querySchema, fixture.query ?? {}, cursors))
        .map(([c, q]) => ({ ...c, detail: q.detail, query: q.query })),
    );
  }

  if (hasBody) {
    const bodies: fc.Arbitrary<BodyCase> = badBody(bodySchema, base);
    add(
      bodySchema ? 8 : 2,
      fc.tuple(plain('body'), bodies, fc.option(signature, { nil: undefined })).map(([c, b, s]) => ({
        ...c,
        detail: b.detail,
        body: b.bytes.length > 0 ? { bytes: b.bytes, contentType: 'application/json' } : undefined,
        signature: signed ? (s ?? 'valid') : undefined,
      })),
    );
    add(
      2,
      fc
        .tuple(plain('content type'), fc.constantFrom(...CONTENT_TYPES), fc.boolean(), bodies)
        .map(([c, type, valid, b]) => ({
          ...c,
          detail: `content type ${JSON.stringify(type)}${valid ? '' : `, ${b.detail}`}`,
          body: {
            bytes: valid || b.bytes.length === 0 ? (c.body?.bytes ?? Buffer.from('{}')) : b.bytes,
            contentType: type,
          },
          signature: signed ? 'valid' : undefined,
        })),
    );
  } else {
    // A GET with a body: API Gateway passes it on and the pipeline parses it like any other.
    add(
      1,
      fc
        .tuple(
          plain('body on GET'),
          fc.constantFrom('{', '{"a":1}', 'x', '[]'),
          fc.constantFrom(...CONTENT_TYPES),
        )
        .map(([c, text, type]) => ({
          ...c,
          detail: `GET with body ${text} as ${JSON.stringify(type)}`,
          body: { bytes: Buffer.from(text), contentType: type },
        })),
    );
  }

  if (route.idempotent) {
    const bodies = fc.oneof(
      validBody,
      badBody(bodySchema, base).map((b) => ({ bytes: b.bytes, contentType: 'application/json' })),
    );
    add(
      3,
      fc
        .tuple(plain('idempotency key'), fc.constantFrom(...IDEMPOTENCY_KEYS), bodies)
        .map(([c, key, body]) => ({
          ...c,
          detail: `X-Idempotency-Key ${JSON.stringify(key.length > 40 ? `${key.slice(0, 10)}… (${key.length})` : key)}`,
          headers: { 'x-idempotency-key': key },
          body: body.bytes.length > 0 ? body : undefined,
        })),
    );
  }

  if (route.auth.includes('jwt') || route.auth.includes('panel')) {
    add(
      1,
      fc.tuple(plain('environment'), fc.constantFrom(...ENVIRONMENTS)).map(([c, env]) => ({
        ...c,
        detail: `X-Environment ${JSON.stringify(env.length > 40 ? `${env.slice(0, 10)}…` : env)} with the JWT`,
        headers: { 'x-environment': env },
        credential: 'jwt',
      })),
    );
  }

  if (route.auth.length > 0) {
    add(
      1,
      fc
        .tuple(
          plain('credential'),
          fc.oneof(fc.constantFrom(...AUTHORIZATIONS), oddString.filter(isHeaderValue)),
        )
        .map(([c, authorization]) => ({
          ...c,
          detail: `Authorization ${JSON.stringify(authorization.length > 40 ? `${authorization.slice(0, 30)}…` : authorization)}`,
          credential: { authorization },
        })),
    );
  }

  if (signed) {
    add(
      2,
      fc
        .tuple(plain('signature'), signature)
        .map(([c, s]) => ({ ...c, detail: `signature ${s}`, signature: s })),
    );
  }

  if (families.length === 0) add(1, plain('plain'));
  return fc.oneof(...families);
}

/** Header values node:http sends (Latin-1 without CR, LF or NUL, no surrounding space). */
export const isHeaderValue = (v: string) =>
  /^[\x21-\x7e\xa0-\xff]([\x20-\x7e\xa0-\xff]*[\x21-\x7e\xa0-\xff])?$/.test(v);
