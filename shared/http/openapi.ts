import type * as z from 'zod';
import { MAX_KEY_LENGTH } from '#shared/domain/idempotency';
import { type AppError, AUTH_FAILURES } from '#shared/errors';
import { type ExampleBook, type Scenario, scenariosOf } from './examples';
import { errorExample, refusalExample } from './openapi-errors';
import { createSchemaBook, type Json, refTo, type SchemaBook } from './openapi-schemas';
import { declaredRequest, declaredResponse } from './responses';
import type { AuthScheme, RawContent, Route, RouteGroup } from './types';

/**
 * The OpenAPI 3.1 document, read from the route rows and their zod schemas (the fourth reader of
 * the tables after CDK, the local gateway and the bench). Pure: the same rows give the same bytes,
 * which is what lets the test compare docs/openapi.json with a fresh build.
 */

export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

const SECURITY_SCHEMES: Record<string, Json> = {
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'API key',
    description: 'Secret API key: `sk_test_…` acts on the test environment, `sk_live_…` on live.',
  },
  dashboardJwt: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'Dashboard: the Cognito ID token. Acts on live unless `X-Environment: test`.',
  },
  portalToken: { type: 'apiKey', in: 'query', name: 'token', description: 'Customer portal session token.' },
  magicLink: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Customer magic-link JWT.' },
  signature: {
    type: 'apiKey',
    in: 'header',
    name: 'X-Signature',
    description:
      'The payment provider\'s signature over the raw body: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`.',
  },
};

/** `jwt` and `panel` present the same credential; `panel` only refuses API keys, which the route's list already says. */
const SCHEME_NAME: Record<AuthScheme, string> = {
  apiKey: 'apiKey',
  jwt: 'dashboardJwt',
  panel: 'dashboardJwt',
  portalToken: 'portalToken',
  magicLink: 'magicLink',
  signature: 'signature',
};

const ERROR_BODY: Json = {
  type: 'object',
  properties: {
    statusCode: { type: 'integer' },
    message: {
      description: 'One sentence, or one sentence per invalid field for validation errors.',
      oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
    },
    code: { type: 'string', description: 'Stable snake_case error code.' },
    timestamp: { type: 'string', format: 'date-time' },
    path: { type: 'string' },
  },
  required: ['statusCode', 'message', 'code', 'timestamp', 'path'],
};

const HEADER_PARAMETERS: Record<string, Json> = {
  IdempotencyKey: {
    name: 'X-Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Replays the first answer for a repeat with the same body; another body answers 422, a repeat while the first runs 409. Kept 24 h.',
    schema: { type: 'string', minLength: 1, maxLength: MAX_KEY_LENGTH, pattern: '^[\\x21-\\x7e]+$' },
  },
  Environment: {
    name: 'X-Environment',
    in: 'header',
    required: false,
    description: 'Environment a dashboard JWT acts on (API keys carry theirs in the prefix).',
    schema: { type: 'string', enum: ['test', 'live'], default: 'live' },
  },
  SellerId: {
    name: 'X-Seller-Id',
    in: 'header',
    required: false,
    description:
      "The seller a dashboard JWT acts on when it is not the login's own: one the user is a member of (GET /api/auth/sellers); any other answers 404. The user's role there must allow the route (403 `role_forbidden`).",
    schema: { type: 'string', pattern: '^[1-9][0-9]{0,15}$' },
  },
};

const REASONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  302: 'Found',
  303: 'See Other',
  400: 'Invalid request: a field failed validation, the body is not JSON, a header is malformed, or a rule of the operation refuses it.',
  401: `Missing or invalid credentials; the body's \`code\` says which: ${[
    ...new Set(Object.values(AUTH_FAILURES).map((failure) => `\`${failure.code}\``)),
  ].join(', ')}.`,
  403: 'Forbidden: a read-only API key on a write, or a sandbox-only route outside the test environment.',
  404: 'Not found (a resource of another seller or environment answers the same).',
  409: 'Conflict: the resource changed meanwhile or its state refuses the operation, or a request with this X-Idempotency-Key is still being processed.',
  422: 'X-Idempotency-Key was already used with another request.',
  428: 'A proof of work is required: find a decimal nonce such that SHA-256(challenge + nonce) starts with the zero bits the challenge names, and send `challenge:nonce` in X-Proof-Of-Work.',
  429: 'Rate limit exceeded; retry after the Retry-After seconds.',
  500: 'Internal error.',
  503: 'Service unavailable.',
};

const isZod = (value: unknown): value is z.ZodType =>
  typeof value === 'object' && value !== null && '_zod' in value;

/**
 * An example's object keys in the order of its schema's properties (nested ones too), so that it
 * reads like the Schema tab and like the answer however the example was put together.
 */
function inSchemaOrder(value: unknown, schema: Json | undefined, follow: (json: Json) => Json): unknown {
  if (!schema || typeof value !== 'object' || value === null) return value;
  const shape = follow(schema);
  if (Array.isArray(value)) return value.map((item) => inSchemaOrder(item, shape.items, follow));
  const record = value as Record<string, unknown>;
  const fits = (candidate: Json) =>
    Object.keys(record).filter((key) => key in (candidate.properties ?? {})).length;
  const object = [shape, ...[...(shape.anyOf ?? []), ...(shape.oneOf ?? [])].map(follow)]
    .filter((candidate) => candidate.properties)
    .sort((a, b) => fits(b) - fits(a))[0];
  if (!object) return value;
  const names = Object.keys(object.properties);
  const rank = (key: string) => (names.includes(key) ? names.indexOf(key) : names.length);
  return Object.fromEntries(
    Object.keys(record)
      .sort((a, b) => rank(a) - rank(b))
      .map((key) => [key, inSchemaOrder(record[key], object.properties[key], follow)]),
  );
}

/**
 * A part's examples as OpenAPI writes them: `example` for an operation's one call, `examples` keyed
 * by call name (with its summary) when it has several; a value the calls share is one `example`.
 */
function examplesOf(
  calls: readonly Scenario[],
  pick: (call: Scenario) => unknown,
  order = (v: unknown) => v,
): Json {
  const given = calls.filter((call) => pick(call) !== undefined);
  if (given.length === 0) return {};
  const distinct = new Set(given.map((call) => JSON.stringify(pick(call))));
  if (distinct.size === 1 && (given.length > 1 || !given[0].name)) return { example: order(pick(given[0])) };
  return {
    examples: Object.fromEntries(
      given.map((call) => [call.name, { summary: call.summary, value: order(pick(call)) }]),
    ),
  };
}

const valueIn = (part: unknown, name: string): unknown =>
  typeof part === 'object' && part !== null ? (part as Record<string, unknown>)[name] : undefined;

/** The properties of a request part as parameters; `request.path` and `request.query` must be z.object()s. */
function parametersOf(
  book: SchemaBook,
  route: Route,
  place: 'path' | 'query',
  calls: readonly Scenario[],
): Json[] {
  const templated = [...route.path.matchAll(/\{(\w+)\+?\}/g)].map((m) => m[1]);
  const schema = declaredRequest(route, place);
  const param = (name: string, required: boolean, schema: Json) => {
    const { description, ...rest } = schema;
    const parameter = { name, in: place, required, ...(description ? { description } : {}) };
    return {
      ...parameter,
      schema: book.track(rest, 'input'),
      ...examplesOf(calls, (call) => valueIn(call[place], name)),
    };
  };
  if (!schema) return place === 'path' ? templated.map((name) => param(name, true, { type: 'string' })) : [];
  const json = book.resolve(book.convert(schema, 'input', `${route.operationId}_${place}`), 'input');
  if (json.type !== 'object' || typeof json.properties !== 'object')
    throw new Error(`${route.operationId}: request.${place} must be an object schema`);
  const properties = json.properties as Record<string, Json>;
  const required = new Set<string>(json.required ?? []);
  if (place === 'query')
    return Object.entries(properties).map(([name, s]) => param(name, required.has(name), s));
  const extra = Object.keys(properties).filter((name) => !templated.includes(name));
  if (extra.length)
    throw new Error(`${route.operationId}: request.path has ${extra} that ${route.path} lacks`);
  return templated.map((name) => param(name, true, properties[name] ?? { type: 'string' }));
}

/** The media type object of a non-JSON answer. */
function rawMedia(raw: RawContent): Json {
  if (/json/i.test(raw.contentType)) return { schema: { type: 'object' } };
  if (/^text\/|javascript|xml/i.test(raw.contentType)) return { schema: { type: 'string' } };
  return { schema: { type: 'string', format: 'binary' } };
}

function responsesOf(book: SchemaBook, route: Route, calls: readonly Scenario[]): Json {
  const answers: Record<number, Json> = {};
  for (const key of Object.keys(route.responses)) {
    const status = Number(key);
    const value = declaredResponse(route, status) as z.ZodType | RawContent | null;
    if (value === null) answers[status] = { description: REASONS[status] ?? `Status ${status}` };
    else if (isZod(value)) {
      const schema = book.convert(value, 'output', `${route.operationId}_${status}`);
      const description = schema.description ?? REASONS[status] ?? `Status ${status}`;
      const examples = examplesOf(
        calls,
        (call) => valueIn(call.responses, String(status)),
        (example) => inSchemaOrder(example, schema, (json) => book.follow(json, 'output')),
      );
      answers[status] = { description, content: { 'application/json': { schema, ...examples } } };
    } else {
      const examples = examplesOf(calls, (call) => valueIn(call.responses, String(status)));
      answers[status] = {
        description: value.description,
        content: { [value.contentType]: { ...rawMedia(value), ...examples } },
      };
    }
  }
  const { request, auth } = route;
  const takesKey = auth.includes('apiKey') || Boolean(route.acceptsApiKey);
  const authenticated = auth.length > 0 || takesKey;
  const dashboard = auth.includes('jwt') || auth.includes('panel');
  const errors: [number, boolean][] = [
    // A path parameter that fails its schema is a 404 (it names no resource), never a 400.
    [400, Boolean(request?.body || request?.query || route.idempotent || dashboard)],
    [401, authenticated],
    [403, route.testOnly === true || (takesKey && route.method !== 'GET')],
    // A hidden sandbox route answers other environments as a route that does not exist.
    [404, route.path.includes('{') || route.testOnly === 'hidden'],
    [409, Boolean(route.idempotent)],
    [422, Boolean(route.idempotent)],
    [429, route.rateLimited !== false],
    [500, true],
    ...(route.errors ?? []).map((status): [number, boolean] => [status, true]),
  ];
  // The path an error body names: the route's, with the call's (or the first call's) parameters.
  const pathOf = (call?: Scenario) =>
    route.path.replace(/\{(\w+)\+?\}/g, (template, name: string) => {
      const given = [call, ...calls].map((c) => valueIn(c?.path, name)).find((value) => value !== undefined);
      return given === undefined ? template : String(given);
    });
  const path = pathOf();
  for (const [status, applies] of errors) {
    if (!applies || answers[status]) continue;
    const refused = calls.filter((call) => call.errors?.[status]);
    const example = refused.length ? undefined : errorExample(route, status, path);
    const examples = refused.length
      ? examplesOf(refused, (call) => refusalExample(call.errors?.[status] as AppError, pathOf(call)))
      : {};
    answers[status] = {
      description: REASONS[status],
      ...(status === 429
        ? {
            headers: {
              'Retry-After': { description: 'Seconds until the window resets.', schema: { type: 'integer' } },
            },
          }
        : {}),
      ...(status === 428
        ? {
            headers: {
              'X-Proof-Of-Work-Challenge': {
                description: 'The challenge: `pow1.<zero bits>.<expiry, epoch ms>.<id>.<signature>`.',
                schema: { type: 'string' },
              },
            },
          }
        : {}),
      content: {
        'application/json': { schema: refTo('ErrorBody'), ...(example ? { example } : {}), ...examples },
      },
    };
  }
  return Object.fromEntries(Object.entries(answers).map(([status, answer]) => [String(status), answer]));
}

function operationOf(book: SchemaBook, group: RouteGroup, route: Route, calls: readonly Scenario[]): Json {
  const schemes = [...new Set(route.auth.map((scheme) => SCHEME_NAME[scheme]))];
  const headers = [
    ...(route.idempotent ? ['IdempotencyKey'] : []),
    ...(route.auth.includes('jwt') || route.auth.includes('panel') ? ['Environment'] : []),
    ...((route.auth.includes('jwt') || route.auth.includes('panel')) && route.access !== 'personal'
      ? ['SellerId']
      : []),
  ];
  const parameters = [
    ...parametersOf(book, route, 'path', calls),
    ...parametersOf(book, route, 'query', calls),
    ...headers.map((name) => ({ $ref: `#/components/parameters/${name}` })),
  ];
  const body = declaredRequest(route, 'body');
  const bodySchema = body && book.convert(body, 'input', `${route.operationId}_body`);
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    tags: [group.name],
    // A public route that also takes an API key: anonymous, or the key.
    security: route.acceptsApiKey
      ? [{}, { [SCHEME_NAME.apiKey]: [] }]
      : schemes.map((name) => ({ [name]: [] })),
    ...(parameters.length ? { parameters } : {}),
    ...(body
      ? {
          requestBody: {
            required: !route.request?.optionalBody && body._zod.optin !== 'optional',
            content: {
              'application/json': {
                schema: bodySchema,
                ...examplesOf(
                  calls,
                  (call) => call.body,
                  (example) => inSchemaOrder(example, bodySchema, (json) => book.follow(json, 'input')),
                ),
              },
            },
          },
        }
      : {}),
    responses: responsesOf(book, route, calls),
  };
}

