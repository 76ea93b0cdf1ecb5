import type * as z from 'zod';
import type { Access, DashboardUser } from '#shared/domain/team/roles';

export type { DashboardUser };

import type { Tenant } from '#shared/domain/tenant';
import type { Logger } from '#shared/logger';
import type { Container } from '#shared/platform/container';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * How a route authenticates. `apiKey` and `jwt` together mean either is accepted; `panel` is the
 * dashboard JWT alone (spec rule 6); `signature` is the payment provider's `X-Signature` over the
 * raw body (not counted per minute once verified); an empty list is a public route, rate-limited
 * per client IP.
 */
export type AuthScheme = 'apiKey' | 'jwt' | 'panel' | 'portalToken' | 'magicLink' | 'signature';

export type { Tenant };

export interface AuthContext {
  scheme: AuthScheme | 'public';
  tenant?: Tenant;
  /** API key id, JWT subject or client IP: what the rate limit counts against. */
  principal: string;
  apiKeyId?: string;
  /**
   * What a portal token or a magic link resolved to (the portal session, the customer), handed to
   * the handler as `request.subject`; its verifier's module owns the type.
   */
  subject?: unknown;
  /** A dashboard user (JWT): who they are and their role in the tenant's seller. */
  user?: DashboardUser;
}

/** The request as the pipeline's middlewares see it (never handed to a route handler). */
export interface HttpRequest {
  method: HttpMethod;
  path: string;
  routeKey: string;
  pathParams: Record<string, string>;
  query: Record<string, string | undefined>;
  headers: Record<string, string | undefined>;
  body: unknown;
  rawBody: string;
  requestId: string;
  sourceIp: string;
  auth?: AuthContext;
  /** The idempotency claim this request holds (scope, key and body), set by the idempotency middleware. */
  retryKey?: string;
  container: Container;
  log: Logger;
}

/** A non-JSON answer (a PDF, an HTML page, a script). */
export interface RawContent {
  contentType: string;
  description: string;
}

/**
 * What a route may answer with success, by status. A zod schema describes a JSON body (checked
 * against every answer in the integration tests and published in the OpenAPI document), `null` an
 * empty body, RawContent anything else. Error answers always have the mapper's ErrorBody.
 */
export type RouteResponses = Record<number, z.ZodType | RawContent | null>;

/** A request part's schema. */
export type RequestSchema = z.ZodType;

/** One row of a route table: data read by CDK, the local gateway, the bench and the OpenAPI generator. */
export interface Route {
  /** Unique in the whole API; the group's handler map binds a handler under this name. */
  operationId: string;
  method: HttpMethod;
  /** API Gateway path template, e.g. `/api/products/{id}`. */
  path: string;
  auth: readonly AuthScheme[];
  /**
   * What a dashboard user's role must allow to call the route with a JWT (shared/domain/team/roles):
   * absent, `read` for GET and `write` for any other method. API keys keep their own scopes.
   */
  access?: Access;
  summary: string;
  description?: string;
  /**
   * The pipeline validates these before the handler runs (400 naming the field, or 404 for a path
   * parameter that cannot name a resource) and hands the handler their parsed output.
   */
  request?: {
    path?: RequestSchema;
    query?: RequestSchema;
    body?: RequestSchema;
    /** An absent body is read as `{}` (every field optional); otherwise a body is required. */
    optionalBody?: boolean;
  };
  responses: RouteResponses;
  /**
   * Error statuses the use case answers beyond those the schemes and schemas imply (a business
   * rule's 400, a bad signature's 401, a state's 409, no provider's 503); listed in the OpenAPI document.
   */
  errors?: readonly number[];
  /** The 404 message when a path parameter fails its schema (a malformed id names no resource). */
  notFound?: string;
  /**
   * Opts into the X-Idempotency-Key middleware. `true` scopes keys to the caller's tenant;
   * `'custom'` takes the scope from the bound handler's `idempotencyScope` (a public route scoped to
   * the seller that owns the product).
   */
  idempotent?: boolean | 'custom';
  /**
   * A public route (`auth: []`) that also takes an API key: a request carrying one is authenticated
   * (401 for a wrong key) and counted against the key, and the handler gets its tenant; without one
   * the caller is anonymous, counted per client IP.
   */
  acceptsApiKey?: true;
  /** Health checks skip the per-IP limit so that they answer even when the table does not. */
  rateLimited?: false;
  /**
   * The route serves sandbox data only: any other environment answers 403; `'hidden'`: answers as
   * a route that does not exist (404), so live tenants never learn of it (the test clocks).
   */
  testOnly?: boolean | 'hidden';
}

export interface RouteGroup<R extends Route = Route> {
  /** Folder under functions/ and the Lambda function's logical name. */
  name: string;
  routes: readonly R[];
}

export const routeKey = (route: Pick<Route, 'method' | 'path'>) => `${route.method} ${route.path}`;

/** Builds a group, keeping each row's literal types so that the handler map is checked against them. */
export function defineRoutes<const R extends readonly Route[]>(
  name: string,
  routes: R,
): RouteGroup<R[number]> {
  return { name, routes };
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;
type RequestOf<R extends Route> = NonNullable<R['request']>;

/** What a handler receives: the validated parts of the request and who is calling. */
export interface HandlerInput<R extends Route = Route> {
  body: Out<RequestOf<R>['body']>;
  query: Out<RequestOf<R>['query']>;
  path: Out<RequestOf<R>['path']>;
  /** The caller's seller and environment; absent on public routes. */
  tenant: R['auth'] extends readonly [] ? Tenant | undefined : Tenant;
  request: RequestInfo;
}

/** Transport facts a handler may need besides the parsed input (signatures, client IP, logs). */
export interface RequestInfo {
  headers: Record<string, string | undefined>;
  rawBody: string;
  sourceIp: string;
  requestId: string;
  log: Logger;
  /** AuthContext.subject of a portalToken or magicLink route. */
  subject?: unknown;
  /**
   * The request's X-Idempotency-Key claim (its scope, key and body) when it sent one: the same on a
   * retry, so what the request writes ahead (a payment attempt) is found again.
   */
  retryKey?: string;
  /** AuthContext.user: the dashboard user of a JWT request. */
  user?: DashboardUser;
}

/** A handler's answer with a status (or headers) other than the route's first response. */
export class Reply {
  constructor(
    readonly statusCode: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
    /** Raw bytes or text with their content type (PDFs, pages); sent base64-encoded through API Gateway. */
    readonly raw?: { contentType: string; data: Buffer | string },
  ) {}
}

export const reply = (statusCode: number, body: unknown, headers?: Record<string, string>) =>
  new Reply(statusCode, body, headers);

export const rawReply = (
  contentType: string,
  data: Buffer | string,
  statusCode = 200,
  headers?: Record<string, string>,
) => new Reply(statusCode, undefined, headers, { contentType, data });

export type RouteHandler<R extends Route = Route> = (input: HandlerInput<R>) => Promise<unknown>;

/** A handler plus the idempotency scope of a route marked `idempotent: 'custom'`. */
export interface ScopedHandler<R extends Route = Route> {
  handle: RouteHandler<R>;
  /** Runs before validation, so it sees the raw body. */
  idempotencyScope: (raw: { body: unknown; sourceIp: string }) => Promise<string>;
}

export type Binding<R extends Route> = RouteHandler<R> | ScopedHandler<R>;

/** The handler map of a group: exactly one binding per operationId. */
export type Handlers<R extends Route> = { [K in R['operationId']]: Binding<Extract<R, { operationId: K }>> };
