import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import * as z from 'zod';
import type { Clock } from '#shared/domain/ports';
import { AppError, BadRequestError, toErrorBody, ValidationError } from '#shared/errors';
import { errorBodySchema } from '#shared/http/error-body';
import { declaredResponse } from '#shared/http/responses';
import type { Route, RouteGroup } from '#shared/http/types';
import { routeKey } from '#shared/http/types';
import { logger } from '#shared/logger';
import { DASHBOARD_PATH, dashboardFiles } from './dashboard-files';
import {
  compileRoutes,
  DEFAULT_ROUTE_KEY,
  matchRoute,
  readBody,
  sendJson,
  sendResult,
  toApiGatewayEvent,
} from './gateway';

/** API Gateway's payload limit is 10 MB; the local gateway keeps 1 MB (no route needs more). */
const BODY_LIMIT = 1024 * 1024;

const advanceSchema = z
  .object({
    seconds: z
      .number()
      .positive()
      .max(400 * 86_400),
  })
  .strict();

export interface LocalServerOptions {
  groups: RouteGroup[];
  /** The function that answers routes no group declares (API Gateway's `$default`). */
  defaultGroup: string;
  clock: Clock;
  /** Runs a group's Lambda handler with an API Gateway event. */
  invoke: (group: string, event: APIGatewayProxyEventV2) => Promise<APIGatewayProxyStructuredResultV2>;
  /** Local-only paths answered before the routes (the JWKS of the local issuer). */
  extraJson: Record<string, () => unknown>;
  /** The test clock: `GET /api/test-helpers/clock`, `POST /api/test-helpers/clock/advance`. */
  advanceClock: (seconds: number) => Promise<Date>;
  /** Check every answer against its route's response schema (tests). */
  checkResponses: boolean;
  onViolation: (violation: string) => void;
  /** The dashboard's build folder, served at /dashboard as S3 behind CloudFront serves it on AWS. */
  dashboardDir: string;
}

/**
 * The local API Gateway: turns requests into payload 2.0 events for the same handlers Lambda
 * runs. Every error body comes from toErrorBody, the mapper's own function, including the answers
 * to requests the handlers never see (too large, malformed path, unparsable request line).
 */
export function createLocalServer(options: LocalServerOptions): Server {
  const compiled = compileRoutes(options.groups);
  const dashboard = dashboardFiles(options.dashboardDir);
  const routes = new Map<string, Route>(
    options.groups.flatMap((g) => g.routes.map((r) => [routeKey(r), r] as const)),
  );
  const sendError = (
    res: ServerResponse,
    error: unknown,
    path: string,
    headers: Record<string, string> = {},
  ) => {
    const body = toErrorBody(error, path, options.clock.now());
    sendJson(res, body.statusCode, body, headers);
  };

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const arrivedAt = Date.now();
    const url = new URL(req.url ?? '/', 'http://localhost');
    const body = await readBody(req, BODY_LIMIT);
    if (body === null) {
      // The rest of the body is discarded and the connection closed, so no leftover bytes are
      // read as the next request of a kept-alive connection.
      const error = new AppError(413, 'payload_too_large', 'Request body is larger than 1 MB');
      return sendError(res, error, url.pathname, { connection: 'close' });
    }
    const isDashboard = url.pathname === DASHBOARD_PATH || url.pathname.startsWith(`${DASHBOARD_PATH}/`);
    if (isDashboard && (req.method === 'GET' || req.method === 'HEAD')) return dashboard(url.pathname, res);
    const extra = req.method === 'GET' ? options.extraJson[url.pathname] : undefined;
    if (extra) return sendJson(res, 200, extra());
    if (url.pathname.startsWith('/api/test-helpers/clock')) return clockRoute(req, res, url.pathname, body);
    let match: ReturnType<typeof matchRoute>;
    try {
      match = matchRoute(compiled, req.method ?? 'GET', url.pathname);
    } catch (cause) {
      return sendError(
        res,
        new BadRequestError('The request path is not a valid URL path', 'malformed_path', { cause }),
        url.pathname,
      );
    }
    const group = match?.route.group ?? options.defaultGroup;
    const event = toApiGatewayEvent(req, body, match, options.clock.now(), arrivedAt);
    const result = await options.invoke(group, event);
    if (options.checkResponses) check(match ? routes.get(match.route.routeKey) : undefined, result);
    sendResult(res, result);
  }

  async function clockRoute(req: IncomingMessage, res: ServerResponse, path: string, body: Buffer) {
    if (path === '/api/test-helpers/clock' && req.method === 'GET')
      return sendJson(res, 200, { now: options.clock.now().toISOString() });
    if (path !== '/api/test-helpers/clock/advance' || req.method !== 'POST')
      return sendError(res, new AppError(404, 'not_found', `Cannot ${req.method} ${path}`), path);
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8') || '{}');
    } catch (cause) {
      return sendError(
        res,
        new BadRequestError('Request body is not valid JSON', 'malformed_json', { cause }),
        path,
      );
    }
    const input = advanceSchema.safeParse(parsed);
    if (!input.success)
      return sendError(
        res,
        new ValidationError(['seconds must be a positive number of at most 400 days']),
        path,
      );
    const now = await options.advanceClock(input.data.seconds);
    return sendJson(res, 200, { now: now.toISOString() });
  }

  /** A mismatch between an answer and its route's schema is recorded; the tests fail on any. */
  function check(route: Route | undefined, result: APIGatewayProxyStructuredResultV2) {
    const status = result.statusCode ?? 200;
    const contentType = String(result.headers?.['content-type'] ?? '');
    const name = route ? routeKey(route) : DEFAULT_ROUTE_KEY;
    // A declared status keeps its own schema (health's 503 is a report); other failures are errors.
    const declared = route && declaredResponse(route, status);
    const expected = declared === undefined && status >= 400 ? errorBodySchema : declared;
    if (expected === undefined)
      return options.onViolation(`${name} answered ${status}, which it does not declare`);
    if (expected === null || !(expected instanceof z.ZodType)) return;
    if (!contentType.includes('json'))
      return options.onViolation(`${name} answered ${status} with ${contentType}`);
    const parsed = expected.safeParse(result.body ? JSON.parse(result.body) : undefined);
    if (!parsed.success)
      options.onViolation(
        `${name} ${status}: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`,
      );
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error) => {
      logger.error('local gateway failure', { error });
      if (!res.headersSent) sendError(res, error, req.url ?? '/');
    });
  });
  // Requests node cannot parse (a header section over 16 KB, a broken request line) get the
  // error body too, as API Gateway answers them, instead of node's bare status line.
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable) return socket.destroy();
    const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
    const status = tooLarge ? 431 : 400;
    const message = tooLarge ? 'Request headers or URL are too large' : 'Malformed HTTP request';
    const body = JSON.stringify(
      toErrorBody(
        new AppError(status, tooLarge ? 'headers_too_large' : 'bad_request', message),
        '/',
        options.clock.now(),
      ),
    );
    socket.end(
      `HTTP/1.1 ${status} ${tooLarge ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
        `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}
