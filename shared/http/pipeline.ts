import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { assertSchemesAvailable } from '#shared/auth/authenticate';
import { AppError, BadRequestError, NotFoundError, toErrorBody } from '#shared/errors';
import { authentication } from '#shared/http/auth-middleware';
import { idempotency } from '#shared/http/idempotency-middleware';
import { logger } from '#shared/logger';
import { getDeps } from '#shared/platform/deps';
import {
  type HttpMethod,
  type HttpRequest,
  type HttpResult,
  type Route,
  type RouteGroup,
  routeKey,
} from './types';

type Event = APIGatewayProxyEventV2;
type Result = APIGatewayProxyStructuredResultV2;

export interface PipelineInternal {
  http: HttpRequest;
  route: Route;
  started: number;
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
  return out;
}

/** Request id, route resolution, one structured log line per request. Registered first among befores. */
function requestContext(routes: Map<string, Route>): PipelineMiddleware {
  return {
    before: (request) => {
      const req = request as PipelineRequest;
      const event = request.event;
      const deps = getDeps();
      const requestId = event.requestContext?.requestId ?? request.context.awsRequestId ?? deps.ids.uuid();
      const route = routes.get(event.routeKey);
      const method = (event.requestContext?.http?.method ?? 'GET') as HttpMethod;
      const path = event.rawPath ?? event.requestContext?.http?.path ?? '/';
      states.set(event, req.internal);
      req.internal.started = Date.now();
      req.internal.responseHeaders = {};
      req.internal.http = {
        method,
        path,
        routeKey: event.routeKey,
        pathParams: (event.pathParameters ?? {}) as Record<string, string>,
        query: event.queryStringParameters ?? {},
        headers: headersOf(event),
        body: undefined,
        rawBody: '',
        requestId,
        sourceIp: event.requestContext?.http?.sourceIp ?? 'unknown',
        deps,
        log: logger.child({ requestId, route: event.routeKey }),
      };
      if (!route) throw new NotFoundError(`Cannot ${method} ${path}`);
      req.internal.route = route;
    },
    after: (request) => finish(request as PipelineRequest),
    onError: (request) => {
      const req = request as PipelineRequest;
      const error = request.error;
      const status = error instanceof AppError ? error.statusCode : 500;
      if (status >= 500) req.internal.http?.log.error('request failed', { error });
    },
  };
}

function finish(req: PipelineRequest) {
  const http = req.internal.http;
  if (!http || !req.response) return;
  req.response.headers = { ...req.internal.responseHeaders, ...(req.response.headers ?? {}) };
  http.log.info('request', {
    method: http.method,
    path: http.path,
    status: req.response.statusCode,
    durationMs: Date.now() - req.internal.started,
    sellerId: http.auth?.tenant?.sellerId,
    environment: http.auth?.tenant?.environment,
  });
}

/** Malformed JSON is the client's fault: 400 with a clear sentence, never a 500. */
function bodyParser(): PipelineMiddleware {
  return {
    before: (request) => {
      const req = request as PipelineRequest;
      const { event } = request;
      if (event.body === undefined || event.body === null || event.body === '') return;
      const raw = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
      req.internal.http.rawBody = raw;
      const type = req.internal.http.headers['content-type'] ?? 'application/json';
      if (!/json/i.test(type) && raw.trim() === '') return;
      try {
        req.internal.http.body = JSON.parse(raw);
      } catch (cause) {
        throw new BadRequestError('Request body is not valid JSON', 'malformed_json', { cause });
      }
    },
  };
}

/** The error mapper: registered first so its onError runs last, after every other middleware. */
function errorMapper(): PipelineMiddleware {
  return {
    onError: (request) => {
      const req = request as PipelineRequest;
      const error = request.error;
      const path = req.internal.http?.path ?? request.event.rawPath ?? '/';
      const body = toErrorBody(error, path, getDeps().clock.now());
      const extra = error instanceof AppError ? error.headers : {};
      request.response = {
        statusCode: body.statusCode,
        headers: { 'content-type': 'application/json', ...(req.internal.responseHeaders ?? {}), ...extra },
        body: JSON.stringify(body),
      };
      finish(req);
    },
  };
}

export function toApiResult(result: HttpResult): Result {
  if (result.binary) {
    return {
      statusCode: result.statusCode,
      headers: { 'content-type': result.binary.contentType, ...(result.headers ?? {}) },
      body: result.binary.data.toString('base64'),
      isBase64Encoded: true,
    };
  }
  return {
    statusCode: result.statusCode,
    headers: { 'content-type': 'application/json', ...(result.headers ?? {}) },
    body: result.body === undefined ? '' : JSON.stringify(result.body),
  };
}

/**
 * The Lambda handler of an endpoint group. Order (style guide): request context and logging,
 * body parse, authentication and rate limit, idempotency, the route's handler, error mapper last.
 */
export function createHttpHandler(group: RouteGroup) {
  assertSchemesAvailable(group.routes);
  const routes = new Map(group.routes.map((route) => [routeKey(route), route]));
  return middy<Event, Result, Error, Context>()
    .use(errorMapper())
    .use(requestContext(routes))
    .use(bodyParser())
    .use(authentication())
    .use(idempotency())
    .handler(async (event) => {
      const state = states.get(event);
      if (!state) throw new Error('pipeline state missing');
      if (state.replay) return state.replay;
      return toApiResult(await state.route.handler(state.http));
    });
}
