import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { createHttpHandler, defineHandlers } from '#shared/http/pipeline';
import { defineRoutes, rawReply, reply } from '#shared/http/types';
import type { Container } from '#shared/platform/container';
import { useContainer } from '#shared/platform/current';

const NOW = new Date('2026-11-23T12:00:00.000Z');

/** Public, unlimited routes: the pipeline runs without any repository. */
const routes = defineRoutes('unit', [
  {
    operationId: 'echo',
    method: 'POST',
    path: '/echo/{id}',
    auth: [],
    rateLimited: false,
    summary: 'Echo',
    request: {
      path: z.object({
        id: z
          .string()
          .regex(/^\d{1,3}$/)
          .transform(Number),
      }),
      query: z.object({ n: z.coerce.number().int().max(5).default(1) }),
      body: z.object({ name: z.string() }).strict(),
    },
    notFound: 'Thing not found',
    responses: { 201: z.object({ id: z.number(), n: z.number(), name: z.string() }) },
  },
  {
    operationId: 'options',
    method: 'PUT',
    path: '/options',
    auth: [],
    rateLimited: false,
    summary: 'Optional body',
    request: { body: z.object({ flag: z.boolean().optional() }).strict(), optionalBody: true },
    responses: { 200: z.object({ flag: z.boolean().optional() }), 202: z.object({}) },
  },
  {
    operationId: 'pdf',
    method: 'GET',
    path: '/pdf',
    auth: [],
    rateLimited: false,
    summary: 'Bytes',
    responses: { 200: { contentType: 'application/pdf', description: 'bytes' } },
  },
]);

const group = defineHandlers(routes, () => ({
  echo: async ({ path, query, body }) => ({ id: path.id, n: query.n, name: body.name }),
  options: async ({ body }) => (body.flag ? reply(202, {}, { 'x-flag': 'on' }) : body),
  pdf: async () => rawReply('application/pdf', Buffer.from('%PDF-1.4')),
}));
const handler = createHttpHandler(async () => ({ group }));

function event(method: string, path: string, routePath: string, init: Partial<APIGatewayProxyEventV2> = {}) {
  return {
    version: '2.0',
    routeKey: `${method} ${routePath}`,
    rawPath: path,
    rawQueryString: '',
    headers: { 'content-type': 'application/json' },
    isBase64Encoded: false,
    requestContext: { http: { method, path, sourceIp: '127.0.0.1' }, requestId: 'req-1' },
    ...init,
  } as unknown as APIGatewayProxyEventV2;
}

const context = { awsRequestId: 'req-1' } as Context;
const call = async (e: APIGatewayProxyEventV2) => {
  const out = (await handler(e, context)) as {
    statusCode: number;
    body: string;
    headers: Record<string, string>;
  };
  return { ...out, json: out.body ? JSON.parse(out.body) : undefined };
};

beforeAll(() => {
  useContainer({
    clock: { now: () => NOW },
    wallClock: { now: () => NOW },
    ids: { uuid: () => 'u', prefixed: (p: string) => `${p}_x` },
    unitOfWork: <T>(work: () => Promise<T>) => work(),
  } as unknown as Container);
});

describe('the pipeline validates with the route row', () => {
  it('hands the handler the parsed path, query and body and answers the lowest declared status', async () => {
    const res = await call(
      event('POST', '/echo/7', '/echo/{id}', {
        pathParameters: { id: '7' },
        queryStringParameters: { n: '3' },
        body: '{"name":"Ana"}',
      }),
    );
    expect(res.statusCode).toBe(201);
    expect(res.json).toEqual({ id: 7, n: 3, name: 'Ana' });
  });

  it("answers the route's 404 for a path parameter that fails its schema, before the body is checked", async () => {
    const res = await call(
      event('POST', '/echo/x', '/echo/{id}', { pathParameters: { id: 'x'.repeat(2000) }, body: '{}' }),
    );
    expect(res.statusCode).toBe(404);
    expect(res.json).toMatchObject({
      statusCode: 404,
      message: 'Thing not found',
      code: 'not_found',
      path: '/echo/x',
    });
  });

  it('answers 400 naming the query field and the body field', async () => {
    const badQuery = await call(
      event('POST', '/echo/1', '/echo/{id}', {
        pathParameters: { id: '1' },
        queryStringParameters: { n: '9' },
        body: '{"name":"Ana"}',
      }),
    );
    expect(badQuery.statusCode).toBe(400);
    expect(badQuery.json.message).toEqual(['n must be at most 5']);
    const badBody = await call(
      event('POST', '/echo/1', '/echo/{id}', { pathParameters: { id: '1' }, body: '{"name":1,"x":2}' }),
    );
    expect(badBody.statusCode).toBe(400);
    expect(badBody.json.message).toEqual(
      expect.arrayContaining(['name must be a string', 'x is not allowed']),
    );
  });

  it('requires a body unless the row says optionalBody', async () => {
    const missing = await call(event('POST', '/echo/1', '/echo/{id}', { pathParameters: { id: '1' } }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json.message).toEqual(['body is required']);
    const optional = await call(event('PUT', '/options', '/options'));
    expect(optional.statusCode).toBe(200);
    expect(optional.json).toEqual({});
  });

  it('sends a Reply with its own status and headers, and raw bytes base64-encoded', async () => {
    const flagged = await call(event('PUT', '/options', '/options', { body: '{"flag":true}' }));
    expect(flagged.statusCode).toBe(202);
    expect(flagged.headers['x-flag']).toBe('on');
    const pdf = (await handler(event('GET', '/pdf', '/pdf'), context)) as Record<string, unknown>;
    expect(pdf).toMatchObject({
      statusCode: 200,
      isBase64Encoded: true,
      headers: { 'content-type': 'application/pdf' },
    });
    expect(Buffer.from(pdf.body as string, 'base64').toString()).toBe('%PDF-1.4');
  });

  it("answers a route no row declares (API Gateway's $default) with the mapper's 404", async () => {
    const res = await call(event('GET', '/nowhere', '', { routeKey: '$default' }));
    expect(res.statusCode).toBe(404);
    expect(res.json).toEqual({
      statusCode: 404,
      message: 'Cannot GET /nowhere',
      code: 'not_found',
      timestamp: NOW.toISOString(),
      path: '/nowhere',
    });
  });
});
