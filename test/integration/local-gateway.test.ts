import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  compileRoutes,
  matchRoute,
  type GatewayRouteGroup as RouteGroup,
  readBody,
  sendJson,
  toApiGatewayEvent,
} from '#infra/local/gateway';

const noop = async () => ({ statusCode: 200 });
const groups: RouteGroup[] = [
  {
    name: 'demo',
    routes: [
      { method: 'GET', path: '/api/products/{id}', auth: [], summary: '', handler: noop },
      { method: 'GET', path: '/api/products/seller', auth: [], summary: '', handler: noop },
      { method: 'POST', path: '/api/files/{key+}', auth: [], summary: '', handler: noop },
    ],
  },
];
const routes = compileRoutes(groups);

let server: Server;
let base = '';
beforeAll(async () => {
  // Echoes the payload 2.0 event the local gateway builds for each request.
  server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const match = matchRoute(routes, req.method ?? 'GET', url.pathname);
    if (!match) return sendJson(res, 404, {});
    const body = (await readBody(req, 1024 * 1024)) as Buffer;
    sendJson(res, 200, toApiGatewayEvent(req, body, match, new Date()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('the local gateway builds API Gateway payload 2.0 events', () => {
  it('lower-cases header names and joins repeated query parameters with commas', async () => {
    const res = await fetch(`${base}/api/products/42?tag=a&tag=b&page=2`, {
      headers: { 'X-Custom-Header': 'V' },
    });
    const event = (await res.json()) as any;
    expect(event.version).toBe('2.0');
    expect(event.routeKey).toBe('GET /api/products/{id}');
    expect(event.pathParameters).toEqual({ id: '42' });
    expect(event.queryStringParameters).toEqual({ tag: 'a,b', page: '2' });
    expect(event.rawQueryString).toBe('tag=a&tag=b&page=2');
    expect(event.headers['x-custom-header']).toBe('V');
    expect(event.requestContext.http).toMatchObject({
      method: 'GET',
      path: '/api/products/42',
      sourceIp: '127.0.0.1',
    });
  });

  it('prefers the route with more static segments, as API Gateway does', async () => {
    const event = (await (await fetch(`${base}/api/products/seller`)).json()) as any;
    expect(event.routeKey).toBe('GET /api/products/seller');
  });

  it('sends JSON bodies as text and binary bodies base64-encoded', async () => {
    const json: any = await (
      await fetch(`${base}/api/files/a/b.txt`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"a":1}',
      })
    ).json();
    expect(json).toMatchObject({
      body: '{"a":1}',
      isBase64Encoded: false,
      pathParameters: { key: 'a/b.txt' },
    });
    const bytes = Buffer.from([0, 1, 2, 250]);
    const binary: any = await (
      await fetch(`${base}/api/files/x`, {
        method: 'POST',
        headers: { 'content-type': 'application/pdf' },
        body: bytes,
      })
    ).json();
    expect(binary.isBase64Encoded).toBe(true);
    expect(Buffer.from(binary.body, 'base64')).toEqual(bytes);
  });

  it('matches nothing for an unknown path or method', () => {
    expect(matchRoute(routes, 'GET', '/api/nothing')).toBeUndefined();
    expect(matchRoute(routes, 'DELETE', '/api/products/1')).toBeUndefined();
  });
});
