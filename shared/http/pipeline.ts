import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { reportingTo } from '#shared/adapters/system/reporter';
import { assertSchemesAvailable } from '#shared/auth/authenticate';
import { requestDeadline, withDeadline } from '#shared/deadline';
import { AppError, asAnswerable, NotFoundError, toErrorBody } from '#shared/errors';
import { authentication } from '#shared/http/auth-middleware';
import { inPortuguese, isBuyerRoute } from '#shared/http/buyer-language';
import { clientIpOf } from '#shared/http/client-ip';
import { idempotency } from '#shared/http/idempotency-middleware';
import { withTransportHeaders } from '#shared/http/transport-headers';
import { type ParsedInput, validation } from '#shared/http/validation-middleware';
import { parseBoundedJson } from '#shared/json-bounds';
import { logger } from '#shared/logger';
import type { Container } from '#shared/platform/container';
import { getContainer } from '#shared/platform/current';
import {
  type Binding,
  type Handlers,
  type HttpMethod,
  type HttpRequest,
  Reply,
  type Route,
  type RouteGroup,
  type RouteHandler,
  routeKey,
} from './types';

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;

export interface PipelineInternal {
  http: HttpRequest;
  route: Route;
  binding: Binding<Route>;
  /** The request's path, query and body after the route's schemas (set by the validation middleware). */
  input?: ParsedInput;
  started: number;
  /** Wall time (epoch ms) by which the request's work must end (shared/deadline.ts). */
  deadline: number;
  responseHeaders: Record<string, string>;
  /** Set by the idempotency middleware when a stored answer replaces running the route. */
  replay?: Result;
}

/** The handler sees only (event, context): it finds the pipeline's state through the event. */
const states = new WeakMap<Event, PipelineInternal>();

export type PipelineRequest = middy.Request<Event, Result, Error, Context> & { internal: PipelineInternal };
export type PipelineMiddleware = MiddlewareObj<Event, Result, Error, Context>;

/** Lower-cased, comma-joined headers, as API Gateway's payload 2.0 delivers them. */
function headersOf(event: Event): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(event.headers ?? {})) out[k.toLowerCase()] = v;
  // Payload 2.0 moves the Cookie header into `cookies`; routes read it back as the header it was.
  if (event.cookies?.length) out.cookie = event.cookies.join('; ');
  return out;
}

/**
 * Request id, route resolution, one structured log line per request. Registered first among
 * befores. An unknown route (API Gateway's `$default`) is a 404 from the error mapper.
 */
function requestContext(loaded: () => Promise<LoadedGroup>): PipelineMiddleware {
  return {
    before: async (request) => {
      const req = request as PipelineRequest;
      const event = request.event;
      const [container, { routes, bindingsOf }] = await Promise.all([getContainer(), loaded()]);
      const requestId =
        event.requestContext?.requestId ?? request.context.awsRequestId ?? container.ids.uuid();
      const route = routes.get(event.routeKey);
      const method = (event.requestContext?.http?.method ?? 'GET') as HttpMethod;
      const path = event.rawPath ?? event.requestContext?.http?.path ?? '/';
      states.set(event, req.internal);
      req.internal.started = Date.now();
      req.internal.responseHeaders = {};
      const headers = headersOf(event);
      req.internal.http = {
        method,
        path,
        routeKey: event.routeKey,
        pathParams: (event.pathParameters ?? {}) as Record<string, string>,
        query: event.queryStringParameters ?? {},
        headers,
        body: undefined,
        rawBody: '',
        requestId,
        sourceIp: clientIpOf(headers, event.requestContext?.http?.sourceIp ?? 'unknown'),
        container,
        log: logger.child({ requestId, route: event.routeKey }),
      };
      if (!route) throw new NotFoundError(`Cannot ${method} ${path}`);
      req.internal.route = route;
      // A request that waited too long in front of the service is shed before anything writes.
      req.internal.deadline = requestDeadline(event.requestContext?.timeEpoch, req.internal.started);
      req.internal.binding = (bindingsOf(container) as Record<string, Binding<Route>>)[route.operationId];
    },
    after: (request) => finish(request as PipelineRequest),
    onError: (request) => {
      const req = request as PipelineRequest;
      const error = request.error;
      const answered = asAnswerable(error);
      const status = answered instanceof AppError ? answered.statusCode : 500;
      // An overload's 503 is the service shedding work, not a failure of its code.
      if (status === 503) req.internal.http?.log.warn('request refused: unavailable', { error });
      else if (status >= 500) req.internal.http?.log.error('request failed', { error });
    },
  };
}

