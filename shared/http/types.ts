import type { Tenant } from '#shared/domain/tenant';
import type { Logger } from '#shared/logger';
import type { Deps } from '#shared/platform/deps';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * How a route authenticates. `apiKey` and `jwt` together mean either is accepted; `panel` is the
 * dashboard JWT alone (spec rule 6); an empty list is a public route, rate-limited per client IP.
 */
export type AuthScheme = 'apiKey' | 'jwt' | 'panel' | 'portalToken' | 'magicLink';

export type { Tenant };

export interface AuthContext {
  scheme: AuthScheme | 'public';
  tenant?: Tenant;
  /** API key id, JWT subject or client IP: what the rate limit counts against. */
  principal: string;
  apiKeyId?: string;
}

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
  deps: Deps;
  log: Logger;
}

export interface HttpResult {
  statusCode: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** Raw bytes (PDFs): sent base64-encoded through API Gateway. */
  binary?: { contentType: string; data: Buffer };
}

export type RouteHandler = (request: HttpRequest) => Promise<HttpResult>;

/** One row of a route table: data read by CDK, the local gateway and the OpenAPI generator. */
export interface Route {
  method: HttpMethod;
  /** API Gateway path template, e.g. `/api/products/{id}`. */
  path: string;
  auth: AuthScheme[];
  summary: string;
  /**
   * Opts into the X-Idempotency-Key middleware. `true` scopes keys to the caller's tenant; a
   * function gives the scope itself (a public route scoped to the seller that owns the product).
   */
  idempotent?: boolean | { scope: (request: HttpRequest) => Promise<string> };
  /** Health checks skip the per-IP limit so that they answer even when the table does not. */
  rateLimited?: false;
  handler: RouteHandler;
}

export interface RouteGroup {
  /** Folder under functions/ and the Lambda function's logical name. */
  name: string;
  routes: Route[];
}

export const routeKey = (route: Pick<Route, 'method' | 'path'>) => `${route.method} ${route.path}`;

/** A JSON answer; handlers return this and the pipeline serialises it. */
export const ok = (body: unknown, statusCode = 200): HttpResult => ({ statusCode, body });
