import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { withTransportHeaders } from '#shared/http/transport-headers';
import type { HttpMethod } from '#shared/http/types';

/** What the local gateway needs of a route group: names, methods and path templates. */
interface RoutedGroup {
  name: string;
  routes: readonly { method: HttpMethod; path: string }[];
}

/** A route group as a test may write one: any other fields of a row are ignored. */
export interface GatewayRouteGroup extends RoutedGroup {
  routes: readonly { method: HttpMethod; path: string; [field: string]: unknown }[];
}

export type LambdaHttpHandler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

interface CompiledRoute {
  method: HttpMethod;
  path: string;
  routeKey: string;
  pattern: RegExp;
  params: string[];
  staticSegments: number;
  group: string;
}

/** API Gateway path templates to matchers; `{proxy+}` takes the rest of the path. */
export function compileRoutes(groups: readonly RoutedGroup[]): CompiledRoute[] {
  return groups.flatMap((group) =>
    group.routes.map((route) => {
      const params: string[] = [];
      const segments = route.path.split('/').filter(Boolean);
      const source = segments
        .map((segment) => {
          const greedy = /^\{(\w+)\+\}$/.exec(segment);
          if (greedy) {
            params.push(greedy[1]);
            return '/(.+)';
          }
          const param = /^\{(\w+)\}$/.exec(segment);
          if (param) {
            params.push(param[1]);
            return '/([^/]+)';
          }
          return `/${segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
        })
        .join('');
      return {
        method: route.method,
        path: route.path,
        routeKey: `${route.method} ${route.path}`,
        pattern: new RegExp(`^${source}/?$`),
        params,
        staticSegments: segments.filter((s) => !s.startsWith('{')).length,
        group: group.name,
      };
    }),
  );
}

/** The route key API Gateway gives a request no route matches (the stack sends it to one function). */
export const DEFAULT_ROUTE_KEY = '$default';

/** The most specific route wins, as in API Gateway (static segments before parameters). */
export function matchRoute(routes: CompiledRoute[], method: string, path: string) {
  let best: { route: CompiledRoute; pathParameters: Record<string, string> } | undefined;
  for (const route of routes) {
    if (route.method !== method) continue;
    const m = route.pattern.exec(path);
    if (!m) continue;
    if (best && best.route.staticSegments >= route.staticSegments) continue;
    const pathParameters: Record<string, string> = {};
    route.params.forEach((name, i) => {
      pathParameters[name] = decodeURIComponent(m[i + 1]);
    });
    best = { route, pathParameters };
  }
  return best;
}

const TEXT_TYPES = /^(application\/(json|[\w.+-]*\+json|x-www-form-urlencoded|xml)|text\/)/i;

/** The payload 2.0 event API Gateway would send for this request. */
export function toApiGatewayEvent(
  req: IncomingMessage,
  body: Buffer,
  match: { route: CompiledRoute; pathParameters: Record<string, string> } | undefined,
  now: Date,
  arrivedAtMs = Date.now(),
): APIGatewayProxyEventV2 {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const headers: Record<string, string> = {};
  // Repeated headers are joined with commas; names are lower-cased (node already lower-cases).
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i].toLowerCase();
    if (name === 'cookie') continue;
    headers[name] =
      headers[name] === undefined ? req.rawHeaders[i + 1] : `${headers[name]},${req.rawHeaders[i + 1]}`;
  }
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = query[k] === undefined ? v : `${query[k]},${v}`;
  const contentType = headers['content-type'] ?? '';
  const isText = body.length === 0 || TEXT_TYPES.test(contentType);
  const cookies = req.headers.cookie?.split(';').map((c) => c.trim());
  const requestId = randomUUID();
  const routeKey = match?.route.routeKey ?? DEFAULT_ROUTE_KEY;
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(match?.route.params.length ? { pathParameters: match.pathParameters } : {}),
    ...(body.length ? { body: isText ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: !isText,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: {
        method: req.method ?? 'GET',
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: req.socket.remoteAddress?.replace(/^::ffff:/, '') ?? '127.0.0.1',
        userAgent: headers['user-agent'] ?? '',
      },
      requestId,
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      // When the request arrived, in real time as API Gateway stamps it: the pipeline's deadline runs
      // from it (shared/deadline.ts), so a request that queued here under load is shed, never the
      // test clock's business time.
      timeEpoch: arrivedAtMs,
    },
  };
}

export function lambdaContext(functionName: string, requestId: string): Context {
  const deadline = Date.now() + 30_000;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:local:000000000000:function:${functionName}`,
    memoryLimitInMB: '512',
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/**
 * The body, or null when it exceeds `limit`. An oversized body is still read to its end (and
 * dropped): leaving it unread would break the kept-alive connection for the next request.
 */
export async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= limit) chunks.push(chunk as Buffer);
  }
  return size > limit ? null : Buffer.concat(chunks);
}

export function sendJson(
  res: ServerResponse,
  statusCode: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const text = JSON.stringify(body);
  res.writeHead(
    statusCode,
    withTransportHeaders({
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      ...headers,
    }),
  );
  res.end(text);
}

export function sendResult(res: ServerResponse, result: APIGatewayProxyStructuredResultV2) {
  const body = result.body
    ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8')
    : Buffer.alloc(0);
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(withTransportHeaders(result.headers))) headers[k] = String(v);
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  headers['content-length'] = String(body.length);
  res.writeHead(result.statusCode ?? 200, headers);
  res.end(body);
}