function finish(req: PipelineRequest) {
  const http = req.internal.http;
  if (!req.response) return;
  req.response.headers = withTransportHeaders({
    ...(req.internal.responseHeaders ?? {}),
    ...(req.response.headers ?? {}),
  });
  if (!http) return;
  recordRequest(req, req.response.statusCode ?? 200);
  http.log.info('request', {
    method: http.method,
    path: http.path,
    status: req.response.statusCode,
    durationMs: Date.now() - req.internal.started,
    sellerId: http.auth?.tenant?.sellerId,
    environment: http.auth?.tenant?.environment,
  });
}

/**
 * A seller's request (API key or dashboard session) goes to its request log: the route template,
 * never the concrete path, and no body, header value or token. The sink only takes the entry (a
 * log line on AWS), so the request waits on nothing and a failing sink cannot fail it.
 */
function recordRequest(req: PipelineRequest, status: number) {
  const { http, route } = req.internal;
  const auth = http.auth;
  if (!route || !auth?.tenant || (auth.scheme !== 'apiKey' && auth.scheme !== 'jwt')) return;
  try {
    const latencyMs = Date.now() - req.internal.started;
    http.container.requestLog.record({
      tenant: auth.tenant,
      requestId: http.requestId,
      method: http.method,
      path: route.path,
      status,
      latencyMs,
      idempotencyKey: http.headers['x-idempotency-key']?.slice(0, 255) ?? null,
      via: auth.scheme,
      at: new Date(http.container.wallClock.now().getTime() - latencyMs).toISOString(),
    });
  } catch (error) {
    http.log.warn('request log entry not recorded', { error });
  }
}

/**
 * JSON and +json media types, and curl's default for `-d` (form-urlencoded), which the README's
 * examples send: such a body is read as JSON too (docs/decisions.md, "Bad input").
 */
const JSON_BODY_TYPES = /^application\/(?:json|[\w.+-]+\+json|x-www-form-urlencoded)$/;

/**
 * Every body is JSON, bounded (size, depth, key shape: shared/json-bounds) before any other
 * middleware sees it. Malformed or out-of-bounds JSON is the client's fault: 400 naming the
 * field, never a 500; a body of another type, or of no type, is 415.
 */