/**
 * The OpenAPI 3.1.0 document of every route of the groups, in their order, with each operation's
 * examples from the book.
 */
export function buildOpenApi(groups: RouteGroup[], info: OpenApiInfo, examples: ExampleBook = {}): Json {
  const book = createSchemaBook(['ErrorBody']);
  const paths: Record<string, Record<string, Json>> = {};
  const operationIds = new Set<string>();
  for (const group of groups) {
    for (const route of group.routes) {
      const method = route.method.toLowerCase();
      // API Gateway's greedy `{name+}` is plain `{name}` in OpenAPI's path templates.
      const path = route.path.replace(/\{(\w+)\+\}/g, '{$1}');
      if (operationIds.has(route.operationId))
        throw new Error(`operationId ${route.operationId} is used twice`);
      if (paths[path]?.[method]) throw new Error(`${route.method} ${route.path} is declared twice`);
      operationIds.add(route.operationId);
      paths[path] ??= {};
      paths[path][method] = operationOf(book, group, route, scenariosOf(examples[route.operationId]));
    }
  }
  return {
    openapi: '3.1.0',
    info,
    tags: groups.map((group) => ({ name: group.name })),
    paths,
    components: {
      schemas: { ErrorBody: ERROR_BODY, ...book.finish() },
      parameters: HEADER_PARAMETERS,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