function bodyParser(): PipelineMiddleware {
  return {
    before: (request) => {
      const req = request as PipelineRequest;
      const { event } = request;
      if (event.body === undefined || event.body === null || event.body === '') return;
      const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
      req.internal.http.rawBody = raw;
      const type = (req.internal.http.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
      const json = JSON_BODY_TYPES.test(type);
      if (!json && raw.trim() === '') return;
      if (!json) throw new AppError(415, 'unsupported_media_type', 'Content-Type must be application/json');
      req.internal.http.body = parseBoundedJson(raw);
    },
  };
}

/** The error mapper: registered first so its onError runs last, after every other middleware. */
function errorMapper(): PipelineMiddleware {
  return {
    onError: async (request) => {
      const req = request as PipelineRequest;
      const error = request.error;
      const path = req.internal.http?.path ?? request.event.rawPath ?? '/';
      const english = toErrorBody(error, path, (await getContainer()).clock.now());
      const route = req.internal.route;
      const body = route && isBuyerRoute(route) ? inPortuguese(english) : english;
      const answered = asAnswerable(error);
      const extra = answered instanceof AppError ? answered.headers : {};
      request.response = {
        statusCode: body.statusCode,
        headers: { 'content-type': 'application/json', ...(req.internal.responseHeaders ?? {}), ...extra },
        body: JSON.stringify(body),
      };
      finish(req);
    },
  };
}

/** The status a route answers when its handler returns a bare body: the lowest it declares. */
export function defaultStatus(route: Route): number {
  return Math.min(...Object.keys(route.responses).map(Number));
}

/** A handler's value as API Gateway's answer: a Reply as given, anything else as JSON. */
export function toApiResult(route: Route, value: unknown): Result {
  const out = value instanceof Reply ? value : new Reply(defaultStatus(route), value);
  if (out.raw) {
    const binary = Buffer.isBuffer(out.raw.data);
    return {
      statusCode: out.statusCode,
      headers: { 'content-type': out.raw.contentType, ...out.headers },
      body: binary ? (out.raw.data as Buffer).toString('base64') : (out.raw.data as string),
      ...(binary ? { isBase64Encoded: true } : {}),
    };
  }
  return {
    statusCode: out.statusCode,
    headers: { 'content-type': 'application/json', ...out.headers },
    body: out.body === undefined ? '' : JSON.stringify(out.body),
  };
}

const handlerOf = (binding: Binding<Route>): RouteHandler =>
  typeof binding === 'function' ? binding : binding.handle;

/** Each container binds the group's handlers once (the narrow deps of their use cases built once). */
function cachedBindings<R extends Route>(bind: (c: Container) => Handlers<R>) {
  const cache = new WeakMap<Container, Handlers<R>>();
  return (container: Container) => {
    let bound = cache.get(container);
    if (!bound) {
      bound = bind(container);
      cache.set(container, bound);
    }
    return bound as unknown as Handlers<Route>;
  };
}

/** An endpoint group's route table with its handler map: what a group's handlers.ts exports. */
export interface HttpGroup<R extends Route = Route> {
  routes: RouteGroup<R>;
  bind: (c: Container) => Handlers<R>;
}

/** Binds a group's handler map to its route table, checked against the table's rows. */
export function defineHandlers<R extends Route>(
  routes: RouteGroup<R>,
  bind: (c: Container) => Handlers<R>,
): HttpGroup<R> {
  return { routes, bind };
}

interface LoadedGroup {
  routes: Map<string, Route>;
  bindingsOf: (c: Container) => Handlers<Route>;
}

function prepare(group: HttpGroup<Route>): LoadedGroup {
  assertSchemesAvailable(group.routes.routes);
  return {
    routes: new Map(group.routes.routes.map((route) => [routeKey(route), route])),
    bindingsOf: cachedBindings(group.bind),
  };
}

/**
 * The Lambda handler of an endpoint group. Order (style guide): request context and logging,
 * body parse, authentication and rate limit, idempotency, validation by the route's schemas, the
 * route's handler, error mapper last. `load` imports the group's handlers module (its routes,
 * schemas and use cases, all imported statically there) on the first request: that one import()
 * keeps them out of the function's cold module load (docs/decisions.md, "Cold start").
 */
export function createHttpHandler<R extends Route>(load: () => Promise<{ group: HttpGroup<R> }>) {
  let loading: Promise<LoadedGroup> | undefined;
  const loaded = () => {
    loading ??= load()
      .then(({ group }) => prepare(group as unknown as HttpGroup<Route>))
      .catch((error: unknown) => {
        loading = undefined;
        throw error;
      });
    return loading;
  };
  return middy<Event, Result, Error, Context>()
    .use(errorMapper())
    .use(requestContext(loaded))
    .use(bodyParser())
    .use(authentication())
    .use(idempotency())
    .use(validation())
    .handler(async (event) => {
      const state = states.get(event);
      if (!state) throw new Error('pipeline state missing');
      if (state.replay) return state.replay;
      const { http, route, binding } = state;
      const input = state.input as ParsedInput;
      const value = await reportingTo(http.log, () =>
        withDeadline(state.deadline, () =>
          http.container.unitOfWork(() =>
            handlerOf(binding)({
              ...input,
              tenant: http.auth?.tenant as never,
              request: {
                headers: http.headers,
                rawBody: http.rawBody,
                sourceIp: http.sourceIp,
                requestId: http.requestId,
                log: http.log,
                subject: http.auth?.subject,
                user: http.auth?.user,
                retryKey: http.retryKey,
              },
            }),
          ),
        ),
      );
      return toApiResult(route, value);
    });
}
